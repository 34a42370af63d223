// The workloads "bm" and "lk" (workloads/localflow/): schema, registry, runner, and the whole
// product on the host: tune -> DB -> report -> export.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

#include "db/repository.hpp"
#include "db/rows.hpp"
#include "kernels/flow_viz.hpp"
#include "kernels/metrics.hpp"
#include "kernels/png_io.hpp"
#include "tests/localflow/localflow_test_data.hpp"
#include "tests/tuner/tune_process.hpp"
#include "tuner/measure.hpp"
#include "workloads/localflow/localflow_workload.hpp"

namespace flowtune {
namespace {
namespace fs = std::filesystem;

std::vector<std::string> names_of(const std::vector<const Variant*>& vs) {
  std::vector<std::string> out;
  for (const Variant* v : vs) out.push_back(v->name());
  return out;
}

TEST(LocalFlowWorkloads, SchemaAndRegistry) {
  for (const Workload* w : {&bm_workload(), &lk_workload(), &features_workload()}) {
    SCOPED_TRACE(w->name());
    EXPECT_EQ(&find_workload(w->name()), w);
    EXPECT_EQ(w->work_unit(), "px");
    EXPECT_EQ(w->front_objectives(), (std::vector<std::string>{"time_ms", "aepe"}));
    ASSERT_GE(w->metrics().size(), 2u);
    EXPECT_EQ(w->metrics()[0].name, "aepe");  // the names TV-L1 uses: one cross-algorithm front
    EXPECT_EQ(w->metrics()[1].name, "aae_deg");
    for (const Variant* v : w->variants()) {
      EXPECT_EQ(v->workload(), w->name());
      EXPECT_EQ(find_variant(v->name()), v);
      EXPECT_EQ(find_flow_variant(v->name()), nullptr);  // not a TV-L1 variant
    }
    for (const char* target : {"cpu", "cuda"})
      for (const auto& [name, values] : w->default_dimensions(target)) {
        const ParamSpec* spec = w->find_param(name);
        ASSERT_NE(spec, nullptr) << name;
        for (double v : values) EXPECT_EQ(spec->invalid_reason(v), std::nullopt);
      }
    Config c;
    c.workload = w->name();
    c.params = w->default_params();
    EXPECT_EQ(w->check_params(c), std::nullopt);
    EXPECT_GT(w->relative_cost(c), 0);
  }
  const auto bm = names_of(bm_workload().variants()), lk = names_of(lk_workload().variants());
  EXPECT_EQ(bm.front(), "bm_cpu");
  EXPECT_EQ(lk.front(), "lk_cpu");
  EXPECT_EQ(names_of(features_workload().variants()).front(), "feat_cpu");
#ifdef FLOWTUNE_HAVE_CUDA
  EXPECT_EQ(names_of(features_workload().variants()),
            (std::vector<std::string>{"feat_cpu", "feat_cuda"}));
#endif
  ASSERT_EQ(features_workload().metrics().size(), 3u);
  EXPECT_EQ(features_workload().metrics()[2].name, "unclassified");
#ifdef FLOWTUNE_HAVE_CUDA
  EXPECT_EQ(bm, (std::vector<std::string>{"bm_cpu", "bm_simd", "bm_cuda"}));
  EXPECT_EQ(lk, (std::vector<std::string>{"lk_cpu", "lk_simd", "lk_cuda"}));
#else
  EXPECT_EQ(bm, (std::vector<std::string>{"bm_cpu", "bm_simd"}));
  EXPECT_EQ(lk, (std::vector<std::string>{"lk_cpu", "lk_simd"}));
#endif
  Config even;
  even.workload = "lk";
  even.params = lk_workload().default_params();
  even.params["window"] = 8;
  ASSERT_TRUE(lk_workload().invalid_reason(even).has_value());
  EXPECT_EQ(*lk_workload().invalid_reason(even), "window=8 is even");
}

TEST(LocalFlowWorkloads, RunnerScoresAgainstTheGroundTruth) {
  const auto inputs = bm_workload().load_inputs({test::repo_middlebury_dir(), {"RubberWhale"}, 0});
  ASSERT_EQ(inputs->size(), 1u);
  EXPECT_EQ(inputs->key(), "middlebury:RubberWhale");  // TV-L1's key: shared datasets
  Config c;
  c.workload = "bm";
  c.variant = "bm_cpu";
  c.params = bm_workload().default_params();
  auto runner = bm_workload().make_runner(c, *inputs);
  runner->run(0);
  const auto metrics = runner->score(0);
  const test::FramePair f = test::load_pair(test::repo_middlebury_dir(), "RubberWhale");
  const FlowError e = flow_error(localflow::block_matching(f.i0, f.i1, {}), f.gt);
  EXPECT_DOUBLE_EQ(metrics.at("aepe"), e.aepe);
  EXPECT_DOUBLE_EQ(metrics.at("aae_deg"), e.aae_deg);
  c.variant = "lk_cpu";
  EXPECT_THROW(bm_workload().make_runner(c, *inputs), std::invalid_argument);
}

// The pictures the measuring path stores with a measurement: decoded, each pixel is the colour
// wheel (or the error ramp) of the flow computed independently by the CPU block matcher and of
// the ground truth read from disk, at the sampled pixel.
TEST(LocalFlowWorkloads, MeasurementCarriesPicturesOfTheFirstItemsFlow) {
  const auto inputs = bm_workload().load_inputs({test::repo_middlebury_dir(), {"RubberWhale"}, 0});
  Config c;
  c.workload = "bm";
  c.variant = "bm_cpu";
  c.params = bm_workload().default_params();
  auto runner = bm_workload().make_runner(c, *inputs);
  MeasureOptions o;
  o.min_rounds = 0;
  o.max_rounds = 0;
  o.energy = false;
  const db::MeasurementRow m = measure_runner(*runner, *inputs, nullptr, o);
  ASSERT_EQ(m.images.size(), 3u);
  // Through the worker process's wire format unchanged.
  const db::MeasurementRow wired = db::parse_measurement_json(db::measurement_json(m));
  ASSERT_EQ(wired.images.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(wired.images[k].png, m.images[k].png);

  const test::FramePair f = test::load_pair(test::repo_middlebury_dir(), "RubberWhale");
  const FlowField flow = localflow::block_matching(f.i0, f.i1, {});
  double radius = 0;
  for (std::size_t i = 0; i < f.gt.size(); ++i)
    if (is_known_flow(f.gt.u[i], f.gt.v[i]))
      radius = std::max(radius, std::hypot(double(f.gt.u[i]), double(f.gt.v[i])));
  const int step = (std::max(f.gt.width, f.gt.height) + 127) / 128;  // at most 128 px a side
  for (const db::ItemImage& im : m.images) {
    SCOPED_TRACE(im.kind);
    EXPECT_EQ(im.item, "RubberWhale");
    const RgbImage d = decode_png_rgb(im.png);
    ASSERT_EQ(d.width, (f.gt.width + step - 1) / step);
    ASSERT_EQ(d.height, (f.gt.height + step - 1) / step);
    EXPECT_EQ(im.width, d.width);
    EXPECT_EQ(im.height, d.height);
    EXPECT_LE(std::max(d.width, d.height), 128);
    std::size_t mismatches = 0, unknown = 0;
    for (int y = 0; y < d.height; ++y)
      for (int x = 0; x < d.width; ++x) {
        const int sx = std::min(x * step + step / 2, f.gt.width - 1);
        const int sy = std::min(y * step + step / 2, f.gt.height - 1);
        const std::size_t i = std::size_t(sy) * std::size_t(f.gt.width) + std::size_t(sx);
        const std::size_t o3 = 3 * (std::size_t(y) * std::size_t(d.width) + std::size_t(x));
        const std::array<std::uint8_t, 3> got = {d.rgb[o3], d.rgb[o3 + 1], d.rgb[o3 + 2]};
        const bool known = is_known_flow(f.gt.u[i], f.gt.v[i]);
        unknown += !known;
        std::array<std::uint8_t, 3> want = {0, 0, 0};
        if (im.kind == "flow") {
          want = flow_color(flow.u[i] / radius, flow.v[i] / radius);
        } else if (im.kind == "ground_truth") {
          if (known) want = flow_color(f.gt.u[i] / radius, f.gt.v[i] / radius);
        } else {
          ASSERT_EQ(im.kind, "endpoint_error");
          const double epe =
              std::hypot(double(flow.u[i]) - f.gt.u[i], double(flow.v[i]) - f.gt.v[i]);
          const auto g = std::uint8_t(std::lround(255 * std::min(1.0, epe / im.scale)));
          want =
              known ? std::array<std::uint8_t, 3>{g, g, g} : std::array<std::uint8_t, 3>{0, 0, 160};
        }
        mismatches += got != want;
      }
    EXPECT_EQ(mismatches, 0u);
    EXPECT_LT(unknown, std::size_t(d.width) * std::size_t(d.height));
    EXPECT_DOUBLE_EQ(im.scale, im.kind == "endpoint_error" ? 2.0 : radius);
  }
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// tune (host) for both workloads into one DB, the report and an exported header.
TEST(LocalFlowWorkloads, TuneReportAndExportOnTheHost) {
  if (!test::tune_exe_exists())
    GTEST_SKIP() << "no tune executable at " << FLOWTUNE_TUNE_EXE << " (build tree absent)";
  const fs::path dir =
      fs::temp_directory_path() / ("flowtune_localflow_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string db = (dir / "t.db").string();
  const std::string common = " --board host --db " + db + " --data " + test::repo_middlebury_dir() +
                             " --items RubberWhale --max-rounds 0";
  const auto bm = test::run_tune("--workload bm --param block=8,16 --param similarity=1" + common);
  ASSERT_EQ(bm.exit_code, 0) << bm.output;
  // bm_cpu and bm_simd (at all the CPUs): the host board enumerates both host variants.
  EXPECT_NE(bm.output.find("4 measured now"), std::string::npos) << bm.output;
  const auto lk = test::run_tune("--workload lk --param window=5 --param iterations=1" + common);
  ASSERT_EQ(lk.exit_code, 0) << lk.output;
  EXPECT_NE(lk.output.find("2 measured now"), std::string::npos) << lk.output;
  const auto ff =
      test::run_tune("--workload features --param method=1 --param features=100" + common);
  ASSERT_EQ(ff.exit_code, 0) << ff.output;
  EXPECT_NE(ff.output.find("unclassified"), std::string::npos) << ff.output;
  // A second run resumes: nothing measured again.
  const auto again = test::run_tune("--workload lk --param window=5 --param iterations=1" + common);
  EXPECT_NE(again.output.find("0 measured now"), std::string::npos) << again.output;

  const auto report =
      test::run_tune("report --board host --db " + db + " -o " + (dir / "r").string());
  ASSERT_EQ(report.exit_code, 0) << report.output;
  const std::string md = read_text(dir / "r" / "report.md");
  // The fronts name the faster of each workload's host variants (equal AEPE: bm_simd and lk_simd
  // compute bm_cpu's and lk_cpu's flows), whichever it was on this loaded or idle host.
  EXPECT_TRUE(md.find("bm_cpu") != std::string::npos || md.find("bm_simd") != std::string::npos);
  EXPECT_TRUE(md.find("lk_cpu") != std::string::npos || md.find("lk_simd") != std::string::npos);
  // bm and lk measured the same dataset: one cross-algorithm front over (time_ms, aepe).
  EXPECT_NE(md.find("## Cross-algorithm front, dataset middlebury:RubberWhale (7 configs of 3 "
                    "workloads)"),
            std::string::npos)
      << md;
  EXPECT_TRUE(fs::exists(dir / "r" / "cross_front_1.svg"));
  EXPECT_NE(read_text(dir / "r" / "pareto.csv").find("cross_time_ms_aepe,middlebury:RubberWhale"),
            std::string::npos);

  // Every workload section embeds its own plot, not the first section's.
  std::set<std::string> plots;
  for (std::size_t at = md.find("![Pareto front"); at != std::string::npos;
       at = md.find("![Pareto front", at + 1)) {
    const std::size_t open = md.find("](", at) + 2;
    const std::string file = md.substr(open, md.find(')', open) - open);
    EXPECT_TRUE(fs::exists(dir / "r" / file)) << file;
    EXPECT_TRUE(plots.insert(file).second) << file << " embedded twice:\n" << md;
  }
  EXPECT_EQ(plots.size(), 3u) << md;  // bm, lk, features (features has two objectives too)

  // A measurement on its run's front when it arrives carries its three pictures through the
  // worker process into the DB (the ground truth's the same for all; one dominated on arrival
  // carries none, and the first of each run always enters), and report.md shows those of the
  // fronts as files.
  {
    const db::Repository repo(db, db::OpenMode::read_only);
    const auto images = repo.item_images("host");
    EXPECT_GE(images.size(), 3u);
    EXPECT_LE(images.size(), repo.measured("host").size());
    std::set<std::vector<std::uint8_t>> truths;
    for (const auto& [id, pictures] : images) {
      ASSERT_EQ(pictures.size(), 3u) << id;
      for (const db::ItemImage& im : pictures) {
        EXPECT_EQ(im.item, "RubberWhale");
        const RgbImage d = decode_png_rgb(im.png);
        EXPECT_EQ(d.width, 117);  // 584 x 388 sampled every 5 px
        EXPECT_EQ(d.height, 78);
        if (im.kind == "ground_truth") truths.insert(im.png);
      }
    }
    EXPECT_EQ(truths.size(), 1u);
  }
  std::size_t shown = 0;
  for (std::size_t at = md.find("![flow](flow_"); at != std::string::npos;
       at = md.find("![flow](flow_", at + 1), ++shown) {
    const std::size_t open = md.find("](", at) + 2;
    const std::string file = md.substr(open, md.find(')', open) - open);
    std::ifstream in(dir / "r" / file, std::ios::binary);
    const std::vector<std::uint8_t> png((std::istreambuf_iterator<char>(in)),
                                        std::istreambuf_iterator<char>());
    EXPECT_EQ(decode_png_rgb(png).width, 117) << file;
  }
  EXPECT_GE(shown, 3u) << md;  // at least one front config per workload
  EXPECT_NE(md.find("saturated at"), std::string::npos) << md;

  const std::string header = (dir / "tuned.h").string();
  // Three workloads measured the dataset: export names them instead of picking one.
  const auto ambiguous =
      test::run_tune("export --board host --db " + db + " --objective aepe -o " + header);
  EXPECT_EQ(ambiguous.exit_code, 1) << ambiguous.output;
  EXPECT_NE(ambiguous.output.find("several workloads (bm, features, lk); choose one with "
                                  "--workload"),
            std::string::npos)
      << ambiguous.output;
  EXPECT_FALSE(fs::exists(header));
  const auto no_tvl1 = test::run_tune("export --board host --db " + db +
                                      " --workload tvl1 --objective aepe -o " + header);
  EXPECT_EQ(no_tvl1.exit_code, 1) << no_tvl1.output;
  EXPECT_NE(no_tvl1.output.find("no measurements of workload 'tvl1'"), std::string::npos)
      << no_tvl1.output;
  const auto unknown = test::run_tune("export --board host --db " + db +
                                      " --workload nope --objective aepe -o " + header);
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
  const auto exported = test::run_tune("export --board host --db " + db +
                                       " --workload lk --objective aepe -o " + header);
  ASSERT_EQ(exported.exit_code, 0) << exported.output;
  const std::string h = read_text(header);
  EXPECT_NE(h.find("kWorkload = \"lk\""), std::string::npos) << h;
  EXPECT_NE(h.find("kLevels = "), std::string::npos) << h;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace flowtune
