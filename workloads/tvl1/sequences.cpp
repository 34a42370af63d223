#include "workloads/tvl1/sequences.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "kernels/flo_io.hpp"
#include "kernels/metrics.hpp"
#include "kernels/png_io.hpp"

namespace flowtune {
namespace fs = std::filesystem;

std::string default_data_dir() {
  if (const char* env = std::getenv("FLOWTUNE_DATA_DIR"); env && *env) return env;
  const std::string source = std::string(FLOWTUNE_SOURCE_DIR) + "/data/middlebury";
  std::error_code ec;
  if (fs::is_directory(source, ec)) return source;
  // An installed `tune`: <prefix>/bin/tune and the bundled sequences in
  // <prefix>/share/flowtune/data/middlebury.
  const fs::path installed = fs::read_symlink("/proc/self/exe", ec).parent_path().parent_path() /
                             "share/flowtune/data/middlebury";
  return !ec && fs::is_directory(installed, ec) ? installed.string() : source;
}

namespace {
bool is_sequence_dir(const fs::path& p) {
  return fs::is_regular_file(p / "frame10.png") && fs::is_regular_file(p / "frame11.png") &&
         fs::is_regular_file(p / "flow10.flo");
}
}  // namespace

std::vector<Sequence> load_sequences(const std::string& dir,
                                     const std::vector<std::string>& names) {
  if (!fs::is_directory(dir)) throw std::runtime_error(dir + ": data folder not found");
  std::vector<std::string> wanted = names;
  if (wanted.empty()) {
    for (const auto& entry : fs::directory_iterator(dir))
      if (entry.is_directory() && is_sequence_dir(entry.path()))
        wanted.push_back(entry.path().filename().string());
    std::sort(wanted.begin(), wanted.end());
    if (wanted.empty())
      throw std::runtime_error(dir +
                               ": no sequence folder with frame10.png, frame11.png, flow10.flo");
  }
  std::vector<Sequence> out;
  for (const std::string& name : wanted) {
    const fs::path p = fs::path(dir) / name;
    if (!fs::is_directory(p)) throw std::runtime_error(p.string() + ": sequence folder not found");
    Sequence s;
    s.name = name;
    s.i0 = read_png_gray((p / "frame10.png").string());
    s.i1 = read_png_gray((p / "frame11.png").string());
    s.ground_truth = read_flo((p / "flow10.flo").string());
    if (s.i0.width != s.i1.width || s.i0.height != s.i1.height)
      throw std::runtime_error((p / "frame11.png").string() + ": frames of different sizes (" +
                               std::to_string(s.i0.width) + "x" + std::to_string(s.i0.height) +
                               " vs " + std::to_string(s.i1.width) + "x" +
                               std::to_string(s.i1.height) + ")");
    if (s.ground_truth.width != s.i0.width || s.ground_truth.height != s.i0.height)
      throw std::runtime_error((p / "flow10.flo").string() + ": ground truth is " +
                               std::to_string(s.ground_truth.width) + "x" +
                               std::to_string(s.ground_truth.height) + ", frames are " +
                               std::to_string(s.i0.width) + "x" + std::to_string(s.i0.height));
    // A ground truth without one known vector would fail every config as `accuracy` after
    // computing its flow: refused here, before any config runs.
    if (known_flow_pixels(s.ground_truth) == 0)
      throw std::runtime_error((p / "flow10.flo").string() +
                               ": the ground truth has no known vector (every pixel is marked "
                               "unknown); to tune on these frames without ground truth, give "
                               "--data a folder of the frames alone");
    out.push_back(std::move(s));
  }
  return out;
}

std::string dataset_key(const std::vector<Sequence>& sequences) {
  std::string key = "middlebury:";
  for (std::size_t i = 0; i < sequences.size(); ++i) key += (i ? "," : "") + sequences[i].name;
  return key;
}

}  // namespace flowtune
