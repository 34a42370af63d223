#include "tuner/cli_options.hpp"

#include <iostream>
#include <sstream>

#include "boards/board.hpp"
#include "tuner/cli.hpp"

namespace flowtune::cli {

void add_space_options(po::options_description& desc, SpaceArgs& a) {
  desc.add_options()
      ("variant", po::value(&a.variants)->composing(), "variant to include (repeatable; default: all of the board's target)")
      ("precision", po::value(&a.precisions)->composing(), "f32 | f16 | mixed (repeatable; default: all)")
      ("tunable", po::value(&a.tunables)->composing(), "restrict a tunable: NAME=V1,V2,... (repeatable)")
      ("iterations", po::value(&a.iterations)->default_value(a.iterations), "inner iterations per warping, a list")
      ("n-scales", po::value(&a.n_scales)->default_value(a.n_scales), "pyramid levels")
      ("n-warpings", po::value(&a.n_warpings)->default_value(a.n_warpings), "warpings per scale")
      ("zoom", po::value(&a.zoom)->default_value(a.zoom), "pyramid zoom factor")
      ("tau", po::value(&a.tau)->default_value(a.tau), "dual time step")
      ("lambda", po::value(&a.lambda)->default_value(a.lambda), "data-term weight")
      ("theta", po::value(&a.theta)->default_value(a.theta), "coupling parameter")
      ("epsilon", po::value(&a.epsilon)->default_value(a.epsilon), "stopping threshold (0 = fixed iterations)");
}

std::vector<int> parse_int_list(const std::string& option, const std::string& text) {
  std::vector<int> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    try {
      std::size_t used = 0;
      const int v = std::stoi(item, &used);
      if (used != item.size()) throw std::invalid_argument(item);
      out.push_back(v);
    } catch (const std::exception&) {
      throw UsageError("--" + option + ": '" + item + "' is not an integer (expected a list like 10,25,50)");
    }
  }
  if (out.empty()) throw UsageError("--" + option + ": empty list");
  return out;
}

SpaceOptions to_space_options(const SpaceArgs& a) {
  SpaceOptions s;
  s.variants = a.variants;
  s.precisions = a.precisions;
  for (const std::string& t : a.tunables) {
    const auto eq = t.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("--tunable '" + t + "': expected NAME=V1,V2,...");
    s.tunable_values[t.substr(0, eq)] = parse_int_list("tunable " + t.substr(0, eq), t.substr(eq + 1));
  }
  s.iterations = parse_int_list("iterations", a.iterations);
  for (int it : s.iterations)
    if (it <= 0) throw UsageError("--iterations: values must be positive");
  if (a.n_scales < 1) throw UsageError("--n-scales must be >= 1");
  if (a.n_warpings < 1) throw UsageError("--n-warpings must be >= 1");
  if (!(a.zoom > 0 && a.zoom < 1)) throw UsageError("--zoom must be in (0, 1)");
  s.params.n_scales = a.n_scales;
  s.params.n_warpings = a.n_warpings;
  s.params.zoom = a.zoom;
  s.params.tau = a.tau;
  s.params.lambda = a.lambda;
  s.params.theta = a.theta;
  s.params.epsilon = a.epsilon;
  return s;
}

bool parse(const std::vector<std::string>& args, const po::options_description& desc,
           const po::positional_options_description& pos, po::variables_map& vm,
           const std::string& usage) {
  try {
    po::store(po::command_line_parser(args).options(desc).positional(pos).run(), vm);
    if (vm.count("help")) {
      std::cout << usage << "\n\n" << desc << '\n';
      return true;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + "\nusage: " + usage);
  }
  return false;
}

std::string resolve_board(const std::string& board) {
  return board == "auto" ? detect_board_name() : board;
}

}  // namespace flowtune::cli
