// Cache keys and numbers of the Kernel Tuner interop (see kernel_tuner_json.hpp).
#include "interop/kernel_tuner_json.hpp"

#include <cmath>
#include <cstdint>

namespace flowtune::interop::detail {

ojson number(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9.0e15)
    return static_cast<std::int64_t>(v);
  return v;
}

std::string key_text(const ojson& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "True" : "False";
  if (value.is_null()) return "None";
  return value.dump();
}

std::string cache_key(const ojson& values_in_order) {
  std::string key;
  bool first = true;
  for (const auto& v : values_in_order) {
    if (!first) key += ",";
    key += key_text(v);
    first = false;
  }
  return key;
}

}  // namespace flowtune::interop::detail
