// The toolchain matrix: compiles every kernel of every CUDA variant of every
// workload, for each tunable combination and precision, with the NVRTC in use (linked, or
// $FLOWTUNE_NVRTC_LIBRARY, e.g. NVRTC 11.8 from PyPI: scripts/toolchain-matrix) for a list of
// archs, and writes each kernel's ptxas resource report as CSV rows:
//   workload,variant,precision,tunables,arch,built_for,kernel,registers,static_shared_bytes,
//   local_bytes,spill_bytes,status
// tunables are the build's resource key (variant/cuda/resource_table.hpp build_tunables_text:
// no per-level threshold, no strip_h), one row set per key; --all-tunables of
// scripts/toolchain-matrix writes the committed table variants/cuda/kernel_resources.csv this way.
// status is "ok", "estimated" (built for a stand-in arch, see nvrtc_target_arch), or
// "failed: <first line of the error>". TV-L1 also has the per-level kernels every scheme
// shares (tvl1_resident.cuh, tvl1_tiled.cuh, tvl1_persistent.cuh with 1 and 2 grid syncs per
// iteration, variants/cuda/{resident,tiled,persistent}_levels.cpp),
// listed as variant "levels".
// Usage: nvrtc_matrix [--archs sm_53,sm_62,...] [--one-per-precision] > matrix.csv
// Exit status: 0 when every build compiled natively for its arch, 1 otherwise, 2 bad usage.
#include <cstdio>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "boards/board.hpp"
#include "tuner/space.hpp"
#include "variants/cuda/cuda_variant.hpp"
#include "variants/cuda/nvrtc_build.hpp"
#include "variants/cuda/persistent_levels.hpp"
#include "variants/cuda/resident_levels.hpp"
#include "variants/cuda/resource_table.hpp"
#include "variants/cuda/tiled_levels.hpp"
#include "variants/variant.hpp"
#include "workloads/workload.hpp"

namespace {

using flowtune::Config;
using flowtune::KernelResources;

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, sep))
    if (!item.empty()) out.push_back(item);
  return out;
}

// The tunables that can change the build's resources: every tunable but the resource-neutral
// ones (the key of variants/cuda/resource_table.hpp); one build per key.
std::string tunables_text(const Config& c) {
  return flowtune::cuda::build_tunables_text(c);
}

// A per-level kernel's config (resident, tiled, persistent kernels) as "name=value" in name
// order: every tunable of it is a define of that kernel (tiled_t, tiled_depth, ... are resource
// neutral only for the scheme's build).
std::string level_kernel_text(const Config& c) {
  std::string out;
  for (const auto& [name, value] : c.tunables)
    out += (out.empty() ? "" : " ") + name + "=" + std::to_string(value);
  return out;
}

std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  for (char& ch : line)
    if (ch == ',' || ch == '"') ch = ';';
  return line;
}

struct Row {
  std::string workload, variant, precision, tunables;
};

int failures = 0;

void emit(const Row& row, const std::string& arch, const std::vector<KernelResources>& ks) {
  for (const auto& k : ks)
    std::cout << row.workload << ',' << row.variant << ',' << row.precision << ',' << row.tunables
              << ',' << arch << ',' << k.built_for << ',' << k.kernel << ','
              << k.registers_per_thread << ',' << k.static_shared_bytes << ',' << k.local_bytes
              << ',' << k.spill_bytes << ',' << (k.estimated ? "estimated" : "ok") << '\n';
  for (const auto& k : ks)
    if (k.estimated) ++failures;
}

void emit_failure(const Row& row, const std::string& arch, const std::string& what) {
  ++failures;
  std::cout << row.workload << ',' << row.variant << ',' << row.precision << ',' << row.tunables
            << ',' << arch << ",,,,,,,failed: " << first_line(what) << '\n';
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> archs = {"sm_53", "sm_62", "sm_72", "sm_87", "sm_90"};
  bool one_per_precision = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--archs" && i + 1 < argc) {
      archs = split(argv[++i], ',');
    } else if (a == "--one-per-precision") {
      one_per_precision = true;
    } else {
      std::cerr << "usage: nvrtc_matrix [--archs sm_53,sm_62,...] [--one-per-precision]\n";
      return 2;
    }
  }
  std::cerr << "nvrtc_matrix: NVRTC " << flowtune::cuda::nvrtc_version_string() << '\n';
  std::cout << "workload,variant,precision,tunables,arch,built_for,kernel,registers,"
               "static_shared_bytes,local_bytes,spill_bytes,status\n";
  const flowtune::Board board = flowtune::load_board("h200");  // any cuda board: its variants
  for (const flowtune::Workload* w : flowtune::all_workloads()) {
    for (const flowtune::Variant* v : w->variants()) {
      if (v->target() != "cuda") continue;
      flowtune::SpaceOptions options;
      options.workload = w->name();
      options.variants = {v->name()};
      // Parameters build no kernel: each at its target's default, one config per kernel config
      // (the default dimensions' ranges would make ~10^11 configs).
      options.default_dimensions = false;
      std::set<std::string> seen;  // one build per precision x tunables (parameters do not build)
      for (const Config& c : flowtune::enumerate_space(board, options)) {
        if (v->invalid_reason(c)) continue;
        // persistent_px changes no scheme kernel (it is not a define); the persistent kernel
        // itself is a "levels" row below.
        if (flowtune::cuda::persistent_px_of(c) != 0) continue;
        const std::string key = one_per_precision ? c.precision : c.precision + tunables_text(c);
        if (!seen.insert(key).second) continue;
        const Row row{w->name(), v->name(), c.precision, tunables_text(c)};
        for (const auto& arch : archs) {
          // A config the arch cannot run (staging=1 below sm_80) has no build there.
          if (flowtune::cuda::arch_invalid_reason(v->name(), c, arch)) continue;
          try {
            emit(row, arch, v->resources(c, arch));
          } catch (const std::exception& e) {
            emit_failure(row, arch, e.what());
          }
        }
      }
    }
    if (w->name() != "tvl1") continue;
    // The per-level kernels (resident and tiled levels) with the defines their owners use.
    for (const std::string precision : {"f32", "f16", "mixed"}) {
      const Config resident = flowtune::cuda::resident_kernel_config(precision);
      const Config tiled = flowtune::cuda::tiled_kernel_config(precision);
      for (const auto& [source, c] : std::vector<std::pair<std::string, Config>>{
               {"tvl1_resident.cuh", resident},
               {"tvl1_tiled.cuh", tiled},
               {"tvl1_persistent.cuh", flowtune::cuda::persistent_kernel_config(precision, 1)},
               {"tvl1_persistent.cuh", flowtune::cuda::persistent_kernel_config(precision, 2)}}) {
        const Row row{"tvl1", "levels", precision, level_kernel_text(c)};
        for (const auto& arch : archs) {
          try {
            emit(row, arch,
                 flowtune::cuda::nvrtc_build(source,
                                             source == "tvl1_tiled.cuh"
                                                 ? flowtune::cuda::tiled_kernel_defines(precision)
                                                 : flowtune::cuda::nvrtc_defines(c),
                                             arch)
                     ->resources);
          } catch (const std::exception& e) {
            emit_failure(row, arch, e.what());
          }
        }
      }
    }
  }
  std::cerr << "nvrtc_matrix: " << failures << " build(s) failed or estimated\n";
  return failures == 0 ? 0 : 1;
}
