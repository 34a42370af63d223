#include "tuner/space_text.hpp"

#include <sstream>

#include "tuner/fixed_params.hpp"

namespace flowtune {

std::string space_dimensions_text(const Workload& workload, const ConfigSpace& space) {
  std::ostringstream os;
  os << "workload " << workload.name() << ", parameter dimensions:\n";
  std::string product;
  for (const auto& [name, dim] : space.param_dimensions()) {
    if (dim.size() < 2) continue;
    const ParamSpec* spec = workload.find_param(name);
    os << "  " << name << ' ' << (spec ? dim.text(*spec) : std::string()) << '\n';
    product += (product.empty() ? "" : " x ") + std::to_string(dim.size());
  }
  if (product.empty()) os << "  none (every parameter fixed)\n";
  const std::string fixed = fixed_params_text(workload, space.param_dimensions());
  if (!fixed.empty()) os << fixed << '\n';
  const std::size_t points = space.n_param_points();
  os << "parameter points: " << (product.empty() ? "1" : product) << " = " << points
     << " (the product of the dimensions' counts, each range enumerated at its resolution)";
  if (points > 0)
    os << "; configs: " << points << " x " << space.size() / points
       << " variant, precision, clock and tunable combinations = " << space.size();
  os << '\n';
  return os.str();
}

}  // namespace flowtune
