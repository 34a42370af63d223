// Option values resolved against the registries (cli/options.hpp): the space options
// against the workload's variants and parameter schema, --board auto against the present
// GPU.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "boards/board.hpp"
#include "cli/cli.hpp"
#include "cli/options.hpp"

namespace flowtune::cli {

namespace {

/// The values of --tunable NAME=V1,V2,...: integers, or the names of a categorical
/// tunable's values (TunableDomain::choices of the workload's variants, those of --variant
/// when given; e.g. simd_target=best,AVX2).
std::vector<int> parse_tunable_values(const Workload& workload,
                                      const std::vector<std::string>& variants,
                                      const std::string& name, const std::string& text) {
  std::vector<TunableDomain> categorical;
  for (const Variant* v : workload.variants()) {
    if (!variants.empty() &&
        std::find(variants.begin(), variants.end(), v->name()) == variants.end())
      continue;
    for (const TunableDomain& d : v->tunables())
      if (d.name == name && !d.choices.empty()) categorical.push_back(d);
  }
  if (categorical.empty()) return parse_int_list("tunable " + name, text);
  std::vector<int> out;
  for (const std::string& item : split_list(text)) {
    std::optional<int> value;
    for (const TunableDomain& d : categorical)
      for (std::size_t k = 0; k < d.choices.size() && k < d.values.size() && !value; ++k)
        if (d.choices[k] == item) value = d.values[k];
    if (!value) {
      try {
        value = parse_int_list("tunable " + name, item).front();
      } catch (const UsageError&) {
        std::string names;
        for (const std::string& c : categorical.front().choices)
          names += (names.empty() ? "" : ", ") + c;
        throw UsageError("--tunable " + name + ": '" + item + "' is not one of its values (" +
                         names + ") nor a code");
      }
    }
    out.push_back(*value);
  }
  if (out.empty()) throw UsageError("--tunable " + name + ": empty list");
  return out;
}

}  // namespace

SpaceOptions to_space_options(const SpaceArgs& a) {
  SpaceOptions s;
  const Workload* workload = nullptr;
  try {
    workload = &find_workload(a.workload);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--workload: ") + e.what());
  }
  s.workload = a.workload;
  for (const std::string& name : a.variants) {  // a name of the command line: exit 2
    if (find_workload_variant(*workload, name)) continue;
    std::string names;
    for (const Variant* v : workload->variants()) names += (names.empty() ? "" : ", ") + v->name();
    throw UsageError("--variant: unknown variant '" + name + "' of workload '" + a.workload +
                     "' (this build has: " + names + ")");
  }
  s.variants = a.variants;
  s.precisions = a.precisions;
  std::vector<std::string> offered;  // precisions of the workload's (named) variants
  for (const Variant* v : workload->variants()) {
    if (!a.variants.empty() &&
        std::find(a.variants.begin(), a.variants.end(), v->name()) == a.variants.end())
      continue;
    for (const std::string& p : v->precisions())
      if (std::find(offered.begin(), offered.end(), p) == offered.end()) offered.push_back(p);
  }
  for (const std::string& p : a.precisions)
    if (!offered.empty() && std::find(offered.begin(), offered.end(), p) == offered.end()) {
      std::string names;
      for (const std::string& o : offered) names += (names.empty() ? "" : ", ") + o;
      throw UsageError("--precision '" + p + "' is offered by none of the selected variants (" +
                       names + ")");
    }
  s.default_dimensions = !a.no_default_dimensions;
  for (const std::string& t : a.tunables) {
    const auto eq = t.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("--tunable '" + t + "': expected NAME=V1,V2,...");
    const std::string name = t.substr(0, eq);
    s.tunable_values[name] = parse_tunable_values(*workload, a.variants, name, t.substr(eq + 1));
  }
  for (const std::string& p : a.params) {
    const auto eq = p.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("--param '" + p +
                       "': expected NAME=V1,V2,... or a range NAME=LO:HI:STEP, "
                       "NAME=LO:HI:log[:COUNT], NAME=LO:HI:lin:COUNT");
    const std::string name = p.substr(0, eq);
    const ParamSpec* spec = workload->find_param(name);
    if (!spec) {
      std::string names;
      for (const ParamSpec& q : workload->params()) names += (names.empty() ? "" : ", ") + q.name;
      throw UsageError("--param: unknown parameter '" + name + "' of workload '" + a.workload +
                       "' (it has: " + (names.empty() ? std::string("none") : names) + ")");
    }
    s.param_values[name] = parse_dimension_option(*spec, p.substr(eq + 1), "--param");
  }
  return s;
}

std::string resolve_board(const std::string& board, std::ostream& note) {
  if (board == "auto") {
    const BoardDetection found = detect_board();
    note << board_detection_note(found, load_board(found.name)) << '\n';
    return found.name;
  }
  if (const auto target = resolve_board_alias(board)) {
    note << board_alias_note(board) << '\n';
    return *target;
  }
  return board;
}

}  // namespace flowtune::cli
