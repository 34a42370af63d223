// The committed table of NVRTC resource reports (variants/cuda/kernel_resources.csv): the
// registers, static shared memory, stack frame and spills of every kernel of every kernel
// config (variant x precision x build tunables, build_tunables_text) of the TV-L1 CUDA schemes for
// sm_53, sm_62, sm_72, sm_87 and sm_90, compiled natively by NVRTC 11.8 (scripts/toolchain-matrix
// --all-tunables; CI compares its default-tunable rows against a fresh build). `tune space`
// and `tune predict` read a board's kernel resources from it instead of compiling every
// kernel config (ARCHITECTURE.md, "Kernels are compiled per configuration").
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "variants/config.hpp"
#include "variants/variant.hpp"

namespace flowtune::cuda {

/// True for a tunable that changes no kernel resource (registers, shared memory, stack,
/// spills) of a build: the per-level thresholds (is_level_threshold) and the tiled levels'
/// kernel shape (is_tiled_shape_tunable), neither in the scheme's build at all, and the
/// pipelines' strip_h (the rows of a block's strip, a loop bound). For strip_h: the 648
/// NVRTC 11.8 reports of global_pipeline f32 at strip_h 16, 32 and 64 (217 builds, sm_53 to
/// sm_90; results/jetson-answers/host/2026-12-02/strip_h_nvrtc118_reports.csv,
/// benchmarks/host/strip-h-neutrality) have equal figures for every strip_h, and
/// tests/cuda/test_resource_table.cpp rebuilds both pipelines in f16 with the NVRTC in use.
bool is_resource_neutral(const std::string& tunable);

/// The tunables that can change config's kernel resources, as "name=value" in name order
/// separated by one space ("block_x=16 block_y=2"): every tunable but the resource-neutral
/// ones and staging = 0 (the kernel without that tunable). The table's key, with the variant,
/// precision and arch.
std::string build_tunables_text(const Config& config);

/// NVRTC resource reports keyed by (variant, precision, build tunables, arch), each the
/// kernels of one build in the order ptxas reported them. Rows whose status is not "ok"
/// (a failed build, a stand-in arch) are not held: a lookup of them misses.
class ResourceTable {
 public:
  /// Parses the CSV nvrtc_matrix writes (header workload,variant,precision,tunables,arch,
  /// built_for,kernel,registers,static_shared_bytes,local_bytes,spill_bytes,status). Throws
  /// std::runtime_error naming `source`, the line number and the problem (wrong header, a
  /// row of another column count, a figure that is not a non-negative integer).
  static ResourceTable parse(const std::string& csv, const std::string& source);
  /// The committed table, embedded at build time; parsed once (thread-safe).
  static const ResourceTable& committed();

  /// The kernels of the build of (variant, precision, tunables, arch), or nullptr when the
  /// table has no such build. threads_per_block and dynamic_shared_bytes are 0 (the launch
  /// decides them); from_table is set.
  const std::vector<KernelResources>* find(const std::string& variant, const std::string& precision,
                                           const std::string& tunables,
                                           const std::string& arch) const;
  /// Builds (row sets) held.
  std::size_t builds() const { return builds_.size(); }
  /// Where it was read from ("variants/cuda/kernel_resources.csv").
  const std::string& source() const { return source_; }

 private:
  using Key = std::tuple<std::string, std::string, std::string, std::string>;
  std::map<Key, std::vector<KernelResources>> builds_;
  std::string source_;
};

}  // namespace flowtune::cuda
