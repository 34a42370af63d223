// Internal to interop/: how a value is written in a Kernel Tuner cache key and how numbers are
// written (whole numbers as integers, as db/config_key.cpp does); the linear-time parser of
// the files read.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

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
/// parse_ordered of the text [first, last).
ojson parse_ordered(const char* first, const char* last);

/// A Kernel Tuner / T4 document whose entries are left as text: what parse_split returns.
struct SplitDocument {
  /// One entry: a member of the root's "cache" object (key: its name) or an element of the
  /// root's "results" array (key ""). A container is its text [begin, end) of the parsed
  /// text (read it with parse_ordered); any other value is parsed (in value, begin == end).
  struct Entry {
    std::string key;
    std::size_t begin = 0, end = 0;
    ojson value;
    bool result = false;  ///< an element of "results" (else a member of "cache")
  };
  ojson root;  ///< the document; "cache" an empty object, "results" an empty array
  std::vector<Entry> entries;
};

/// Parses text like parse_ordered (same errors) except for the entries of a root object's
/// "cache" object or "results" array, which are checked to be JSON and located, not built:
/// the parse of a file of 10^6 entries holds its text and one Entry each, not a document of
/// every field. The entries' duplicate keys are found when they are read (parse_ordered);
/// two entries with one cache key are refused here.
SplitDocument parse_split(const char* first, const char* last);

}  // namespace flowtune::interop::detail
