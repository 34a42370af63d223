// `tune space`: the space of a board, pruned or kept with the occupancy of each config.
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "boards/board.hpp"
#include "cli/cli.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "db/repository.hpp"
#include "select/prune_reasons.hpp"
#include "tuner/constraint_checks.hpp"
#include "tuner/occupancy.hpp"
#include "tuner/progress.hpp"
#include "tuner/space_text.hpp"
#include "variants/variant.hpp"

namespace flowtune::cli {
namespace {

std::string join_factors(const OccupancyResult& o) {
  if (o.limiting_factors.empty()) return o.limited_by;
  std::string s;
  for (const std::string& f : o.limiting_factors) s += (s.empty() ? "" : " = ") + f;
  return s;
}

// The kernel with the fewest resident blocks decides the config's occupancy.
const KernelOccupancy* worst_kernel(const ConstraintCheck& check) {
  const KernelOccupancy* worst = nullptr;
  for (const KernelOccupancy& k : check.kernels)
    if (!worst || k.occupancy.active_blocks_per_sm < worst->occupancy.active_blocks_per_sm)
      worst = &k;
  return worst;
}

// "blocks/SM 2 (ft_global_u, limited by shared_memory), occupancy 25%".
std::string occupancy_text(const ConstraintCheck& check) {
  const KernelOccupancy* w = worst_kernel(check);
  if (!w) return "";
  std::ostringstream os;
  os << "blocks/SM " << w->occupancy.active_blocks_per_sm << " (" << w->resources.kernel
     << ", limited by " << join_factors(w->occupancy) << "), occupancy "
     << int(w->occupancy.occupancy * 100 + 0.5) << "%"
     << (w->resources.estimated ? " [estimated: built for " + w->resources.built_for + "]" : "");
  return os.str();
}

// The reason without its "label: " prefix, so that configs pruned for the same cause group.
std::string reason_class(const Config& c, const std::string& reason) {
  const std::string prefix = c.label() + ": ";
  return reason.rfind(prefix, 0) == 0 ? reason.substr(prefix.size()) : reason;
}

// A value of a dimension or parameter: whole numbers as JSON integers ("iterations": 50, not
// 50.0), as db::params_json writes them.
nlohmann::json json_number(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9.0e15)
    return static_cast<std::int64_t>(v);
  return v;
}

// `tune space --format json`: the summary, the dimensions and every config.
void print_space_json(const Board& board, const Workload& workload, const ParamDimensions& dims,
                      const ConfigSpace& configs,
                      const std::vector<const ConstraintCheck*>& results, std::size_t kept,
                      std::size_t pruned, const std::map<std::string, std::size_t>& per_reason,
                      const std::vector<PruneClass>& classes) {
  nlohmann::json out;
  out["board"] = board.name;
  out["workload"] = workload.name();
  for (const auto& [name, dim] : dims) {
    out["dimensions"][name] = nlohmann::json::array();
    for (double v : dim) out["dimensions"][name].push_back(json_number(v));
    if (!dim.is_list()) out["ranges"][name] = dim.text(*workload.find_param(name));
  }
  out["summary"] = {{"configs", configs.size()}, {"kept", kept}, {"pruned", pruned}};
  for (const auto& [reason, n] : per_reason) out["pruned_by_reason"][reason] = n;
  out["pruned_by_class"] = nlohmann::json::array();
  for (const PruneClass& c : classes)
    out["pruned_by_class"].push_back(
        {{"class", c.name}, {"configs", c.configs}, {"reasons", c.reasons}});
  out["configs"] = nlohmann::json::array();
  for (std::size_t i = 0; i < configs.size(); ++i) {
    const Config c = configs[i];
    nlohmann::json j = {{"label", c.label()},
                        {"variant", c.variant},
                        {"precision", c.precision},
                        {"tunables", c.tunables},
                        {"params", nlohmann::json::parse(db::params_json(c.params))},
                        {"clock_mhz", c.clock_mhz},
                        {"kept", !results[i]->prune_reason}};
    if (results[i]->prune_reason) j["reason"] = *results[i]->prune_reason;
    if (const KernelOccupancy* w = worst_kernel(*results[i])) {
      j["blocks_per_sm"] = w->occupancy.active_blocks_per_sm;
      j["occupancy"] = w->occupancy.occupancy;
      j["limited_by"] = w->occupancy.limited_by;
    }
    out["configs"].push_back(j);
  }
  std::cout << out.dump(1) << '\n';
}

// `tune space --format csv`: one row per config.
void print_space_csv(const ConfigSpace& configs,
                     const std::vector<const ConstraintCheck*>& results) {
  std::cout << "label,params,kept,reason,blocks_per_sm,occupancy\n";
  auto quoted = [](const std::string& s) {
    std::string q = "\"";
    for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
  };
  configs.for_each([&](std::size_t i, const Config& c) {
    const KernelOccupancy* w = worst_kernel(*results[i]);
    std::cout << quoted(c.label()) << ',' << quoted(c.params_text()) << ','
              << (results[i]->prune_reason ? 0 : 1) << ','
              << quoted(results[i]->prune_reason ? *results[i]->prune_reason : "") << ','
              << (w ? std::to_string(w->occupancy.active_blocks_per_sm) : "") << ','
              << (w ? std::to_string(w->occupancy.occupancy) : "") << '\n';
  });
}

// `tune space` of a space too large to check config by config: its dimensions, then each
// kernel config (variant, precision, tunables) checked once (at the first parameter point and
// clock: the checks of a cuda kernel config read no parameter), and the kept configs counted
// from the kernel configs kept and the parameter points and clocks each stands for.
void print_kernel_configs_summary(const Board& board, const ConfigSpace& configs,
                                  ConstraintChecks& checks) {
  std::size_t kept = 0, pruned = 0, kept_configs = 0, n_kernel = 0;
  for (const SpaceLayout::Block& b : configs.layout().blocks) {
    std::size_t combos = 1;
    for (const SpaceLayout::Axis& a : b.tunables) combos *= a.values.size();
    n_kernel += combos;
  }
  std::map<std::string, std::pair<std::size_t, std::size_t>> per_variant;  // kept, pruned
  std::vector<std::pair<std::string, std::string>> label_reasons;
  ResourceTally tally;
  CountProgress progress("checking kernel configs", n_kernel, std::cerr);
  std::size_t done = 0;
  for (const SpaceLayout::Block& b : configs.layout().blocks) {
    std::size_t combos = 1;
    for (const SpaceLayout::Axis& a : b.tunables) combos *= a.values.size();
    auto& pv = per_variant[b.variant + " " + b.precision];
    for (std::size_t k = 0; k < combos; ++k, ++done) {
      progress.tick(done);
      const Config c = configs[b.first + k];
      std::optional<std::string> reason;
      try {
        const ConstraintCheck& check = checks.get(b.first + k);
        tally.add(check);
        reason = check.prune_reason;
      } catch (const std::exception& e) {
        reason = c.label() + ": constraint check failed: " + e.what();
      }
      if (reason) {
        ++pruned;
        ++pv.second;
        label_reasons.emplace_back(c.label(), *reason);
      } else {
        ++kept;
        ++pv.first;
        kept_configs += b.size / combos;  // its parameter points x clocks
      }
    }
  }
  progress.finish(done);
  std::cout << "kernel configs per variant and precision (kept / pruned):\n";
  for (const auto& [name, kp] : per_variant)
    std::cout << "  " << std::left << std::setw(28) << name << kp.first << " / " << kp.second
              << '\n';
  const std::vector<PruneClass> classes = group_prune_reasons(label_reasons);
  std::cout << pruned_kernel_configs_text(classes);
  if (const std::string t = tally.text(); !t.empty()) std::cout << t << '\n';
  const std::size_t clocks = std::max<std::size_t>(1, configs.layout().clocks.size());
  std::cout << "board " << board.name << ": " << configs.size()
            << " configs (the product of the discretised dimensions' counts); " << n_kernel
            << " kernel configs checked (one per variant, precision and tunables: too many "
               "configs to check one by one), "
            << kept << " kept, " << pruned << " pruned; kept configs " << kept_configs << " = "
            << kept << " kept kernel configs x " << configs.n_param_points()
            << " parameter points x " << clocks
            << " clocks (computed, not enumerated; a run checks each parameter point it asks "
               "for against the workload's rules)\n";
}

}  // namespace

