// The variant adaptor interface: each implementation scheme of a workload is one small
// adaptor that names its tunables, states its own constraints and builds a solver for a
// config (FlowVariant for TV-L1; other workloads derive their own solver interface).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/image.hpp"
#include "variants/config.hpp"

namespace flowtune {

/// Computes the flow of one frame pair. One call = one frame (pyramid, warpings,
/// iterations); data stays on the device between the steps of a GPU solver.
class FlowSolver {
 public:
  virtual ~FlowSolver() = default;
  /// I0, I1: grayscale frames in [0, 255] of equal size (throws std::invalid_argument
  /// otherwise). Returns the flow I0 -> I1 in pixels, same size. Synchronous: when it
  /// returns, all device work of the frame has finished (host wall time is frame time).
  virtual FlowField compute(const Image& i0, const Image& i1) = 0;
  /// As compute(), into the caller's `flow` (resized to the frames' size; a solver that keeps
  /// its buffers, as the CUDA frame solver, then writes into flow's storage without
  /// allocating when flow already has that size). Default: flow = compute(i0, i1).
  virtual void compute_into(const Image& i0, const Image& i1, FlowField& flow) {
    flow = compute(i0, i1);
  }
  /// compute() starting from init_flow (i0's size, pixels; e.g. the previous pair's flow in a
  /// video) instead of 0 (tvl1_multiscale's init_flow). The default throws
  /// std::invalid_argument: a solver that supports it overrides this.
  virtual FlowField compute_from(const Image& i0, const Image& i1, const FlowField& init_flow) {
    (void)i0;
    (void)i1;
    (void)init_flow;
    throw std::invalid_argument("this TV-L1 solver does not take an initial flow");
  }
  /// As compute_from(), into the caller's `flow` (resized to the frames' size; a solver that
  /// keeps its buffers writes into flow's storage without allocating when flow has that size).
  /// Default: flow = compute_from(i0, i1, init_flow).
  virtual void compute_from_into(const Image& i0, const Image& i1, const FlowField& init_flow,
                                 FlowField& flow) {
    flow = compute_from(i0, i1, init_flow);
  }
  /// Keeps host bytes [p, p + bytes) (the caller's frames or flow) page-locked while the
  /// returned handle lives, so that compute_into moves them by DMA without staging copies (the
  /// CUDA frame solver: cuda::lock_pages, counted per range across the process). nullptr, the
  /// default, for a solver without a device or when locking fails: compute_into computes the
  /// same flow either way, only the host copies differ. The caller keeps the memory allocated
  /// while the handle lives.
  virtual std::shared_ptr<void> page_lock(const void* p, std::size_t bytes) {
    (void)p;
    (void)bytes;
    return nullptr;
  }
};

/// The values one tunable may take.
struct TunableDomain {
  std::string name;
  std::vector<int> values;
  /// The values a search enumerates (tuner/space.cpp) and `tune flow` tries first when the
  /// command line gives none for this tunable, a subset of `values` (e.g. threads: all the
  /// CPUs). Empty: every value is searched, and `tune flow` starts from the middle one.
  std::vector<int> default_values = {};
  /// A categorical tunable's names of its values, choices[i] naming values[i] (e.g.
  /// simd_target: "best", "AVX2", ...; the command line accepts either); empty for numbers.
  std::vector<std::string> choices = {};
};

/// Per-kernel resource usage of one build (ptxas report / cuFuncGetAttribute), the input of
/// the occupancy model. Sizes in bytes.
struct KernelResources {
  std::string kernel;
  int threads_per_block = 0;
  int registers_per_thread = 0;
  int static_shared_bytes = 0;
  int dynamic_shared_bytes = 0;
  int local_bytes = 0;     ///< stack frame per thread
  int spill_bytes = 0;     ///< spill stores + loads per thread
  bool estimated = false;  ///< true when built for a stand-in arch (see the adaptor's fallback)
  std::string built_for;   ///< arch actually compiled for, e.g. "sm_90"
  /// true when read from the committed table of NVRTC reports (variants/cuda/resource_table.hpp)
  /// rather than from a build here
  bool from_table = false;
};

/// An implementation scheme (ARCHITECTURE.md: `variant`) of one workload.
class Variant {
 public:
  virtual ~Variant() = default;
  virtual std::string name() const = 0;
  /// The workload it implements, e.g. "tvl1", "apsp".
  virtual std::string workload() const = 0;
  /// "cpu" (host, Kokkos Serial) or "cuda".
  virtual std::string target() const = 0;
  virtual std::vector<std::string> precisions() const = 0;
  /// The precisions a search enumerates when the command line names none (tuner/space.cpp),
  /// a subset of precisions(): e.g. simd_fused leaves out f16 where the CPU has no binary16
  /// arithmetic (emulated there: runnable with --precision f16, not a point worth timing).
  virtual std::vector<std::string> default_precisions() const { return precisions(); }
  virtual std::vector<TunableDomain> tunables() const = 0;
  /// The variant's own validity rule for a config, independent of any board (e.g. a tile
  /// larger than allowed); nullopt when valid, else a human-readable reason.
  virtual std::optional<std::string> invalid_reason(const Config& config) const {
    (void)config;
    return std::nullopt;
  }
  /// True when invalid_reason() and resources() read only the config's precision and tunables
  /// (not its parameters nor its clock): the constraint checks of configs that differ only in
  /// parameters are then computed once per kernel config (tuner/constraint_checks.hpp). False
  /// (the safe default) checks every config on its own.
  virtual bool checks_ignore_params() const { return false; }
  /// Resource usage of every kernel of config when built for arch (e.g. "sm_90", "sm_72"),
  /// for the occupancy model; empty for host variants. Throws std::runtime_error when the
  /// build fails. For an arch the compiler cannot target, the adaptor documents its fallback
  /// and sets `estimated` in the result.
  virtual std::vector<KernelResources> resources(const Config& config,
                                                 const std::string& arch) const {
    (void)config;
    (void)arch;
    return {};
  }
  /// The version of the run-time compiler that builds this variant's kernels, e.g. "12.6" for
  /// NVRTC 12.6 (a kernel cache entry holds only that version's builds); empty for variants
  /// without one (host code, the default). Throws std::runtime_error when the compiler cannot
  /// be loaded.
  virtual std::string compiler_version() const { return {}; }
  /// Builds, into the kernel cache (variants/kernel_binary_cache.hpp), every kernel that a run
  /// of config on a board of arch compiles: its constraint check's (resources()) and those its
  /// solver adds. Needs no GPU. The prebuilt kernel cache is made of these
  /// (tuner/kernel_prebuild.hpp). Default: resources(config, arch). Throws what resources()
  /// throws.
  virtual void build_kernels(const Config& config, const std::string& arch) const {
    (void)resources(config, arch);
  }
  /// resources(config, arch) read from a committed table of resource reports instead of a
  /// build (each result has from_table set), or nullopt when the table lacks one of config's
  /// kernels for arch (then resources() builds) or the variant has no table (the default).
  /// Throws std::invalid_argument for an invalid config, as resources() does.
  virtual std::optional<std::vector<KernelResources>> table_resources(
      const Config& config, const std::string& arch) const {
    (void)config;
    (void)arch;
    return std::nullopt;
  }
};

/// A TV-L1 variant: builds a FlowSolver (one frame pair -> flow).
class FlowVariant : public Variant {
 public:
  std::string workload() const override { return "tvl1"; }
  /// Builds a solver for config; throws std::runtime_error when the build fails.
  virtual std::unique_ptr<FlowSolver> make_solver(const Config& config) const = 0;
  /// True when its solvers implement FlowSolver::compute_from (a start from an initial flow),
  /// which the warm_start parameter needs.
  virtual bool takes_initial_flow() const { return false; }
};

/// Every variant of every workload compiled into this binary (each registered by its own
/// file with FLOWTUNE_REGISTER_VARIANTS), in listing order: by listing rank, then by position
/// within its registration, then by name. Names are unique across workloads.
const std::vector<const Variant*>& all_variants();
/// The variant called name, or nullptr.
const Variant* find_variant(const std::string& name);
/// The TV-L1 variant called name, or nullptr (also when name is another workload's).
const FlowVariant* find_flow_variant(const std::string& name);

/// Adds `variants` (process-wide objects, never destroyed before exit) to all_variants().
/// listing_rank places them in every listing (all_variants(), a workload's variants(), `tune
/// space`, `tune --help`): lower ranks first, equal ranks by position in `variants`, then by
/// name. Each workload's variants use their own range of ranks (tvl1 100-199, apsp 200-299,
/// the local flow workloads 300-399); a new workload takes an unused range. Returns false and
/// adds nothing when a variant of one of these names is registered already. Usually called
/// through FLOWTUNE_REGISTER_VARIANTS from a static initialiser.
bool register_variants(int listing_rank, const std::vector<const Variant*>& variants);

/// Registers variants when constructed: the static object FLOWTUNE_REGISTER_VARIANTS defines.
class VariantRegistrar {
 public:
  /// Calls register_variants(listing_rank, variants).
  VariantRegistrar(int listing_rank, const std::vector<const Variant*>& variants) {
    register_variants(listing_rank, variants);
  }
};

}  // namespace flowtune

/// Pastes two tokens after expanding them (for names made unique with __LINE__).
#define FLOWTUNE_CONCAT_INNER_(a, b) a##b
#define FLOWTUNE_CONCAT_(a, b) FLOWTUNE_CONCAT_INNER_(a, b)

/// Registers variants from the .cpp file that defines them, at static initialisation, e.g.
///   FLOWTUNE_REGISTER_VARIANTS(200, &fw_cpu_variant(), &dijkstra_cpu_variant());
/// (listing rank, then the variants in listing order; see register_variants). Use it at
/// namespace scope of a .cpp compiled into a library that CMake links whole-archive
/// (cmake/FlowtuneRegistration.cmake), so that the linker keeps the registration.
#define FLOWTUNE_REGISTER_VARIANTS(listing_rank, ...)         \
  static const ::flowtune::VariantRegistrar FLOWTUNE_CONCAT_( \
      flowtune_variant_registrar_, __LINE__)(listing_rank,    \
                                             std::vector<const ::flowtune::Variant*>{__VA_ARGS__})
