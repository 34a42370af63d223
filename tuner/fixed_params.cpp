#include "tuner/fixed_params.hpp"

namespace flowtune {

std::string fixed_params_text(const Workload& workload, const ParamDimensions& dims) {
  std::string list;
  for (const auto& [name, dim] : dims) {
    const ParamSpec* spec = workload.find_param(name);
    if (!spec || dim.size() != 1) continue;
    if (spec->absent_value && *spec->absent_value == dim.front()) continue;
    list += (list.empty() ? "" : ", ") + name + "=" + spec->value_text(dim.front());
  }
  return list.empty() ? "" : "fixed parameters: " + list;
}

}  // namespace flowtune