int run_space(const std::vector<std::string>& args) {
  std::string board_name = "host", format = "text";
  bool pruned_only = false, list = false;
  SpaceArgs space;
  po::options_description desc = command_options("space options");
  desc.add_options()("list", po::bool_switch(&list),
                     "one line per config (default: the summary only)")(
      "pruned-only", po::bool_switch(&pruned_only), "with --list: only the pruned configs")(
      "format", po::value(&format)->default_value(format),
      "text | csv | json (csv and json list every config)")("json", "same as --format json");
  desc.add(board_options(board_name)).add(space_options(space));
  po::variables_map vm;
  if (parse(args, desc, {}, vm, "tune space --board B [--variant V] [--list] [options]")) return 0;
  if (vm.count("json")) format = "json";
  if (format != "text" && format != "csv" && format != "json")
    throw UsageError("--format: '" + format + "' is not text, csv or json");
  const Board board = load_board(resolve_board(board_name));
  const SpaceOptions options = to_space_options(space);
  const Workload& workload = find_workload(options.workload);
  const ConfigSpace configs = make_space(board, options);
  const ParamDimensions dims = parameter_dimensions(workload, board, options);

  // Kernel resources from the committed table of NVRTC reports (one lookup per kernel
  // config); a kernel config missing from it is built, on every core.
  ConstraintChecks checks(
      board, workload, configs,
      board.target == "cuda" ? std::max(1u, std::thread::hardware_concurrency()) : 0u,
      ResourceSource::table_or_build);
  if (board.target == "cuda")
    std::cerr << "tune space: " << configs.size() << " configs on " << board.name << " ("
              << board.arch()
              << "); registers and shared memory of each kernel config from the committed "
                 "NVRTC table, a build where it has none\n";
  if (configs.size() > ConstraintChecks::kDenseChecks) {
    if (list || format != "text")
      throw UsageError("--list, csv and json print every config, and this space has " +
                       std::to_string(configs.size()) +
                       " configs: narrow it with --param, --no-default-dimensions or --variant");
    std::cout << space_dimensions_text(workload, configs) << std::flush;
    print_kernel_configs_summary(board, configs, checks);
    return 0;
  }
  std::map<std::size_t, ConstraintCheck> failed;  // by config: a check that threw
  std::vector<const ConstraintCheck*> results(configs.size());
  ResourceTally tally;
  std::set<const ConstraintCheck*> tallied;  // configs sharing a kernel config share a check
  CountProgress progress("checking configs", configs.size(), std::cerr);
  for (std::size_t i = 0; i < configs.size(); ++i) {
    progress.tick(i);
    try {
      results[i] = &checks.get(i);
      if (board.target == "cuda" && tallied.insert(results[i]).second) tally.add(*results[i]);
    } catch (const std::exception& e) {
      failed[i].prune_reason = configs[i].label() + ": constraint check failed: " + e.what();
      results[i] = &failed[i];
    }
  }
  progress.finish(configs.size());
  std::size_t kept = 0, pruned = 0;
  std::map<std::string, std::pair<std::size_t, std::size_t>> per_variant;  // kept, pruned
  std::map<std::string, std::size_t> per_reason;
  std::vector<std::pair<std::string, std::string>> label_reasons;
  configs.for_each([&](std::size_t i, const Config& c) {
    auto& pv = per_variant[c.variant + " " + c.precision];
    if (results[i]->prune_reason) {
      ++pruned;
      ++pv.second;
      ++per_reason[reason_class(c, *results[i]->prune_reason)];
      label_reasons.emplace_back(c.label(), *results[i]->prune_reason);
    } else {
      ++kept;
      ++pv.first;
    }
  });

  const std::vector<PruneClass> classes = group_prune_reasons(label_reasons);
  if (format == "json") {
    print_space_json(board, workload, dims, configs, results, kept, pruned, per_reason, classes);
    return 0;
  }
  if (format == "csv") {
    print_space_csv(configs, results);
    return 0;
  }
  std::cout << space_dimensions_text(workload, configs);
  if (list) {
    configs.for_each([&](std::size_t i, const Config& c) {
      if (results[i]->prune_reason)
        std::cout << "pruned  " << *results[i]->prune_reason << '\n';
      else if (!pruned_only)
        std::cout << "kept    " << c.label() << "  " << c.params_text() << "  "
                  << occupancy_text(*results[i]) << '\n';
    });
  }
  std::cout << "per variant and precision (kept / pruned):\n";
  for (const auto& [name, kp] : per_variant)
    std::cout << "  " << std::left << std::setw(28) << name << kp.first << " / " << kp.second
              << '\n';
  if (!classes.empty()) {
    // One line per rule or limit (numbers written N), most configs first, then its reasons
    // in numeric order ("49.5 KiB" before "108 KiB").
    std::cout << "pruned, by reason (configs, rule; N stands for the config's figures):\n";
    bool estimated = false;
    for (const PruneClass& c : classes) {
      std::cout << "  " << c.configs << "  " << c.name << '\n';
      if (c.name.find('N') != std::string::npos || c.reasons.size() > 1)
        std::cout << "      " << prune_class_examples(c) << '\n';
      estimated = estimated || c.name.find("resources estimated from an") != std::string::npos;
    }
    if (estimated)
      std::cout << "(resources estimated: this CUDA's NVRTC cannot build for " << board.arch()
                << ", so the registers and shared memory of each kernel come from a build for "
                   "the oldest architecture it supports; on the board itself they may differ "
                   "and a config pruned here may fit)\n";
  }
  if (const std::string t = tally.text(); !t.empty()) std::cout << t << '\n';
  std::cout << "board " << board.name << ": " << configs.size()
            << " configs (the product of the discretised dimensions' counts), " << kept << " kept, "
            << pruned << " pruned" << (list ? "" : " (--list prints every config)") << '\n';
  if (board.target == "cuda")
    std::cout << "clock dimension: " << board.gpu_clocks_mhz.size()
              << " supported clocks, explored only with `tune --allow-clock-control`\n";
  return 0;
}

}  // namespace flowtune::cli
