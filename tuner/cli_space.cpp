#include <iomanip>
#include <iostream>

#include "boards/board.hpp"
#include "tuner/cli.hpp"
#include "tuner/cli_options.hpp"
#include "tuner/constraints.hpp"
#include "tuner/occupancy.hpp"
#include "variants/variant.hpp"

namespace flowtune::cli {
namespace {

std::string join_factors(const OccupancyResult& o) {
  if (o.limiting_factors.empty()) return o.limited_by;
  std::string s;
  for (const std::string& f : o.limiting_factors) s += (s.empty() ? "" : " = ") + f;
  return s;
}

// "blocks/SM 2 (limited by shared_memory), occupancy 25%" over the config's kernels (the
// kernel with the fewest resident blocks decides).
std::string occupancy_text(const Board& board, const Variant& variant, const Config& config) {
  const std::vector<KernelResources> resources = variant.resources(config, board.arch());
  if (resources.empty()) return "";
  const bool optin = config.tunables.count("optin") && config.tunables.at("optin") != 0;
  OccupancyResult worst;
  worst.active_blocks_per_sm = -1;
  std::string kernel;
  for (const KernelResources& r : resources) {
    const OccupancyResult o = occupancy(board.limits, r, -1, optin);
    if (worst.active_blocks_per_sm < 0 || o.active_blocks_per_sm < worst.active_blocks_per_sm) {
      worst = o;
      kernel = r.kernel;
    }
  }
  std::ostringstream os;
  os << "blocks/SM " << worst.active_blocks_per_sm << " (" << kernel << ", limited by "
     << join_factors(worst) << "), occupancy " << int(worst.occupancy * 100 + 0.5) << "%"
     << (resources.front().estimated ? " [estimated: built for " + resources.front().built_for + "]"
                                     : "");
  return os.str();
}

}  // namespace

int run_space(const std::vector<std::string>& args) {
  std::string board_name = "host";
  bool pruned_only = false;
  SpaceArgs space;
  po::options_description desc("space options");
  desc.add_options()("help,h", "this help")("board",
                                            po::value(&board_name)->default_value(board_name),
                                            "board profile name, a .toml path, or auto")(
      "pruned-only", po::bool_switch(&pruned_only), "print only the pruned configs");
  add_space_options(desc, space);
  po::variables_map vm;
  if (parse(args, desc, {}, vm, "tune space --board B [--variant V] [options]")) return 0;
  const Board board = load_board(resolve_board(board_name));
  const SpaceOptions options = to_space_options(space);
  const std::vector<Config> configs = enumerate_space(board, options);
  std::cout << "workload " << options.workload << ", parameter dimensions:";
  for (const auto& [name, values] :
       parameter_dimensions(find_workload(options.workload), board, options)) {
    std::cout << ' ' << name << '=';
    for (std::size_t k = 0; k < values.size(); ++k)
      std::cout << (k ? "," : "") << shortest_decimal(values[k]);
  }
  std::cout << '\n';
  std::size_t kept = 0, pruned = 0;
  for (const Config& c : configs) {
    const Variant& variant = *find_workload_variant(find_workload(c.workload), c.variant);
    const std::optional<std::string> reason = prune_reason(board, variant, c);
    if (reason) {
      ++pruned;
      std::cout << "pruned  " << *reason << '\n';
    } else {
      ++kept;
      if (!pruned_only)
        std::cout << "kept    " << c.label() << "  " << c.params_text() << "  "
                  << occupancy_text(board, variant, c) << '\n';
    }
  }
  std::cout << "board " << board.name << ": " << configs.size() << " configs, " << kept << " kept, "
            << pruned << " pruned\n";
  if (board.target == "cuda")
    std::cout << "clock dimension: " << board.gpu_clocks_mhz.size()
              << " supported clocks, explored only with `tune --allow-clock-control`\n";
  return 0;
}

}  // namespace flowtune::cli
