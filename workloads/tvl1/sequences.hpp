// Frame pairs, with or without ground truth, that the tuner measures accuracy and time on.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/image.hpp"

namespace flowtune {

/// The benchmark whose own metrics a pair's ground truth is scored with (besides AEPE/AAE).
enum class FlowBenchmark { middlebury, kitti, sintel, none };

/// One frame pair: frames i0 -> i1 (gray, [0, 255]), its ground-truth flow when known, and the
/// reference flow when the reference metrics are on (workloads/tvl1/reference_flow.hpp).
struct Sequence {
  std::string name;
  Image i0, i1;
  FlowField ground_truth;  ///< 0x0 when the pair has no ground truth (a user's footage)
  FlowBenchmark benchmark = FlowBenchmark::middlebury;
  /// Sintel: 1 where the pixel is not occluded (the "noc" pixels); 0x0 otherwise.
  Plane<std::uint8_t> not_occluded;
  /// The reference flow i0 -> i1 and the pixels its forward-backward check keeps
  /// (kernels/photometric.hpp); both 0x0 when the reference metrics are off.
  FlowField reference;
  Plane<std::uint8_t> visible;
  /// In a stream of frames (a folder or a video with stride 1, a Sintel scene): the index in
  /// the set of the pair whose second frame is this pair's first, so that this pair can
  /// start from that pair's flow (the warm_start parameter); -1 for a stream's first pair and
  /// for pairs of no stream (Middlebury, KITTI, a pair list).
  long previous = -1;
  std::size_t pixels() const { return std::size_t(i0.width) * i0.height; }
  bool has_ground_truth() const { return ground_truth.width > 0; }
  bool has_reference() const { return reference.width > 0; }
};

/// $FLOWTUNE_DATA_DIR when set, else the repo's bundled data folder (data/middlebury) when
/// it exists, else <prefix>/share/flowtune/data/middlebury of an installed `tune`.
std::string default_data_dir();

/// Loads <dir>/<name>/{frame10.png, frame11.png, flow10.flo} for each name (Middlebury layout,
/// Baker et al. 2011). names empty = every sub-folder of dir that holds those three files,
/// sorted. Throws std::runtime_error naming the file and the problem (missing folder, corrupt
/// PNG or .flo, frames of different sizes, ground truth of another size, a ground truth
/// without one known vector).
std::vector<Sequence> load_sequences(const std::string& dir, const std::vector<std::string>& names);

/// "middlebury:Grove2,RubberWhale" — the dataset key stored with every measurement.
std::string dataset_key(const std::vector<Sequence>& sequences);

}  // namespace flowtune
