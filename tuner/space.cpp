#include "tuner/space.hpp"

#include <algorithm>
#include <stdexcept>

#include "variants/variant.hpp"

namespace flowtune {
namespace {

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

std::vector<const Variant*> selected_variants(const Board& board, const SpaceOptions& options) {
  std::vector<const Variant*> out;
  if (options.variants.empty()) {
    for (const Variant* v : all_variants())
      if (v->target() == board.target) out.push_back(v);
    return out;
  }
  for (const std::string& name : options.variants) {
    const Variant* v = find_variant(name);
    if (!v) {
      std::vector<std::string> names;
      for (const Variant* k : all_variants()) names.push_back(k->name());
      throw std::invalid_argument("unknown variant '" + name + "' (this build has: " + join(names) + ")");
    }
    out.push_back(v);
  }
  return out;
}

// Appends every combination of the domains to `out`, starting from `base`.
void expand(const std::vector<TunableDomain>& domains, std::size_t i, Config& base,
            std::vector<Config>& out) {
  if (i == domains.size()) {
    out.push_back(base);
    return;
  }
  for (int value : domains[i].values) {
    base.tunables[domains[i].name] = value;
    expand(domains, i + 1, base, out);
  }
}

}  // namespace

std::vector<Config> enumerate_space(const Board& board, const SpaceOptions& options) {
  std::vector<Config> out;
  const std::vector<int> clocks = options.clocks_mhz.empty() ? std::vector<int>{0} : options.clocks_mhz;
  std::vector<std::string> unused_overrides;
  for (const auto& kv : options.tunable_values) unused_overrides.push_back(kv.first);

  for (const Variant* variant : selected_variants(board, options)) {
    std::vector<std::string> precisions = variant->precisions();
    if (!options.precisions.empty()) {
      std::vector<std::string> kept;
      for (const std::string& p : options.precisions)
        if (std::find(precisions.begin(), precisions.end(), p) != precisions.end()) kept.push_back(p);
      precisions = kept;
    }
    std::vector<TunableDomain> domains = variant->tunables();
    for (TunableDomain& d : domains) {
      auto it = options.tunable_values.find(d.name);
      if (it != options.tunable_values.end()) {
        d.values = it->second;
        unused_overrides.erase(std::remove(unused_overrides.begin(), unused_overrides.end(), d.name),
                               unused_overrides.end());
      }
    }
    for (const std::string& precision : precisions)
      for (int iterations : options.iterations)
        for (int clock : clocks) {
          Config base;
          base.variant = variant->name();
          base.precision = precision;
          base.clock_mhz = clock;
          base.params = options.params;
          base.params.iterations = iterations;
          expand(domains, 0, base, out);
        }
  }
  if (!unused_overrides.empty())
    throw std::invalid_argument("tunable '" + unused_overrides.front() +
                                "' belongs to none of the selected variants");
  return out;
}

}  // namespace flowtune
