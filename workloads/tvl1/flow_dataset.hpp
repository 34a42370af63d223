// A loaded optical-flow input set: its pairs, its dataset key and what it is. One loader per
// layout (Middlebury, KITTI 2015, MPI-Sintel, a user's footage); load_flow_dataset recognises
// the layout of --data.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "workloads/tvl1/sequences.hpp"
#include "workloads/workload.hpp"

namespace flowtune {

/// Frame pairs with the key stored with their measurements and a line saying what they are.
struct FlowDataset {
  std::string key;          ///< e.g. "middlebury:Grove2,RubberWhale", "frames:cam0:12 pairs:..."
  std::string description;  ///< e.g. "12 pairs of 640x480 frames of cam0/, no ground truth"
  std::vector<Sequence> sequences;
  bool has_ground_truth() const { return !sequences.empty() && sequences[0].has_ground_truth(); }
};

/// Which pairs a loader reads, by item name (true = read it).
using PairFilter = std::function<bool(const std::string&)>;

/// The pairs of o.data_dir (default_data_dir() when empty), whichever layout it has, checked
/// in this order: a video file (FFmpeg, kernels/video_io.hpp); o.pairs (a list of frame
/// pairs); a folder of Middlebury sequences (load_sequences); a KITTI 2015 flow folder
/// (image_2/ and flow_occ/, or training/ holding them); an MPI-Sintel folder (clean/ or final/
/// with flow/, or training/ holding them); else a folder of numbered frames. o.items selects
/// pairs by name (a name, or a prefix followed by "/": "clean/alley_1"); o.stride and
/// o.max_frames select the frames of a video or a frame folder. Inputs without ground truth,
/// or any inputs with o.reference_metrics, get the reference flow of reference_config()
/// (cached, workloads/tvl1/reference_flow.hpp), and the key names the reference. Throws
/// std::runtime_error naming the file and the problem (an unreadable video, frames of mixed
/// sizes, a single frame, a pair list line without two names, a Sintel scene without flow)
/// before any config runs, and std::invalid_argument for options the layout does not take
/// (--stride with --pairs).
FlowDataset load_flow_dataset(const InputOptions& o);

/// The natural order of file names: digit runs compare by value ("frame2" < "frame10"), the
/// rest by character; ties by the plain order.
bool frame_name_less(const std::string& a, const std::string& b);

}  // namespace flowtune
