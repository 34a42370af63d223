// The tuned-header codec's reader: the one parser of the config line of a header written by
// select/tuned_header.hpp (`tune export`). It depends on nlohmann-json and Config only, so
// the deployment library (api/) links it without the DB. ARCHITECTURE.md, "select/".
#pragma once

#include <string>

#include "variants/config.hpp"

namespace flowtune {

/// The prefix of the config line of a tuned header: "// flowtune-config: " for a
/// single-board header (board ""), "// flowtune-config[<board>]: " for one board's line of a
/// header of several boards. The JSON of the config follows it on the same line.
std::string tuned_config_marker(const std::string& board = "");

/// Parses the config JSON of a tuned header (flowtune::tuned::kConfigJson, or the text after
/// `// flowtune-config: `): an object with "workload", "variant", "precision" (strings),
/// "clock_mhz" (integer in [0, 100000]), "tunables" (32-bit integers) and "params"
/// (numbers). Nothing is checked against a variant here. Throws std::invalid_argument
/// naming the problem for text that is not such an object.
Config parse_tuned_config(const std::string& json);

/// The config of a tuned header file: its `// flowtune-config: {...}` line. A header of
/// several boards (select/multi_board_header.hpp) has one `// flowtune-config[<board>]:
/// {...}` line per board: `board` picks one. Throws std::runtime_error naming the file when
/// it cannot be read, has no such line, the line is malformed, or it is a header of several
/// boards and `board` is empty or not one of them (the message lists its boards).
Config read_tuned_header(const std::string& path, const std::string& board = "");

}  // namespace flowtune
