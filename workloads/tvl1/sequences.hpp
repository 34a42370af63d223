// Frame pairs with ground truth that the tuner measures accuracy and time on.
#pragma once

#include <string>
#include <vector>

#include "kernels/image.hpp"

namespace flowtune {

/// One Middlebury-style sequence: frames i0 -> i1 (gray, [0, 255]) and the ground-truth flow.
struct Sequence {
  std::string name;
  Image i0, i1;
  FlowField ground_truth;
  std::size_t pixels() const { return std::size_t(i0.width) * i0.height; }
};

/// $FLOWTUNE_DATA_DIR when set, else the repo's bundled data folder (data/middlebury) when
/// it exists, else <prefix>/share/flowtune/data/middlebury of an installed `tune`.
std::string default_data_dir();

/// Loads <dir>/<name>/{frame10.png, frame11.png, flow10.flo} for each name (Middlebury layout,
/// Baker et al. 2011). names empty = every sub-folder of dir that holds those three files,
/// sorted. Throws std::runtime_error naming the file and the problem (missing folder, corrupt
/// PNG or .flo, frames of different sizes, ground truth of another size).
std::vector<Sequence> load_sequences(const std::string& dir, const std::vector<std::string>& names);

/// "middlebury:Grove2,RubberWhale" — the dataset key stored with every measurement.
std::string dataset_key(const std::vector<Sequence>& sequences);

}  // namespace flowtune
