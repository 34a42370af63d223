// The prebuilt kernel cache (ARCHITECTURE.md, "Kernels are compiled per configuration"): the
// kernels a tuning run on a board compiles first, built ahead on another machine with the
// board's NVRTC version, so that the board times instead of compiling. `tune
// --prebuild-kernels DIR` writes one; the board reads it through
// variants/cuda/nvrtc_build.hpp's prebuilt_kernel_dirs (docs/jetson.md, "Prebuilt kernels").
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "tuner/tune_run.hpp"
#include "variants/kernel_binary_cache.hpp"

namespace flowtune {

/// The points of the strategy's start whose kernels a prebuild takes: those a run's build
/// threads build ahead when it starts (tuner/tune_session.hpp, kPrefetchPoints).
constexpr std::size_t kPrebuildStartPoints = 64;

/// Which kernel sets a prebuild takes.
enum class PrebuildScope {
  /// The kernel sets a run compiles first: its strategy's start and those one tunable step from
  /// them (a board's first minutes time instead of compiling; the rest builds on the board).
  start,
  /// Every kernel set of the space that the variant's rules allow (kernel_rules_allow): a run
  /// of that space, or a check of its every config, compiles nothing on the board.
  space,
};

/// "start" or "space" -> PrebuildScope; throws std::invalid_argument naming the value otherwise.
PrebuildScope parse_prebuild_scope(const std::string& text);

/// What prebuild_kernels built.
struct KernelPrebuild {
  PrebuildScope scope = PrebuildScope::start;
  std::string board, arch;
  std::string compiler_version;  ///< the run-time compiler's, e.g. "12.6" (NVRTC 12.6)
  std::string folder;            ///< where the entries went: <root>/<arch>-nvrtc<version>
  std::string manifest;          ///< <folder>/manifest-<board>.tsv
  std::size_t start_points = 0;  ///< points of the strategy's start (Strategy::upcoming)
  std::size_t start_sets = 0;    ///< distinct kernel sets among them
  std::size_t space_sets = 0;    ///< kernel sets of the space (SearchSpace::kernel_sets)
  /// Kernel sets (Config::label: variant, precision, tunables) built or found in the cache:
  /// for PrebuildScope::start the start's first, then their neighbours in space order; for
  /// PrebuildScope::space every one in space order.
  std::vector<std::string> built;
  /// Kernel sets that did not build: label and the reason (the variant's rules for the arch,
  /// or the compiler's error); a run on the board records them as pruned or failed.
  std::vector<std::pair<std::string, std::string>> not_built;
  KernelBuildCounts builds;  ///< the builds of this call (kernel_build_counters' difference)
  double seconds = 0;        ///< wall clock of the builds
};

/// The sub-folder of a prebuilt cache for arch and NVRTC version: "<arch>-nvrtc<version>",
/// e.g. "sm_87-nvrtc12.6" (what the board's `tune` looks in: nvrtc_build.hpp,
/// prebuilt_kernel_dirs).
std::string prebuilt_kernel_folder(const std::string& arch, const std::string& compiler_version);

/// Builds kernels for options.board's arch. With scope PrebuildScope::start: those a tuning run
/// of options compiles first (the same space, strategy and seed, hence the same first
/// proposals), i.e. the kernel sets of the strategy's first `start_points` proposals
/// (Strategy::upcoming, what the run's build threads build ahead at its start; kernel_staged's
/// first kernel sets, one or more per variant and precision) and every kernel set one tunable
/// step from one of them (SearchSpace::neighbours along a tunable dimension, among the kernel
/// sets the variant's rules allow (kernel_rules_allow): the candidates of kernel_staged's
/// refinement and of the strategies' local proposals). With PrebuildScope::space: every kernel
/// set of the run's space (SearchSpace::kernel_sets) that the variant's rules allow, in space
/// order; start_points is not used. Each is built with Variant::build_kernels, with the
/// compiler in use, into <root>/prebuilt_kernel_folder(arch, its version) (created; entries
/// already there are kept and count as cache hits, so a stopped prebuild resumes), and no other
/// cache is read (set_kernel_cache_folders); then <folder>/manifest-<board>.tsv is written
/// (kernel_prebuild_manifest). `threads` threads build (0 = the cores). The run's session
/// (open_session) is opened on a scratch store in the system's temporary folder, removed at
/// the end: nothing is measured or stored. Needs no GPU. Logs the selection and a counter with
/// its ETA on `log`. Throws std::invalid_argument for a board that is not a CUDA board or when
/// no variant of the workload has a run-time compiler (Variant::compiler_version),
/// std::runtime_error when a folder cannot be made or the manifest written, and what open_session
/// throws (unknown board, workload or data); a kernel set that does not build goes to not_built.
KernelPrebuild prebuild_kernels(const TuneOptions& options, const std::string& root,
                                PrebuildScope scope, std::size_t start_points, unsigned threads,
                                std::ostream& log);

/// The manifest of a prebuilt cache folder (written by `tune --prebuild-kernels` as
/// <folder>/manifest-<board>.tsv; boards of one arch share the folder): a "# " header of board,
/// arch, NVRTC version, the scope and the counts, then one "built\t<label>" or "not
/// built\t<label>\t<reason>" line per kernel set.
std::string kernel_prebuild_manifest(const KernelPrebuild& prebuild);

}  // namespace flowtune
