// The variant adaptor interface: each implementation scheme of a workload is one small
// adaptor that names its tunables, states its own constraints and builds a solver for a
// config (FlowVariant for TV-L1; other workloads derive their own solver interface).
#pragma once

#include <memory>
#include <optional>
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
};

/// The values one tunable may take.
struct TunableDomain {
  std::string name;
  std::vector<int> values;
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
};

/// An implementation scheme (DESIGN.md: `variant`) of one workload.
class Variant {
 public:
  virtual ~Variant() = default;
  virtual std::string name() const = 0;
  /// The workload it implements, e.g. "tvl1", "apsp".
  virtual std::string workload() const = 0;
  /// "cpu" (host, Kokkos Serial) or "cuda".
  virtual std::string target() const = 0;
  virtual std::vector<std::string> precisions() const = 0;
  virtual std::vector<TunableDomain> tunables() const = 0;
  /// The variant's own validity rule for a config, independent of any board (e.g. a tile
  /// larger than allowed); nullopt when valid, else a human-readable reason.
  virtual std::optional<std::string> invalid_reason(const Config& config) const {
    (void)config;
    return std::nullopt;
  }
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
};

/// A TV-L1 variant: builds a FlowSolver (one frame pair -> flow).
class FlowVariant : public Variant {
 public:
  std::string workload() const override { return "tvl1"; }
  /// Builds a solver for config; throws std::runtime_error when the build fails.
  virtual std::unique_ptr<FlowSolver> make_solver(const Config& config) const = 0;
};

/// Every variant of every workload compiled into this binary (kokkos_* always; CUDA ones
/// when built with CUDA). Names are unique across workloads.
const std::vector<const Variant*>& all_variants();
/// The variant called name, or nullptr.
const Variant* find_variant(const std::string& name);
/// The TV-L1 variant called name, or nullptr (also when name is another workload's).
const FlowVariant* find_flow_variant(const std::string& name);

}  // namespace flowtune
