// The tuned-header codec's reader: the one parser of the config line of a header written by
// select/tuned_header.hpp (`tune export`). It depends on nlohmann-json and Config only, so
// the deployment library (api/) links it without the DB. ARCHITECTURE.md, "select/".
#pragma once

#include <string>
#include <vector>

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

/// One config line of a tuned header: the board it was exported for ("" for a single-board
/// header's `// flowtune-config: ` line), the frame size it was tuned at (`tune --resolution`;
/// 0 x 0 = the inputs' own sizes) and the config. A line of a header of several boards or
/// sizes is `// flowtune-config[<board>]: ` or `// flowtune-config[<board>@<W>x<H>]: `.
struct TunedHeaderEntry {
  std::string board;
  int width = 0, height = 0;
  Config config;
};

/// Every config line of a tuned header file, in file order. Throws std::runtime_error naming
/// the file when it cannot be read, has no config line, or a line or its label is malformed.
std::vector<TunedHeaderEntry> read_tuned_header_entries(const std::string& path);

/// How far a config tuned at tuned_width x tuned_height is from frames of width x height:
/// |ln(pixel ratio)| + 1e-3 |ln(aspect ratio)| (the pixel count decides, the aspect breaks
/// ties); +infinity when either size is unknown (<= 0).
double tuned_size_distance(int tuned_width, int tuned_height, int width, int height);

/// The entry a deployment runs: a single-board header's one line whatever `board`; else the
/// lines of `board` ("" = the header's only board), and among several sizes the one nearest
/// to width x height (tuned_size_distance; the first on a tie). Throws std::runtime_error
/// naming `path` when the board is missing or ambiguous (listing the header's labels) or when
/// several sizes are tuned and width x height is not given (<= 0).
const TunedHeaderEntry& select_tuned_entry(const std::vector<TunedHeaderEntry>& entries,
                                           const std::string& board, int width, int height,
                                           const std::string& path);

/// The config of a tuned header file for `board` and frames of width x height
/// (select_tuned_entry over read_tuned_header_entries; same errors).
Config read_tuned_header(const std::string& path, const std::string& board = "", int width = 0,
                         int height = 0);

}  // namespace flowtune
