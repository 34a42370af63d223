// The measurements the performance model is calibrated on (model/calibration/*.csv).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace flowtune::model {

/// One scheme x precision measured on the calibration board: TV-L1 inner iterations at
/// 2048^2, monoscale, 1 warping, 10 iterations (Romera et al. 2023, table 1 protocol).
struct CalibrationEntry {
  std::string board;                    ///< board profile it was measured on, e.g. "h200"
  std::string variant, precision;       ///< e.g. "shared_pipeline", "f16"
  std::map<std::string, int> tunables;  ///< the tunables measured
  double ns_per_px = 0;                 ///< median time of the 10 iterations per pixel, ns
  double flop_per_px = 0;               ///< FLOP of the 10 iterations per pixel
};

/// Reads a calibration CSV: '#' comment lines, a header
/// "board,variant,precision,tunables,ns_per_px,flop_per_px", tunables "name=value ...".
/// Throws std::runtime_error naming the file and line for an unreadable file, a bad header,
/// a wrong field count, a malformed number (must be > 0) or tunable.
std::vector<CalibrationEntry> load_calibration(const std::string& path);

/// The calibration shipped with flowtune: model/calibration/h200_tvl1_2048.csv (under
/// $FLOWTUNE_MODEL_DIR when set, else the source tree's model/).
std::string default_calibration_path();

/// The entry of variant x precision, or nullptr.
const CalibrationEntry* find_calibration(const std::vector<CalibrationEntry>& entries,
                                         const std::string& variant, const std::string& precision);

}  // namespace flowtune::model
