// Parser for the flat tunables object stored in configs.tunables_json.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace flowtune::reports {

/// Parses a flat JSON object of integers, e.g. {"tile_x":32,"tile_y":4} (what
/// flowtune::Config::tunables_json() writes), into (name, value) pairs in text order.
/// "" and "{}" give no pairs. Keys may not contain escapes. Throws std::invalid_argument
/// naming the text and the offset of the problem for anything else (nested values,
/// non-integers, duplicate keys, trailing text, values outside int).
std::vector<std::pair<std::string, int>> parse_tunables_json(const std::string& text);

}  // namespace flowtune::reports
