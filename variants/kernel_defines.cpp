#include "variants/kernel_defines.hpp"

#include <cctype>

namespace flowtune {

std::string kernel_macro(const std::string& tunable) {
  std::string macro = "FT_";
  for (char c : tunable) macro += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return macro;
}

std::string kernel_define(const std::string& tunable, int value) {
  return kernel_macro(tunable) + "=" + std::to_string(value);
}

std::string precision_macro(const std::string& precision) {
  if (precision == "f32" || precision == "f16" || precision == "mixed")
    return kernel_macro("precision_" + precision);
  return "";
}

}  // namespace flowtune
