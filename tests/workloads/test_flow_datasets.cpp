// The optical-flow input sets of workloads/tvl1/flow_dataset.hpp on files the tests write in
// each layout's exact format: a user's frames (natural order, --stride, --max-frames, a pair
// list, a video), the errors a bad input gets before any config runs, the reference flow
// (computed once, cached, recomputed when the config changes) and what the TV-L1 runner
// scores on each set: ref_aepe and photometric against the reference (oracle: the metric
// functions on the reference the same solver computes), KITTI's Fl-all and Sintel's EPE
// all/noc against ground truths whose values are worked out by hand.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/flo_io.hpp"
#include "kernels/kitti_flow_io.hpp"
#include "kernels/metrics.hpp"
#include "kernels/photometric.hpp"
#include "kernels/video_io.hpp"
#include "tests/kernels/textured_image.hpp"
#include "tests/test_dir.hpp"
#include "tests/workloads/dataset_files.hpp"
#include "variants/variant.hpp"
#include "workloads/tvl1/flow_dataset.hpp"
#include "workloads/tvl1/flow_runner.hpp"
#include "workloads/tvl1/reference_flow.hpp"
#include "workloads/tvl1/sequence_set.hpp"

namespace flowtune {
namespace {
namespace fs = std::filesystem;

/// Writes the constant flow (u, v): a solver whose output the scores are computed on by hand.
class ConstantSolver final : public FlowSolver {
 public:
  ConstantSolver(float u, float v) : u_(u), v_(v) {}
  FlowField compute(const Image& i0, const Image&) override {
    FlowField f(i0.width, i0.height);
    for (std::size_t i = 0; i < f.size(); ++i) {
      f.u[i] = u_;
      f.v[i] = v_;
    }
    return f;
  }

