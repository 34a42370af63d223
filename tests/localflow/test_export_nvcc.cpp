// A tuned header exported for bm_cuda or lk_cuda deploys the kernels as they are: a .cu that
// includes the header, then kernels/cuda/bm_match.cuh or lk_dense.cuh, builds with nvcc for
// sm_90, and the kernels see the tuned tunables (static_assert on the FT_* macros). Skips
// when the build found no nvcc (FLOWTUNE_TEST_NVCC empty).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "select/export_selection.hpp"
#include "select/tuned_header.hpp"
#include "tests/source_root.hpp"
#include "workloads/localflow/localflow_workload.hpp"

#ifndef FLOWTUNE_TEST_NVCC
#define FLOWTUNE_TEST_NVCC ""
#endif

namespace flowtune::reports {
namespace {

namespace fs = std::filesystem;

void expect_deploys(const Workload& w, const std::string& variant,
                    const std::map<std::string, int>& tunables, const std::string& kernel_file,
                    const std::string& precision = "f32") {
  const std::string nvcc = FLOWTUNE_TEST_NVCC;
  if (nvcc.empty() || !fs::exists(nvcc)) GTEST_SKIP() << "no nvcc found when configuring";
  // -I the tree this test runs in (the device copy is elsewhere than the build host's).
  const fs::path root = test::source_root_holding("kernels/cuda/" + kernel_file);
  ASSERT_FALSE(root.empty()) << "kernels/cuda/" << kernel_file << " not found";
  db::MeasuredConfig mc;
  mc.config.board = "h200";
  mc.config.workload = w.name();
  mc.config.variant = variant;
  mc.config.precision = precision;
  mc.config.tunables = tunables;
  mc.config.params = w.default_params();
  mc.config.key = db::config_key(mc.config);
  mc.measurement.dataset = "test";
  const fs::path dir = fs::temp_directory_path() / ("flowtune_localflow_nvcc_" + variant +
                                                    precision + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "tuned.h") << tuned_header_text(mc, "h200", {"time_ms", "ms", true});
  {
    std::ofstream cu(dir / "kernel.cu");
    cu << "#include \"tuned.h\"\n#include \"kernels/cuda/" << kernel_file << "\"\n";
    if (precision == "f16")  // the header's FT_PRECISION_F16 selects binary16 storage
      cu << "static_assert(sizeof(ft_lk_t) == 2, \"f16 storage\");\n";
    for (const auto& [name, value] : tunables) {
      std::string macro = "FT_";
      for (char c : name) macro += char(std::toupper(static_cast<unsigned char>(c)));
      cu << "static_assert(" << macro << " == " << value << ", \"" << macro << "\");\n";
      cu << "static_assert(flowtune::tuned::k";
      bool upper = true;
      for (char c : name) {
        if (c == '_') {
          upper = true;
          continue;
        }
        cu << (upper ? char(std::toupper(static_cast<unsigned char>(c))) : c);
        upper = false;
      }
      cu << " == " << value << ", \"constant\");\n";
    }
  }
  const std::string cmd = "\"" + nvcc + "\" -std=c++17 -arch=sm_90 -I\"" + root.string() +
                          "\" -c " + (dir / "kernel.cu").string() + " -o " +
                          (dir / "kernel.o").string() + " > " + (dir / "log.txt").string() +
                          " 2>&1";
  std::ifstream cu_in(dir / "kernel.cu");
  const std::string cu_text((std::istreambuf_iterator<char>(cu_in)), {});
  EXPECT_EQ(cu_text.find(FLOWTUNE_TEST_SOURCE_DIR), std::string::npos)
      << "the kernel names the build host's source path:\n"
      << cu_text;
  const int rc = std::system(cmd.c_str());
  std::ifstream log(dir / "log.txt");
  const std::string log_text((std::istreambuf_iterator<char>(log)), {});
  EXPECT_EQ(rc, 0) << cmd << "\n" << log_text;
  EXPECT_TRUE(fs::exists(dir / "kernel.o"));
  fs::remove_all(dir);
}

TEST(LocalFlowExport, BmHeaderDeploysTheKernel) {
  expect_deploys(bm_workload(), "bm_cuda",
                 {{"threads", 64}, {"blocks_per_tb", 4}, {"tile_search", 1}}, "bm_match.cuh");
}

TEST(LocalFlowExport, LkHeaderDeploysTheKernel) {
  expect_deploys(lk_workload(), "lk_cuda",
                 {{"block_x", 32}, {"block_y", 8}, {"fused", 1}, {"tile", 1}}, "lk_dense.cuh");
  expect_deploys(lk_workload(), "lk_cuda",
                 {{"block_x", 32}, {"block_y", 8}, {"fused", 0}, {"tile", 1}}, "lk_dense.cuh",
                 "f16");
}

}  // namespace
}  // namespace flowtune::reports
