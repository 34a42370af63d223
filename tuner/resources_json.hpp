// The resource report of a config's kernels as stored with its measurement (JSON text).
#pragma once

#include <string>
#include <vector>

#include "variants/variant.hpp"

namespace flowtune {

/// JSON array text of the resource report of each kernel, e.g.
/// [{"kernel":"update_u","threads":256,"registers":40,"static_shared_bytes":0,...}].
std::string resources_json(const std::vector<KernelResources>& resources);

/// Inverse of resources_json; "" gives an empty list. Throws std::invalid_argument for text
/// that is not such an array.
std::vector<KernelResources> parse_resources_json(const std::string& text);

}  // namespace flowtune
