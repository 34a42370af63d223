// Internal to interop/: how a value is written in a Kernel Tuner cache key and how numbers are
// written (whole numbers as integers, as db/config_key.cpp does); the linear-time parser of
// the files read.
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

/// Parses text (RFC 8259 JSON) into an ordered_json in time linear in its length: objects
/// keep their members in file order but are built by appending (ordered_json's own parser
/// searches every object for the key it inserts, quadratic in the size of an object, e.g. a
/// cache of 10^5 entries). Throws nlohmann::json::parse_error for text that is not JSON and
/// std::invalid_argument for an object with a duplicate key ("duplicate key 'k'").
ojson parse_ordered(const std::string& text);

}  // namespace flowtune::interop::detail
