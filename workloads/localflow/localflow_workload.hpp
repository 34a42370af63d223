// The local optical-flow workloads of Marras et al. ("Two examples of GPGPU acceleration of
// memory-intensive algorithms"): "bm", pyramidal block matching (sec. 3.2), and "lk",
// pyramidal dense Lucas-Kanade (sec. 3.3, Bouguet's iterative refinement); and "features",
// dense flow from tracked features (Kim, Hwangbo and Kanade, sec. 4). All measure on the
// Middlebury sequences with the TV-L1 workload's loader, dataset keys and metric names (aepe,
// aae_deg), so the algorithms share datasets and a cross-algorithm front.
#pragma once

#include <memory>
#include <stdexcept>  // workload.hpp uses std::runtime_error without including it
#include <string>
#include <vector>

#include "variants/localflow/localflow_variant.hpp"
#include "workloads/workload.hpp"

namespace flowtune {

/// The workload "bm": work unit "px", parameters levels, block, radius, similarity (0 NCC,
/// 1 SAD, 2 SSD), subpixel (bm_param_specs), metrics aepe (px) and aae_deg (deg), front
/// (time_ms, aepe), variants bm_cpu and (CUDA) bm_cuda.
const Workload& bm_workload();
/// The workload "lk": parameters levels, window, iterations, weighting (0 box, 1 Gaussian)
/// (lk_param_specs); otherwise as bm_workload; variants lk_cpu and (CUDA) lk_cuda.
const Workload& lk_workload();
/// The workload "features" (Kim, Hwangbo and Kanade sec. 4): parameters feat_param_specs,
/// metrics aepe, aae_deg and unclassified (fraction of pixels failing the change test),
/// front (time_ms, aepe), variants feat_cpu and (CUDA) feat_cuda.
const Workload& features_workload();

const std::vector<ParamSpec>& bm_param_specs();
const std::vector<ParamSpec>& lk_param_specs();
const std::vector<ParamSpec>& feat_param_specs();

/// What the two workloads share (localflow_common.cpp): the optical-flow metrics, the
/// Middlebury input set, a runner over a FlowSolver and `tune run` on two PNG frames.
namespace localflow_common {
const std::vector<MetricSpec>& metrics();
std::unique_ptr<InputSet> load_inputs(const InputOptions& options);
/// Throws std::invalid_argument when inputs do not come from load_inputs.
std::unique_ptr<Runner> make_runner(std::unique_ptr<FlowSolver> solver, const InputSet& inputs);
std::string run_on_files(FlowSolver& solver, const Config& config, const Workload::FileRun& run);
/// The variant of `workload` called config.variant; throws std::invalid_argument listing
/// the valid names.
const LocalFlowVariant& variant_of(const Workload& workload, const Config& config);
}  // namespace localflow_common

/// The part of the Workload interface the three local-flow workloads share: work unit "px",
/// the optical-flow metrics, front (time_ms, aepe), their variants (localflow_variants() of
/// this workload's name), the Middlebury inputs, a runner over the variant's FlowSolver and
/// `tune run` on two PNG frames (localflow_common). Each workload adds its name,
/// description, parameters, default dimensions, cost model and parameter rule.
class LocalFlowWorkload : public Workload {
 public:
  std::string work_unit() const override { return "px"; }
  const std::vector<MetricSpec>& metrics() const override { return localflow_common::metrics(); }
  std::vector<std::string> front_objectives() const override { return {"time_ms", "aepe"}; }
  std::vector<const Variant*> variants() const override;
  std::unique_ptr<InputSet> load_inputs(const InputOptions& o) const override {
    return localflow_common::load_inputs(o);
  }
  std::unique_ptr<Runner> make_runner(const Config& config, const InputSet& inputs) const override;
  std::string run_on_files(const Config& config, const FileRun& run) const override;
};

}  // namespace flowtune
