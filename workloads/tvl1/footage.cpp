// A user's footage as frame pairs (see footage.hpp).
#include "workloads/tvl1/footage.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "kernels/image_limits.hpp"
#include "kernels/png_io.hpp"
#include "kernels/video_io.hpp"
#include "workloads/tvl1/reference_flow.hpp"

namespace flowtune {
namespace fs = std::filesystem;

namespace {

std::string lower_extension(const std::string& name) {
  std::string ext = fs::path(name).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return ext;
}

std::string size_text(const Image& im) {
  return std::to_string(im.width) + "x" + std::to_string(im.height);
}

// One frame file as gray: PNG through libpng, other still images through FFmpeg.
Image read_frame(const std::string& path) {
  if (lower_extension(path) == ".png") return read_png_gray(path);
  if (!video_reader_available())
    throw std::runtime_error(path + ": only PNG frames are read by this build (no FFmpeg)");
  auto frames = read_video_gray(
      path, [](int) { return true; }, 1, default_image_limits().max_pixels);
  return std::move(frames.front().second);
}

// The key of a footage set: its layout, the source's name, the number of pairs and a hash of
// the pair names and every frame's pixels (so the same folder name with other frames is
// another dataset).
std::string footage_key(const std::string& layout, const std::string& source,
                        const std::vector<Sequence>& pairs) {
  std::uint64_t h = fnv1a64(nullptr, 0);
  for (const Sequence& s : pairs) {
    h = fnv1a64(s.name.data(), s.name.size(), h);
    for (const Image* im : {&s.i0, &s.i1}) {
      const int shape[2] = {im->width, im->height};
      h = fnv1a64(shape, sizeof shape, h);
      h = fnv1a64(im->data.data(), im->data.size() * sizeof(float), h);
    }
  }
  return layout + ":" + source + ":" + std::to_string(pairs.size()) +
         " pairs:" + hex64(h).substr(0, 12);
}

std::string footage_description(const std::vector<Sequence>& pairs, const std::string& what) {
  return std::to_string(pairs.size()) + " pair" + (pairs.size() == 1 ? "" : "s") + " of " +
         size_text(pairs.front().i0) + " frames " + what + ", no ground truth";
}

// Frames (file, image) -> pairs (k stride, k stride + 1); every frame of the first's size.
struct NamedFrame {
  std::string file, stem;
  Image image;
};

void check_same_size(const NamedFrame& first, const NamedFrame& f) {
  if (f.image.width != first.image.width || f.image.height != first.image.height)
    throw std::runtime_error(f.file + ": frames of mixed sizes: this frame is " +
                             size_text(f.image) + ", " + first.file + " is " +
                             size_text(first.image) + " (every frame of footage has one size)");
}

void check_stride(int stride, int max_frames) {
  if (stride < 1)
    throw std::invalid_argument("--stride must be >= 1, got " + std::to_string(stride));
  if (max_frames < 0)
    throw std::invalid_argument("--max-frames must be >= 0 (0 = all), got " +
                                std::to_string(max_frames));
}

}  // namespace

bool is_frame_file(const std::string& name) {
  const std::string ext = lower_extension(name);
  if (ext == ".png") return true;
  static const std::set<std::string> others = {".jpg",  ".jpeg", ".bmp", ".tif",
                                               ".tiff", ".ppm",  ".pgm", ".webp"};
  return video_reader_available() && others.count(ext) > 0;
}

bool is_video_file(const std::string& name) {
  static const std::set<std::string> exts = {".mp4",  ".mkv",  ".avi",  ".mov", ".webm",
                                             ".m4v",  ".mpg",  ".mpeg", ".ts",  ".nut",
                                             ".h264", ".hevc", ".y4m"};
  return exts.count(lower_extension(name)) > 0;
}

FlowDataset load_frame_folder(const std::string& dir, int stride, int max_frames,
                              const PairFilter& wanted) {
  check_stride(stride, max_frames);
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_regular_file() && is_frame_file(entry.path().filename().string()))
      names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end(), frame_name_less);
  if (max_frames > 0 && names.size() > std::size_t(max_frames)) names.resize(max_frames);
  if (names.empty())
    throw std::runtime_error(
        dir + ": no frames (PNG" + std::string(video_reader_available() ? ", JPEG, ..." : "") +
        "), no Middlebury sequence folder (frame10.png, frame11.png, flow10.flo), no KITTI "
        "(image_2/, flow_occ/) or MPI-Sintel (clean/, final/, flow/) layout");
  if (names.size() == 1)
    throw std::runtime_error(dir + ": a single frame (" + names[0] + "): a pair needs two frames");
  // Only the frames some pair uses are read.
  std::map<std::size_t, NamedFrame> frames;
  const auto frame = [&](std::size_t i) -> const NamedFrame& {
    auto it = frames.find(i);
    if (it != frames.end()) return it->second;
    const std::string file = (fs::path(dir) / names[i]).string();
    NamedFrame f{file, fs::path(names[i]).stem().string(), read_frame(file)};
    return frames.emplace(i, std::move(f)).first->second;
  };
  FlowDataset d;
  const NamedFrame& first = frame(0);
  long previous_k = -2;  // the last pair kept, as its k
  for (std::size_t k = 0; k * stride + 1 < names.size(); ++k) {
    if (!wanted(fs::path(names[k * stride]).stem().string() + "-" +
                fs::path(names[k * stride + 1]).stem().string()))
      continue;
    const NamedFrame& a = frame(k * stride);
    const NamedFrame& b = frame(k * stride + 1);
    check_same_size(first, a);
    check_same_size(first, b);
    Sequence s;
    s.name = a.stem + "-" + b.stem;
    s.i0 = a.image;
    s.i1 = b.image;
    s.benchmark = FlowBenchmark::none;
    // Stride 1: pair k starts at pair k - 1's second frame.
    if (stride == 1 && previous_k == long(k) - 1) s.previous = long(d.sequences.size()) - 1;
    previous_k = long(k);
    d.sequences.push_back(std::move(s));
  }
  if (d.sequences.empty()) throw std::runtime_error(dir + ": no pair of the names asked for");
  // The folder's own name, also for "cam/" and ".".
  const fs::path folder = fs::absolute(dir).lexically_normal();
  const std::string source = folder.filename().empty() ? folder.parent_path().filename().string()
                                                       : folder.filename().string();
  d.key = footage_key("frames", source, d.sequences);
  d.description = footage_description(d.sequences,
                                      "of the folder " + dir + " (" + std::to_string(names.size()) +
                                          " frames, stride " + std::to_string(stride) + ")");
  return d;
}

