// The variants of the local optical-flow workloads "bm" (pyramidal block matching, Marras et
// al. sec. 3.2), "lk" (pyramidal dense Lucas-Kanade, sec. 3.3) and "features" (dense flow
// from tracked features, Kim, Hwangbo and Kanade sec. 4): the adaptor interface
// (LocalFlowVariant builds a FlowSolver for a config), the parameter conversions and the
// group of adaptors (localflow_variants(): those of the registry, each registered by its own
// file).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernels/localflow/block_matching.hpp"
#include "kernels/localflow/features.hpp"
#include "kernels/localflow/lucas_kanade.hpp"
#include "variants/variant.hpp"

namespace flowtune {

/// The default precision of the local flow variants: float arithmetic and storage (lk also
/// has "f16": binary16 storage of its planes, LkStorage).
inline const char* const kLocalFlowPrecision = "f32";

/// A variant of workload "bm", "lk" or "features": precision f32 (unless the variant says
/// more), integer tunables.
class LocalFlowVariant : public Variant {
 public:
  std::vector<std::string> precisions() const override { return {kLocalFlowPrecision}; }
  /// The precisions a solver can be built for: precisions() (the space), and possibly more
  /// (lk_cpu builds f16 as the reference of lk_cuda f16 without offering it to the tuner).
  virtual std::vector<std::string> accepted_precisions() const { return precisions(); }
  /// Common rules (workload, a precision of accepted_precisions(), exactly the tunables of
  /// tunables(), each >= 0), then the variant's own (rule_invalid_reason).
  std::optional<std::string> invalid_reason(const Config& config) const override;
  /// Builds a solver; throws std::invalid_argument for an invalid config (or parameters),
  /// std::runtime_error when the build fails (no GPU, NVRTC error).
  virtual std::unique_ptr<FlowSolver> make_solver(const Config& config) const = 0;

 protected:
  virtual std::optional<std::string> rule_invalid_reason(const Config& config) const {
    (void)config;
    return std::nullopt;
  }
};

/// A solver of the "features" workload (Kim et al.): the flow, and how many pixels of the last
/// frame failed the change test.
class FeatureSolver : public FlowSolver {
 public:
  /// Fraction of the last compute()'s pixels whose flow failed the change test, in [0, 1].
  virtual double last_unclassified_fraction() const = 0;
};

/// BmParams from a config's parameters levels, block, radius, similarity, subpixel (throws
/// std::out_of_range naming a missing one; non-integers are truncated by the schema check
/// before this is called).
localflow::BmParams bm_params_of(const Config& config);
/// LkParams from levels, window, iterations, weighting.
localflow::LkParams lk_params_of(const Config& config);
/// The storage of config's precision: "f16" -> f16, else f32.
localflow::LkStorage lk_storage_of(const Config& config);
/// FeatParams from method, features, sigma_space, sigma_color, sigma_flow, grid_step,
/// hypotheses, change_threshold.
localflow::FeatParams feat_params_of(const Config& config);

/// Every local flow variant in this binary, in listing order (the LocalFlowVariants of
/// all_variants()): bm_cpu, lk_cpu, feat_cpu, bm_simd, lk_simd; with CUDA bm_cuda, lk_cuda,
/// feat_cuda.
std::vector<const Variant*> localflow_variants();
/// The local flow variant called name, or nullptr (also when it is another workload's).
const LocalFlowVariant* find_localflow_variant(const std::string& name);

/// The host adaptors (cpu_variants.cpp): the references themselves, no tunables.
const LocalFlowVariant& bm_cpu_variant();
const LocalFlowVariant& lk_cpu_variant();
/// Its solver is a FeatureSolver.
const LocalFlowVariant& feat_cpu_variant();

/// The SIMD host adaptors (simd_variants.cpp): block_matching_simd and lucas_kanade_simd
/// (kernels/simd/localflow_simd.hpp; precision f32), the flows of bm_cpu and lk_cpu bit for
/// bit. Tunable `threads` (host_thread_counts(), searched and defaulted at all the CPUs;
/// more than the CPUs is pruned with the reason).
const LocalFlowVariant& bm_simd_variant();
const LocalFlowVariant& lk_simd_variant();

}  // namespace flowtune
