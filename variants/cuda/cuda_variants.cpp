#include "variants/registry_parts.hpp"

namespace flowtune {

std::vector<const Variant*> cuda_variants() { return {}; }

}  // namespace flowtune
