// The tuned-header codec's writer: a selected config as a C++17 header for deployment (one
// writer; select/tuned_header_reader.hpp is the one reader). ARCHITECTURE.md, "select/".
#pragma once

#include <string>

#include "db/repository.hpp"
#include "select/objectives.hpp"
#include "select/tuned_header_reader.hpp"

namespace flowtune {

/// The pieces of a tuned header, which the single-board and the multi-board headers
/// (select/multi_board_header.hpp) assemble.
struct TunedHeaderParts {
  std::string preamble;     ///< the comment lines before the flowtune-config line
  std::string config_json;  ///< db::config_json of the config (one line)
  std::string macros;       ///< the # lines: FLOWTUNE_TUNED_*, FT_* and FT_PRECISION_*
  std::string constants;    ///< the body of namespace flowtune::tuned
};

/// The parts of tuned_header_text (same content and errors).
TunedHeaderParts tuned_header_parts(const db::MeasuredConfig& config, const std::string& board,
                                    const Objective& objective);

/// Text of the tuned header for `config` (C++17, #pragma once, namespace flowtune::tuned):
/// constexpr kWorkload, kBoard, kVariant, kPrecision, kConfigKey, kConfigJson (the config as
/// JSON, db::config_json), one `constexpr int k<Tunable>` per tunable (tile_x -> kTileX), one
/// constant per parameter (n_warpings -> kNWarpings; `int` for whole values, else `double`),
/// kClockMhz; a `#define FLOWTUNE_TUNED_<TUNABLE> value` per tunable; the macros the CUDA
/// kernels are compiled with, each guarded by #ifndef so that a -D on the command line wins:
/// `FT_<TUNABLE> value` per tunable and, for f32/f16/mixed, precision_macro(precision)
/// (variants/kernel_defines.hpp) (defined to 1 only when none of the three FT_PRECISION_* is
/// defined), so the header can be included before a kernel .cuh; a comment with the measured
/// figures; and the line
/// `// flowtune-config: <JSON>` that read_tuned_header reads back. Throws
/// std::invalid_argument for a tunable or parameter name that is not a lower-case identifier
/// or collides with another constant, or a non-finite parameter.
std::string tuned_header_text(const db::MeasuredConfig& config, const std::string& board,
                              const Objective& objective);

}  // namespace flowtune
