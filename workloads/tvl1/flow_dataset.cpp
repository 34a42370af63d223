// The layout of --data recognised and loaded (see flow_dataset.hpp).
#include "workloads/tvl1/flow_dataset.hpp"

#include <cctype>
#include <filesystem>
#include <stdexcept>

#include "workloads/tvl1/benchmark_datasets.hpp"
#include "workloads/tvl1/file_checks.hpp"
#include "workloads/tvl1/footage.hpp"
#include "workloads/tvl1/reference_flow.hpp"
#include "workloads/tvl1/resolution.hpp"

namespace flowtune {
namespace fs = std::filesystem;

bool frame_name_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      std::size_t i2 = i, j2 = j;
      while (i2 < a.size() && digit(a[i2])) ++i2;
      while (j2 < b.size() && digit(b[j2])) ++j2;
      // Compare the runs by value: without leading zeros, the longer is larger.
      std::size_t za = i, zb = j;
      while (za + 1 < i2 && a[za] == '0') ++za;
      while (zb + 1 < j2 && b[zb] == '0') ++zb;
      if (i2 - za != j2 - zb) return i2 - za < j2 - zb;
      const int c = a.compare(za, i2 - za, b, zb, j2 - zb);
      if (c != 0) return c < 0;
      i = i2;
      j = j2;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  if (a.size() - i != b.size() - j) return a.size() - i < b.size() - j;
  return a < b;
}

namespace {

// A name asked for matches itself and, followed by "/", every name it prefixes.
bool matches(const std::string& name, const std::string& wanted) {
  return name == wanted ||
         (name.size() > wanted.size() && name.compare(0, wanted.size(), wanted) == 0 &&
          name[wanted.size()] == '/');
}

bool has_middlebury_sequence(const std::string& dir) {
  for (const auto& e : fs::directory_iterator(dir)) {
    std::error_code ec;
    if (e.is_directory(ec) && fs::is_regular_file(e.path() / "frame10.png", ec) &&
        fs::is_regular_file(e.path() / "frame11.png", ec) &&
        fs::is_regular_file(e.path() / "flow10.flo", ec))
      return true;
  }
  return false;
}

FlowDataset load_middlebury(const std::string& dir, const std::vector<std::string>& items) {
  FlowDataset d;
  d.sequences = load_sequences(dir, items);
  d.key = dataset_key(d.sequences);
  d.description = std::to_string(d.sequences.size()) + " Middlebury sequence" +
                  (d.sequences.size() == 1 ? "" : "s") + " (" + dir + ")";
  return d;
}

FlowDataset load_layout(const InputOptions& o, const std::string& dir, const PairFilter& wanted) {
  std::error_code ec;
  const bool footage_options = o.stride != 1 || o.max_frames != 0;
  if (!o.pairs.empty()) {
    if (footage_options)
      throw std::invalid_argument(
          "--stride and --max-frames select the frames of a folder or a video, not of --pairs");
    return load_pair_list(o.pairs, wanted);
  }
  if (fs::is_regular_file(dir, ec)) {
    if (!is_video_file(dir))
      throw std::runtime_error(dir +
                               ": --data names a file that is not a video (.mp4, .mkv, "
                               ".avi, ...): give a folder of frames or a video");
    return load_video(dir, o.stride, o.max_frames, wanted);
  }
  if (!is_dir(dir)) throw std::runtime_error(dir + ": data folder not found");
  const auto no_footage_options = [&](const char* layout) {
    if (footage_options)
      throw std::invalid_argument(std::string("--stride and --max-frames select the frames of a "
                                              "folder or a video, not of ") +
                                  layout + " (--sequences selects its pairs)");
  };
  if (has_middlebury_sequence(dir)) {
    no_footage_options("Middlebury sequences");
    return load_middlebury(dir, o.items);
  }
  if (const std::string root = kitti_root(dir); !root.empty()) {
    no_footage_options("KITTI 2015");
    return load_kitti(root, wanted);
  }
  if (const std::string root = sintel_root(dir); !root.empty()) {
    no_footage_options("MPI-Sintel");
    return load_sintel(root, wanted);
  }
  return load_frame_folder(dir, o.stride, o.max_frames, wanted);
}

}  // namespace

FlowDataset load_flow_dataset(const InputOptions& o) {
  const std::string dir = o.data_dir.empty() ? default_data_dir() : o.data_dir;
  const PairFilter wanted = [&o](const std::string& name) {
    if (o.items.empty()) return true;
    for (const std::string& w : o.items)
      if (matches(name, w)) return true;
    return false;
  };
  FlowDataset d = load_layout(o, dir, wanted);
  for (const std::string& w : o.items) {
    bool found = false;
    for (const Sequence& s : d.sequences) found = found || matches(s.name, w);
    if (!found) {
      std::string names;
      for (std::size_t i = 0; i < d.sequences.size() && i < 5; ++i)
        names += (i ? ", " : "") + d.sequences[i].name;
      throw std::runtime_error(dir + ": no pair named '" + w + "' (pairs: " + names +
                               (d.sequences.size() > 5 ? ", ..." : "") + ")");
    }
  }
  resample_dataset(d, Resolution{o.resolution_width, o.resolution_height});
  if (!d.has_ground_truth() || o.reference_metrics) {
    const Config ref = reference_config();
    const auto on_compute = [&](const std::string& pair) {
      if (o.progress)
        o.progress("reference flow of " + pair + ": computing it and its backward flow with " +
                   ref.variant + " " + ref.precision + " (cached for later runs)");
    };
    const ReferenceFlowStats st =
        attach_reference_flows(d.sequences, ref, reference_cache_dir(), on_compute);
    d.key += "+ref:" + reference_config_hash(ref).substr(0, 8);
    d.description += "; accuracy against the reference flow of " + reference_config_text(ref) +
                     " (ref_aepe, and photometric over the pixels its forward-backward check "
                     "keeps; " +
                     std::to_string(st.computed) + " computed, " + std::to_string(st.cached) +
                     " from the cache " + st.cache_dir + ")";
  }
  return d;
}

}  // namespace flowtune
