// Reads back a tuned header written by `tune export` (reports/export_header.hpp).
#pragma once

#include <string>

#include "variants/config.hpp"

namespace flowtune {

/// The config of a tuned header: its `// flowtune-config: {...}` line (db::config_json,
/// written by reports::tuned_header_text). Throws std::runtime_error naming the file when
/// it cannot be read, has no such line, or the line is malformed. A header of several boards
/// (reports/multi_board_header.hpp) has one `// flowtune-config[<board>]: {...}` line per
/// board: `board` picks one (an error naming the boards when it is empty or absent).
Config read_tuned_header(const std::string& path, const std::string& board = "");

}  // namespace flowtune
