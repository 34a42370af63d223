// Internal to interop/: how a value is written in a Kernel Tuner cache key and how numbers are
// written (whole numbers as integers, as db/config_key.cpp does).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace flowtune::interop::detail {

using ojson = nlohmann::ordered_json;

/// A whole number within the exactly representable range as an integer, else the double.
ojson number(double v);

/// Python's str() of the value Kernel Tuner reads from JSON: a string as it is, an integer
/// in decimal, a float as its shortest round-trip decimal (nlohmann's dump, which formats
/// like Python's repr in the range flowtune uses), "True"/"False" for booleans.
std::string key_text(const ojson& value);

/// Kernel Tuner's cache key of one config: the values' key_text joined by ",".
std::string cache_key(const ojson& values_in_order);

}  // namespace flowtune::interop::detail