 private:
  float u_, v_;
};

std::map<std::string, double> score_constant(const FlowDataset& d, float u, float v,
                                             std::size_t item = 0) {
  static std::vector<std::unique_ptr<SequenceSet>> keep;  // the runner holds a reference
  keep.push_back(std::make_unique<SequenceSet>(d));
  const std::unique_ptr<Runner> r =
      make_flow_runner(std::make_unique<ConstantSolver>(u, v), *keep.back());
  r->run(item);
  return r->score(item);
}

std::vector<std::string> names(const FlowDataset& d) {
  std::vector<std::string> out;
  for (const Sequence& s : d.sequences) out.push_back(s.name);
  return out;
}

std::string error_of(const InputOptions& o) {
  try {
    load_flow_dataset(o);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

class FlowDatasets : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::per_test_dir("flowtune_datasets");
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    setenv("FLOWTUNE_CACHE_DIR", (dir_ / "cache").c_str(), 1);
  }
  void TearDown() override {
    unsetenv("FLOWTUNE_CACHE_DIR");
    fs::remove_all(dir_);
  }
  /// Frames f1, f2, f10 of a texture moving right by 1 px a frame (written in that order so
  /// that the folder's order is no help).
  fs::path three_frames(const std::string& folder, unsigned seed = 3) {
    const fs::path d = dir_ / folder;
    test::write_gray_png(d / "f10.png", test::textured(32, 24, 2, seed));
    test::write_gray_png(d / "f1.png", test::textured(32, 24, 0, seed));
    test::write_gray_png(d / "f2.png", test::textured(32, 24, 1, seed));
    return d;
  }
  InputOptions at(const fs::path& p) const {
    InputOptions o;
    o.data_dir = p.string();
    return o;
  }
  fs::path dir_;
};

TEST(FrameNames, NaturalOrderComparesNumbersByValue) {
  EXPECT_TRUE(frame_name_less("f2.png", "f10.png"));
  EXPECT_FALSE(frame_name_less("f10.png", "f2.png"));
  EXPECT_TRUE(frame_name_less("cam_009.png", "cam_10.png"));
  EXPECT_TRUE(frame_name_less("a.png", "b.png"));
  EXPECT_TRUE(frame_name_less("f01.png", "f1.png"));  // equal values: the plain order decides
}

TEST_F(FlowDatasets, AFrameFolderGivesConsecutivePairsInNaturalOrder) {
  InputOptions o = at(three_frames("cam"));
  const FlowDataset all = load_flow_dataset(o);
  EXPECT_EQ(names(all), (std::vector<std::string>{"f1-f2", "f2-f10"}));
  EXPECT_FALSE(all.has_ground_truth());
  ASSERT_TRUE(all.sequences[0].has_reference());
  EXPECT_EQ(all.key.rfind("frames:cam:2 pairs:", 0), 0u) << all.key;
  EXPECT_NE(all.key.find("+ref:" + reference_config_hash(reference_config()).substr(0, 8)),
            std::string::npos)
      << all.key;
  EXPECT_NE(all.description.find("no ground truth"), std::string::npos) << all.description;
  EXPECT_NE(all.description.find(reference_config_text(reference_config())), std::string::npos);
  o.stride = 2;
  EXPECT_EQ(names(load_flow_dataset(o)), (std::vector<std::string>{"f1-f2"}));
  o.stride = 1;
  o.max_frames = 2;
  EXPECT_EQ(names(load_flow_dataset(o)), (std::vector<std::string>{"f1-f2"}));
  o.max_frames = 0;
  o.items = {"f2-f10"};
  EXPECT_EQ(names(load_flow_dataset(o)), (std::vector<std::string>{"f2-f10"}));
}

// The key hashes the frames' pixels: the same folder name with other frames is another set.
TEST_F(FlowDatasets, TheKeyDistinguishesFootageOfOneFolderName) {
  const std::string a = load_flow_dataset(at(three_frames("one/cam", 3))).key;
  const std::string b = load_flow_dataset(at(three_frames("two/cam", 4))).key;
  EXPECT_EQ(a.rfind("frames:cam:2 pairs:", 0), 0u) << a;
  EXPECT_NE(a, b);
  EXPECT_EQ(a, load_flow_dataset(at(dir_ / "one/cam")).key);
}

// Computed once per pair, then read from the cache; another config computes its own.
TEST_F(FlowDatasets, TheReferenceFlowIsCachedAndRecomputedForAnotherConfig) {
  const fs::path cam = three_frames("cam");
  const FlowDataset first = load_flow_dataset(at(cam));
  EXPECT_NE(first.description.find("2 computed, 0 from the cache"), std::string::npos)
      << first.description;
  const FlowDataset again = load_flow_dataset(at(cam));
  EXPECT_NE(again.description.find("0 computed, 2 from the cache"), std::string::npos)
      << again.description;
  EXPECT_EQ(again.sequences[1].reference.u, first.sequences[1].reference.u);
  // The oracle: the config's own solver on the pair.
  const Config ref = reference_config();
  const FlowField direct = find_flow_variant(ref.variant)
                               ->make_solver(ref)
                               ->compute(first.sequences[1].i0, first.sequences[1].i1);
  EXPECT_EQ(first.sequences[1].reference.u, direct.u);
  EXPECT_EQ(first.sequences[1].reference.v, direct.v);
  Config other = ref;
  other.params["iterations"] = 40;
  EXPECT_NE(reference_config_hash(other), reference_config_hash(ref));
  std::vector<Sequence> pairs = again.sequences;
  const ReferenceFlowStats st = attach_reference_flows(pairs, other, reference_cache_dir());
  EXPECT_EQ(st.computed, 2u);
  EXPECT_EQ(st.cached, 0u);
}

// Without ground truth the runner scores against the reference: ref_aepe = flow_error to it,
// photometric = photometric_error over its visible pixels; no aepe.
TEST_F(FlowDatasets, FootageIsScoredAgainstTheReference) {
  const FlowDataset d = load_flow_dataset(at(three_frames("cam")));
  const std::map<std::string, double> m = score_constant(d, 1, 0);
  const Sequence& s = d.sequences[0];
  EXPECT_EQ(m.count("aepe"), 0u);
  ASSERT_EQ(m.count("ref_aepe"), 1u);
  ASSERT_EQ(m.count("photometric"), 1u);
  FlowField one(32, 24);
  for (float& u : one.u) u = 1;
  EXPECT_DOUBLE_EQ(m.at("ref_aepe"), flow_error(one, s.reference).aepe);
  EXPECT_DOUBLE_EQ(m.at("photometric"), photometric_error(s.i0, s.i1, one, s.visible).mean);
  // The texture moves by 1 px: the reference is close to (1, 0), so (1, 0) scores better than 0.
  EXPECT_LT(m.at("ref_aepe"), 0.5);
  EXPECT_LT(m.at("photometric"), score_constant(d, 0, 0).at("photometric"));
}

TEST_F(FlowDatasets, BadFootageIsRefusedNamingTheFile) {
  const fs::path mixed = three_frames("mixed");
  test::write_gray_png(mixed / "f3.png", test::textured(16, 24, 0, 1));
  std::string e = error_of(at(mixed));
  EXPECT_NE(e.find("f3.png: frames of mixed sizes: this frame is 16x24"), std::string::npos) << e;
  EXPECT_NE(e.find("f1.png is 32x24"), std::string::npos) << e;

  test::write_gray_png(dir_ / "single" / "only.png", test::textured(8, 8, 0, 1));
  e = error_of(at(dir_ / "single"));
  EXPECT_NE(e.find("a single frame (only.png): a pair needs two frames"), std::string::npos) << e;

  fs::create_directories(dir_ / "empty");
  e = error_of(at(dir_ / "empty"));
  EXPECT_NE(e.find(": no frames"), std::string::npos) << e;

  std::ofstream(dir_ / "clip.mp4") << "not a video";
  e = error_of(at(dir_ / "clip.mp4"));
  EXPECT_EQ(e.rfind((dir_ / "clip.mp4").string() + ": ", 0), 0u) << e;

  std::ofstream(dir_ / "notes.txt") << "x";
  e = error_of(at(dir_ / "notes.txt"));
  EXPECT_NE(e.find("is not a video"), std::string::npos) << e;
}

TEST_F(FlowDatasets, APairListNamesItsFramesRelativeToItself) {
  const fs::path cam = three_frames("cam");
  std::ofstream(cam / "pairs.txt") << "# first and last\nf1.png f10.png\n\nf2.png f10.png\n";
  InputOptions o;
  o.pairs = (cam / "pairs.txt").string();
  const FlowDataset d = load_flow_dataset(o);
  EXPECT_EQ(names(d), (std::vector<std::string>{"f1-f10", "f2-f10"}));
  EXPECT_EQ(d.key.rfind("pairs:pairs:2 pairs:", 0), 0u) << d.key;
  std::ofstream(cam / "bad.txt") << "f1.png f2.png\nf1.png f2.png f10.png\n";
  o.pairs = (cam / "bad.txt").string();
  const std::string e = error_of(o);
  EXPECT_NE(e.find("bad.txt:2: expected two frame names (FIRST SECOND), got 3"), std::string::npos)
      << e;
  o.pairs = (cam / "pairs.txt").string();
  o.stride = 2;
  EXPECT_THROW(load_flow_dataset(o), std::invalid_argument);
}

TEST_F(FlowDatasets, AVideoGivesPairsOfItsFrames) {
  if (!video_reader_available()) GTEST_SKIP() << "built without FFmpeg's libraries";
  std::vector<RgbImage> frames;
  for (int k = 0; k < 5; ++k) {
    const Image im = test::textured(32, 24, k, 5);
    RgbImage f{32, 24, std::vector<std::uint8_t>(32 * 24 * 3)};
    for (std::size_t i = 0; i < im.size(); ++i)
      f.rgb[3 * i] = f.rgb[3 * i + 1] = f.rgb[3 * i + 2] = std::uint8_t(std::lround(im.data[i]));
    frames.push_back(f);
  }
  write_video_rgb((dir_ / "clip.mkv").string(), frames, 30);
  InputOptions o = at(dir_ / "clip.mkv");
  o.stride = 2;
  const FlowDataset d = load_flow_dataset(o);
  EXPECT_EQ(names(d), (std::vector<std::string>{"clip:0-1", "clip:2-3"}));
  EXPECT_EQ(d.key.rfind("video:clip.mkv:2 pairs:", 0), 0u) << d.key;
  // Frame 2's gray levels are the texture's, rounded (written as R = G = B).
  EXPECT_NEAR(d.sequences[1].i0.at(5, 7), std::round(test::textured(32, 24, 2, 5).at(5, 7)), 1e-3);
  o.max_frames = 3;  // frames 0, 1, 2: one pair
  EXPECT_EQ(names(load_flow_dataset(o)), (std::vector<std::string>{"clip:0-1"}));
}

// KITTI 2015: a 4 x 2 pair with flow_occ: row 0 valid with gt (4, 0), row 1: pixel (0, 1)
// valid with gt (1, 0), the rest invalid. A constant estimate (0, 0): EPE 4 (> 3 and > 0.2:
// outliers) on row 0 and 1 (no outlier) on (0, 1): Fl-all = 4 / 5 = 80%, AEPE (4 * 4 + 1) / 5
// = 3.4.
TEST_F(FlowDatasets, KittiIsRecognisedAndScoredByFlAll) {
  const fs::path root = dir_ / "kitti" / "training";
  test::write_gray_png(root / "image_2" / "000007_10.png", test::textured(4, 2, 0, 1));
  test::write_gray_png(root / "image_2" / "000007_11.png", test::textured(4, 2, 1, 1));
  FlowField gt(4, 2);
  std::vector<bool> valid(8, false);
  for (int x = 0; x < 4; ++x) {
    gt.u[x] = 4;
    valid[x] = true;
  }
  gt.u[4] = 1;
  valid[4] = true;
  test::write_kitti_flow_raw(root / "flow_occ" / "000007_10.png", gt, valid);
  const FlowDataset d = load_flow_dataset(at(dir_ / "kitti"));
  ASSERT_EQ(names(d), (std::vector<std::string>{"000007"}));
  EXPECT_EQ(d.key, "kitti2015:000007");
  EXPECT_TRUE(d.has_ground_truth());
  EXPECT_FLOAT_EQ(d.sequences[0].ground_truth.u[4], 1.f);
  EXPECT_FALSE(is_known_flow(d.sequences[0].ground_truth.u[5], d.sequences[0].ground_truth.v[5]));
  const std::map<std::string, double> m = score_constant(d, 0, 0);
  EXPECT_DOUBLE_EQ(m.at("fl_all"), 80.0);
  EXPECT_DOUBLE_EQ(m.at("aepe"), 3.4);
  EXPECT_EQ(m.count("ref_aepe"), 0u);  // ground truth: no reference unless asked for
}

// MPI-Sintel: clean/ and final/alley/frame_0001..0002 (one pair each) on 3 x 2, gt (0, 0) on
// column 0 and (3, 4) on columns 1, 2, the occlusion mask white (occluded) on column 0. The
// estimate (0, 0): EPE 0 on column 0 and 5 elsewhere: EPE all (2 * 0 + 4 * 5) / 6 = 10 / 3,
// noc (column 0 left out) 5.
TEST_F(FlowDatasets, SintelIsRecognisedAndScoredByEpeAllAndNoc) {
  const fs::path root = dir_ / "sintel" / "training";
  test::write_gray_png(root / "clean" / "alley" / "frame_0001.png", test::textured(3, 2, 0, 1));
  test::write_gray_png(root / "clean" / "alley" / "frame_0002.png", test::textured(3, 2, 1, 1));
  test::write_gray_png(root / "final" / "alley" / "frame_0001.png", test::textured(3, 2, 0, 2));
  test::write_gray_png(root / "final" / "alley" / "frame_0002.png", test::textured(3, 2, 1, 2));
  FlowField gt(3, 2);
  for (int y = 0; y < 2; ++y)
    for (int x = 1; x < 3; ++x) {
      gt.u[std::size_t(y) * 3 + x] = 3;
      gt.v[std::size_t(y) * 3 + x] = 4;
    }
  fs::create_directories(root / "flow" / "alley");
  write_flo((root / "flow" / "alley" / "frame_0001.flo").string(), gt);
  Image occ(3, 2, 0);
  occ.at(0, 0) = occ.at(0, 1) = 255;
  test::write_gray_png(root / "occlusions" / "alley" / "frame_0001.png", occ);
  InputOptions o = at(dir_ / "sintel");
  const FlowDataset d = load_flow_dataset(o);
  EXPECT_EQ(names(d), (std::vector<std::string>{"clean/alley/0001", "final/alley/0001"}));
  EXPECT_EQ(d.key, "sintel:clean/alley/0001,final/alley/0001");
  const std::map<std::string, double> m = score_constant(d, 0, 0);
  EXPECT_DOUBLE_EQ(m.at("aepe"), 10.0 / 3);
  EXPECT_DOUBLE_EQ(m.at("epe_noc"), 5.0);
  o.items = {"final"};
  EXPECT_EQ(names(load_flow_dataset(o)), (std::vector<std::string>{"final/alley/0001"}));
  // A scene with ground truth but no flow file for a pair is refused naming the file.
  fs::remove(root / "flow" / "alley" / "frame_0001.flo");
  const std::string e = error_of(at(dir_ / "sintel"));
  EXPECT_NE(e.find("frame_0001.flo: missing ground truth"), std::string::npos) << e;
}

// A Middlebury folder (frame10.png, frame11.png, flow10.flo) keeps its key and its scores;
// with --reference-metrics its pairs are scored against the reference as well.
TEST_F(FlowDatasets, ReferenceMetricsOnDataWithGroundTruth) {
  const fs::path seq = dir_ / "middlebury" / "Texture";
  test::write_gray_png(seq / "frame10.png", test::textured(32, 24, 0, 6));
  test::write_gray_png(seq / "frame11.png", test::textured(32, 24, 1, 6));
  FlowField gt(32, 24);
  for (float& u : gt.u) u = 1;
  write_flo((seq / "flow10.flo").string(), gt);
  InputOptions o = at(dir_ / "middlebury");
  const FlowDataset plain = load_flow_dataset(o);
  EXPECT_EQ(plain.key, "middlebury:Texture");
  EXPECT_FALSE(plain.sequences[0].has_reference());
  EXPECT_DOUBLE_EQ(score_constant(plain, 0, 0).at("aepe"), 1.0);  // |(0, 0) - (1, 0)|
  o.reference_metrics = true;
  const FlowDataset d = load_flow_dataset(o);
  EXPECT_EQ(d.key.rfind("middlebury:Texture+ref:", 0), 0u) << d.key;
  const std::map<std::string, double> m = score_constant(d, 0, 0);
  EXPECT_DOUBLE_EQ(m.at("aepe"), 1.0);
  EXPECT_EQ(m.count("ref_aepe"), 1u);
  EXPECT_EQ(m.count("photometric"), 1u);
}

// A ground truth whose every vector is unknown would fail every config as `accuracy` after
// computing its flow: it is refused when the inputs load, naming the file.
TEST_F(FlowDatasets, AGroundTruthWithoutAKnownVectorIsRefusedAtLoad) {
  const fs::path seq = dir_ / "middlebury" / "Blank";
  test::write_gray_png(seq / "frame10.png", test::textured(8, 6, 0, 6));
  test::write_gray_png(seq / "frame11.png", test::textured(8, 6, 1, 6));
  FlowField unknown(8, 6);
  for (float& u : unknown.u) u = kUnknownFlow;
  write_flo((seq / "flow10.flo").string(), unknown);
  const std::string e = error_of(at(dir_ / "middlebury"));
  EXPECT_NE(e.find((seq / "flow10.flo").string() + ": the ground truth has no known vector"),
            std::string::npos)
      << e;
  EXPECT_EQ(known_flow_pixels(unknown), 0u);
  unknown.u[3] = 0.5f;
  EXPECT_EQ(known_flow_pixels(unknown), 1u);
}

}  // namespace
}  // namespace flowtune
