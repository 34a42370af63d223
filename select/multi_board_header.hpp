// One tuned header for several boards, selected by __CUDA_ARCH__ in device code and by a
// device query at run time in host code (the scheme of Kernel Tuner's #ifdef headers).
#pragma once

#include <string>
#include <vector>

#include "db/repository.hpp"
#include "select/objectives.hpp"

namespace flowtune {

/// The config chosen for one board at one frame size.
struct BoardChoice {
  std::string board;
  int cc_major = 0, cc_minor = 0;  ///< compute capability; 0.0 for a CPU board
  db::MeasuredConfig config;
  int width = 0, height = 0;  ///< the frame size tuned at (tune --resolution); 0 x 0 = native
  /// "h200", or "h200@1280x720" for a sized choice: the entry's label in the header.
  std::string label() const;
};

/// Text of a header for several boards and frame sizes, built from each choice's
/// tuned_header_text:
/// - namespace flowtune::tuned::<label> (the label with non-identifier characters as '_')
///   holds that choice's constants (kVariant, kBlockX, kIterations, kConfigJson...);
/// - flowtune::tuned::kBoards[] lists {board, cc_major, cc_minor, width, height, variant,
///   precision, config_json}; flowtune::tuned::for_device(major, minor) returns the first
///   entry of a device's compute capability, and for_size(major, minor, width, height) the
///   entry of that capability (0.0: a CPU board) tuned at the size nearest to the frames'
///   (the pixel count decides, the aspect breaks ties: select/tuned_header_reader.hpp's
///   tuned_size_distance), nullptr if none;
/// - in device code, `#if __CUDA_ARCH__ == <cc>` blocks define the kernels' FT_* and
///   FT_PRECISION_* macros of the first choice of each arch (macros are compile-time: a
///   deployment that switches sizes at run time builds its kernels from the entries' JSON);
/// - one `// flowtune-config[<label>]: <JSON>` line per choice (`tune flow --tuned H --board B`
///   picks the size nearest to the frames).
/// Throws std::invalid_argument for no choice or a label given twice.
std::string multi_board_header_text(const std::vector<BoardChoice>& boards,
                                    const Objective& objective);

}  // namespace flowtune
