// The files of a `tune run` of a flow workload (tvl1, bm, lk, features): read and checked
// against each other before any flow is computed, so that a wrong file costs no computation
// and its error names it.
#pragma once

#include <optional>
#include <string>

#include "kernels/image.hpp"
#include "workloads/workload.hpp"

namespace flowtune {

/// The frames of a flow run and its optional flows, all of the frames' size.
struct FlowRunFiles {
  Image i0, i1;
  std::optional<FlowField> reference;  ///< run.reference (the ground truth), when given
  std::optional<FlowField> init_flow;  ///< run.init_flow (the flow to start from), when given
};

/// Reads run.inputs (two PNG frames), run.reference and run.init_flow (.flo files, or KITTI
/// 2015 flow PNGs by their .png name: kernels/kitti_flow_io.hpp) and checks
/// that they all have the frames' size. Throws std::invalid_argument when run.inputs are not
/// two files (naming `workload`), std::runtime_error naming the file and both sizes (e.g.
/// "gt.flo: ground truth is 100x80, the frames are 584x388 (frame10.png)") for a size
/// mismatch, and what read_png_gray / read_flo throw for an unreadable file.
FlowRunFiles read_flow_run_files(const std::string& workload, const Workload::FileRun& run);

/// " (time per frame 412 ms)": the wall time of one computation of the flow, in ms with 3
/// significant digits, for the summary line of `tune run` (one run, so the first call's
/// allocations and builds are in it).
std::string time_per_frame_text(double seconds);

}  // namespace flowtune
