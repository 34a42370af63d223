// One tuned header for several boards, selected by __CUDA_ARCH__ in device code and by a
// device query at run time in host code (the scheme of Kernel Tuner's #ifdef headers).
#pragma once

#include <string>
#include <vector>

#include "db/repository.hpp"
#include "select/objectives.hpp"

namespace flowtune {

/// The config chosen for one board.
struct BoardChoice {
  std::string board;
  int cc_major = 0, cc_minor = 0;  ///< compute capability; 0.0 for a CPU board
  db::MeasuredConfig config;
};

/// Text of a header for several boards, built from each board's tuned_header_text:
/// - namespace flowtune::tuned::<board> (the board name with non-identifier characters as
///   '_') holds that board's constants (kVariant, kBlockX, kIterations, kConfigJson...);
/// - flowtune::tuned::kBoards[] lists {board, cc_major, cc_minor, variant, precision,
///   config_json} and flowtune::tuned::for_device(major, minor) returns the entry of a
///   device's compute capability (the first board of that capability), nullptr if none;
/// - in device code, `#if __CUDA_ARCH__ == <cc>` blocks define the kernels' FT_* and
///   FT_PRECISION_* macros of the board being compiled for (the first board of each arch);
/// - one `// flowtune-config[<board>]: <JSON>` line per board (`tune run --tuned H --board B`).
/// Throws std::invalid_argument for no board or a board given twice.
std::string multi_board_header_text(const std::vector<BoardChoice>& boards,
                                    const Objective& objective);

}  // namespace flowtune
