#include "workloads/tvl1/flow_files.hpp"

#include <sstream>
#include <stdexcept>

#include "kernels/flo_io.hpp"
#include "kernels/kitti_flow_io.hpp"
#include "kernels/png_io.hpp"

namespace flowtune {
namespace {

std::string size_text(int width, int height) {
  return std::to_string(width) + "x" + std::to_string(height);
}

bool is_png_name(const std::string& path) {
  return path.size() > 4 && (path.compare(path.size() - 4, 4, ".png") == 0 ||
                             path.compare(path.size() - 4, 4, ".PNG") == 0);
}

// Reads the .flo (or KITTI flow .png) at path and checks that it has the frames' size; `what`
// names it.
FlowField read_flow_of_frames_size(const std::string& path, const std::string& what,
                                   const Image& i0, const std::string& i0_path) {
  FlowField flow = is_png_name(path) ? read_kitti_flow_png(path) : read_flo(path);
  if (flow.width != i0.width || flow.height != i0.height)
    throw std::runtime_error(path + ": " + what + " is " + size_text(flow.width, flow.height) +
                             ", the frames are " + size_text(i0.width, i0.height) + " (" + i0_path +
                             "); nothing computed");
  return flow;
}

}  // namespace

FlowRunFiles read_flow_run_files(const std::string& workload, const Workload::FileRun& run) {
  if (run.inputs.size() != 2)
    throw std::invalid_argument(workload + " needs two frames (I0.png I1.png), got " +
                                std::to_string(run.inputs.size()) + " files");
  FlowRunFiles f;
  f.i0 = read_png_gray(run.inputs[0]);
  f.i1 = read_png_gray(run.inputs[1]);
  if (f.i0.width != f.i1.width || f.i0.height != f.i1.height)
    throw std::runtime_error(run.inputs[1] + ": frames of different sizes (" +
                             size_text(f.i0.width, f.i0.height) + " vs " +
                             size_text(f.i1.width, f.i1.height) + ")");
  if (!run.reference.empty())
    f.reference = read_flow_of_frames_size(run.reference, "ground truth", f.i0, run.inputs[0]);
  if (!run.init_flow.empty())
    f.init_flow = read_flow_of_frames_size(run.init_flow, "initial flow", f.i0, run.inputs[0]);
  return f;
}

std::string time_per_frame_text(double seconds) {
  std::ostringstream os;
  os.precision(3);
  os << " (time per frame " << seconds * 1000 << " ms)";
  return os.str();
}

}  // namespace flowtune
