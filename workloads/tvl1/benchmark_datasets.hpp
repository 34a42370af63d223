// The standard optical-flow benchmarks' layouts as frame pairs with ground truth: KITTI 2015
// flow and MPI-Sintel (workloads/tvl1/flow_dataset.hpp recognises them).
#pragma once

#include <functional>
#include <string>

#include "workloads/tvl1/flow_dataset.hpp"

namespace flowtune {

/// The KITTI 2015 folder `dir` (or `dir`/training) when it holds image_2/, else "".
std::string kitti_root(const std::string& dir);

/// The pairs of a KITTI 2015 flow folder `root` (Menze and Geiger, CVPR 2015): frames
/// image_2/<id>_10.png -> image_2/<id>_11.png (RGB, to gray with the BT.601 weights), ground
/// truth flow_occ/<id>_10.png (read_kitti_flow_png: every valid pixel, so the outlier rate is
/// Fl-all) when flow_occ/ exists, else none (the testing split). Item names "<id>", sorted.
/// Throws std::runtime_error naming the file for a frame without its partner, an unreadable
/// file, or a ground truth of another size than its frames.
FlowDataset load_kitti(const std::string& root, const PairFilter& wanted);

/// The MPI-Sintel folder `dir` (or `dir`/training) when it holds clean/ or final/, else "".
std::string sintel_root(const std::string& dir);

/// The pairs of an MPI-Sintel folder `root` (Butler et al., ECCV 2012): for each pass (clean/,
/// final/) and scene, frames <pass>/<scene>/frame_%04d.png -> frame_%04d.png of the next
/// index, ground truth flow/<scene>/frame_%04d.flo and the occlusion mask
/// occlusions/<scene>/frame_%04d.png (white = occluded) when flow/ exists (the training
/// split), else none. Item names "<pass>/<scene>/<index>" (e.g. "clean/alley_1/0001"); only
/// the pairs `wanted` accepts are read.
/// Throws std::runtime_error naming the file for a missing flow or mask of a scene that has
/// ground truth, an unreadable file, or sizes that differ within a pair.
FlowDataset load_sintel(const std::string& root, const PairFilter& wanted);

}  // namespace flowtune
