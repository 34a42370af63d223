// KITTI 2015 and MPI-Sintel as frame pairs (see benchmark_datasets.hpp).
#include "workloads/tvl1/benchmark_datasets.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "kernels/flo_io.hpp"
#include "kernels/kitti_flow_io.hpp"
#include "kernels/metrics.hpp"
#include "kernels/png_io.hpp"
#include "workloads/tvl1/file_checks.hpp"
#include "workloads/tvl1/reference_flow.hpp"

namespace flowtune {
namespace fs = std::filesystem;

namespace {

std::string size_text(int w, int h) {
  return std::to_string(w) + "x" + std::to_string(h);
}

void check_pair(const Sequence& s, const fs::path& second, const fs::path& truth) {
  if (s.has_ground_truth() && known_flow_pixels(s.ground_truth) == 0)
    throw std::runtime_error(truth.string() +
                             ": the ground truth has no valid pixel (every vector unknown)");
  if (s.i0.width != s.i1.width || s.i0.height != s.i1.height)
    throw std::runtime_error(second.string() + ": is " + size_text(s.i1.width, s.i1.height) +
                             ", the first frame of the pair is " +
                             size_text(s.i0.width, s.i0.height));
  if (s.has_ground_truth() &&
      (s.ground_truth.width != s.i0.width || s.ground_truth.height != s.i0.height))
    throw std::runtime_error(truth.string() + ": ground truth is " +
                             size_text(s.ground_truth.width, s.ground_truth.height) +
                             ", frames are " + size_text(s.i0.width, s.i0.height));
}

// "kitti2015:000000,000001" for a few names, else the count and a hash of the names.
std::string names_key(const std::string& layout, const std::vector<Sequence>& pairs) {
  std::string names;
  for (const Sequence& s : pairs) names += (names.empty() ? "" : ",") + s.name;
  if (pairs.size() <= 8) return layout + ":" + names;
  return layout + ":" + std::to_string(pairs.size()) +
         " pairs:" + hex64(fnv1a64(names.data(), names.size())).substr(0, 12);
}

std::string described(const std::vector<Sequence>& pairs, const std::string& what) {
  return std::to_string(pairs.size()) + " pair" + (pairs.size() == 1 ? "" : "s") + " of " + what;
}

}  // namespace

std::string kitti_root(const std::string& dir) {
  for (const fs::path& p : {fs::path(dir), fs::path(dir) / "training"})
    if (is_dir(p / "image_2")) return p.string();
  return "";
}

FlowDataset load_kitti(const std::string& root, const PairFilter& wanted) {
  const fs::path images = fs::path(root) / "image_2", truth_dir = fs::path(root) / "flow_occ";
  const bool with_truth = is_dir(truth_dir);
  std::vector<std::string> ids;
  for (const auto& e : fs::directory_iterator(images)) {
    const std::string name = e.path().filename().string();
    if (e.is_regular_file() && name.size() > 7 && name.compare(name.size() - 7, 7, "_10.png") == 0)
      ids.push_back(name.substr(0, name.size() - 7));
  }
  std::sort(ids.begin(), ids.end());
  if (ids.empty()) throw std::runtime_error(images.string() + ": no <id>_10.png frame");
  FlowDataset d;
  for (const std::string& id : ids) {
    if (!wanted(id)) continue;
    const fs::path first = images / (id + "_10.png"), second = images / (id + "_11.png");
    const fs::path truth = truth_dir / (id + "_10.png");
    if (!is_file(second))
      throw std::runtime_error(second.string() + ": missing (the second frame of " +
                               first.filename().string() + ")");
    Sequence s;
    s.name = id;
    s.benchmark = with_truth ? FlowBenchmark::kitti : FlowBenchmark::none;
    s.i0 = read_png_gray(first.string());
    s.i1 = read_png_gray(second.string());
    if (with_truth) {
      if (!is_file(truth)) throw std::runtime_error(truth.string() + ": missing ground truth");
      s.ground_truth = read_kitti_flow_png(truth.string());
    }
    check_pair(s, second, truth);
    d.sequences.push_back(std::move(s));
  }
  if (d.sequences.empty()) throw std::runtime_error(root + ": no pair of the names asked for");
  d.key = names_key("kitti2015", d.sequences);
  d.description = described(d.sequences, "KITTI 2015 (" + root + ")") +
                  (with_truth ? ", ground truth flow_occ (Fl-all)" : ", no ground truth");
  return d;
}

std::string sintel_root(const std::string& dir) {
  for (const fs::path& p : {fs::path(dir), fs::path(dir) / "training"})
    if (is_dir(p / "clean") || is_dir(p / "final")) return p.string();
  return "";
}

FlowDataset load_sintel(const std::string& root, const PairFilter& wanted) {
  const fs::path flow_dir = fs::path(root) / "flow", occ_dir = fs::path(root) / "occlusions";
  const bool with_truth = is_dir(flow_dir);
  FlowDataset d;
  for (const char* pass : {"clean", "final"}) {
    const fs::path pass_dir = fs::path(root) / pass;
    if (!is_dir(pass_dir)) continue;
    std::vector<std::string> scenes;
    for (const auto& e : fs::directory_iterator(pass_dir))
      if (e.is_directory()) scenes.push_back(e.path().filename().string());
    std::sort(scenes.begin(), scenes.end());
    for (const std::string& scene : scenes) {
      std::vector<std::string> frames;
      for (const auto& e : fs::directory_iterator(pass_dir / scene)) {
        const std::string n = e.path().filename().string();
        if (e.is_regular_file() && n.rfind("frame_", 0) == 0 && e.path().extension() == ".png")
          frames.push_back(n.substr(6, n.size() - 10));
      }
      std::sort(frames.begin(), frames.end());
      long previous_k = -2;  // the scene's last pair kept, as its k
      for (std::size_t k = 0; k + 1 < frames.size(); ++k) {
        const std::string index = frames[k];
        if (!wanted(std::string(pass) + "/" + scene + "/" + index)) continue;
        const fs::path first = pass_dir / scene / ("frame_" + index + ".png");
        const fs::path second = pass_dir / scene / ("frame_" + frames[k + 1] + ".png");
        const fs::path truth = flow_dir / scene / ("frame_" + index + ".flo");
        const fs::path occ = occ_dir / scene / ("frame_" + index + ".png");
        Sequence s;
        s.name = std::string(pass) + "/" + scene + "/" + index;
        s.benchmark = with_truth ? FlowBenchmark::sintel : FlowBenchmark::none;
        s.i0 = read_png_gray(first.string());
        s.i1 = read_png_gray(second.string());
        if (with_truth) {
          if (!is_file(truth)) throw std::runtime_error(truth.string() + ": missing ground truth");
          s.ground_truth = read_flo(truth.string());
          if (!is_file(occ)) throw std::runtime_error(occ.string() + ": missing occlusion mask");
          const Image mask = read_png_gray(occ.string());
          if (mask.width != s.i0.width || mask.height != s.i0.height)
            throw std::runtime_error(occ.string() + ": occlusion mask is " +
                                     size_text(mask.width, mask.height) + ", frames are " +
                                     size_text(s.i0.width, s.i0.height));
          s.not_occluded = Plane<std::uint8_t>(mask.width, mask.height, 0);
          for (std::size_t i = 0; i < mask.data.size(); ++i)
            s.not_occluded.data[i] = mask.data[i] < 127.5f ? 1 : 0;
        }
        check_pair(s, second, truth);
        // A scene is a stream: pair k starts at pair k - 1's second frame.
        if (previous_k == long(k) - 1) s.previous = long(d.sequences.size()) - 1;
        previous_k = long(k);
        d.sequences.push_back(std::move(s));
      }
    }
  }
  if (d.sequences.empty())
    throw std::runtime_error(root + ": no pair (of the names asked for) in clean/ or final/");
  d.key = names_key("sintel", d.sequences);
  d.description = described(d.sequences, "MPI-Sintel (" + root + ")") +
                  (with_truth ? ", ground truth flow/ with occlusions/ (EPE all and noc)"
                              : ", no ground truth");
  return d;
}

}  // namespace flowtune