FlowDataset load_pair_list(const std::string& list_file, const PairFilter& wanted) {
  std::ifstream in(list_file);
  std::error_code ec;
  if (fs::is_directory(list_file, ec) || !in)
    throw std::runtime_error(list_file + ": cannot read the pair list");
  const fs::path base = fs::path(list_file).parent_path();
  std::map<std::string, NamedFrame> frames;
  const auto frame = [&](const std::string& name) -> const NamedFrame& {
    const std::string file = fs::path(name).is_absolute() ? name : (base / name).string();
    auto it = frames.find(file);
    if (it != frames.end()) return it->second;
    NamedFrame f{file, fs::path(name).stem().string(), read_frame(file)};
    return frames.emplace(file, std::move(f)).first->second;
  };
  FlowDataset d;
  std::set<std::string> used;
  std::string line, first_file;
  int number = 0;
  const NamedFrame* first = nullptr;
  while (std::getline(in, line)) {
    ++number;
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string x; words >> x;) w.push_back(x);
    if (w.empty() || w[0][0] == '#') continue;
    if (w.size() != 2)
      throw std::runtime_error(list_file + ":" + std::to_string(number) +
                               ": expected two frame "
                               "names (FIRST SECOND), got " +
                               std::to_string(w.size()));
    Sequence s;
    s.name = fs::path(w[0]).stem().string() + "-" + fs::path(w[1]).stem().string();
    if (!used.insert(s.name).second) s.name += "#" + std::to_string(number);
    used.insert(s.name);
    if (!wanted(s.name)) continue;
    const NamedFrame& a = frame(w[0]);
    const NamedFrame& b = frame(w[1]);
    if (!first) first = &a;
    check_same_size(*first, a);
    check_same_size(*first, b);
    s.i0 = a.image;
    s.i1 = b.image;
    s.benchmark = FlowBenchmark::none;
    d.sequences.push_back(std::move(s));
  }
  if (d.sequences.empty()) throw std::runtime_error(list_file + ": no pair listed");
  d.key = footage_key("pairs", fs::path(list_file).stem().string(), d.sequences);
  d.description = footage_description(d.sequences, "listed in " + list_file);
  return d;
}

FlowDataset load_video(const std::string& path, int stride, int max_frames,
                       const PairFilter& wanted) {
  check_stride(stride, max_frames);
  const std::string stem = fs::path(path).stem().string();
  const auto pair_name = [&](int k) {
    return stem + ":" + std::to_string(k * stride) + "-" + std::to_string(k * stride + 1);
  };
  // The first or second frame of a wanted pair.
  const auto keep = [&](int i) { return i % stride <= 1 && wanted(pair_name(i / stride)); };
  std::vector<std::pair<int, Image>> frames =
      read_video_gray(path, keep, max_frames, default_image_limits().max_pixels);
  std::map<int, const Image*> by_index;
  for (const auto& [i, im] : frames) by_index[i] = &im;
  FlowDataset d;
  const int last = frames.empty() ? -1 : frames.back().first;
  int previous_k = -2;  // the last pair kept, as its k
  for (int k = 0; k * stride + 1 <= last; ++k) {
    const auto a = by_index.find(k * stride), b = by_index.find(k * stride + 1);
    if (a == by_index.end() || b == by_index.end()) continue;
    Sequence s;
    s.name = pair_name(k);
    s.i0 = *a->second;
    s.i1 = *b->second;
    s.benchmark = FlowBenchmark::none;
    // Stride 1: pair k starts at pair k - 1's second frame.
    if (stride == 1 && previous_k == k - 1) s.previous = long(d.sequences.size()) - 1;
    previous_k = k;
    d.sequences.push_back(std::move(s));
  }
  if (d.sequences.empty())
    throw std::runtime_error(path + ": fewer than two frames decoded: a pair needs two frames");
  d.key = footage_key("video", fs::path(path).filename().string(), d.sequences);
  d.description = footage_description(
      d.sequences, "of the video " + path + " (stride " + std::to_string(stride) + ")");
  return d;
}

}  // namespace flowtune
