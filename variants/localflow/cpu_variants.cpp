// The host variants of the local flow workloads: bm_cpu, lk_cpu and feat_cpu run the CPU
// references (kernels/localflow/), single thread, no tunables.
#include <stdexcept>

#include "variants/localflow/localflow_variant.hpp"

namespace flowtune {
namespace {

class BmCpuSolver : public FlowSolver {
 public:
  explicit BmCpuSolver(const localflow::BmParams& p) : p_(p) {}
  FlowField compute(const Image& i0, const Image& i1) override {
    return localflow::block_matching(i0, i1, p_);
  }

 private:
  localflow::BmParams p_;
};

class LkCpuSolver : public FlowSolver {
 public:
  LkCpuSolver(const localflow::LkParams& p, localflow::LkStorage s) : p_(p), storage_(s) {}
  FlowField compute(const Image& i0, const Image& i1) override {
    return localflow::lucas_kanade(i0, i1, p_, storage_);
  }

 private:
  localflow::LkParams p_;
  localflow::LkStorage storage_;
};

class FeatCpuSolver : public FeatureSolver {
 public:
  explicit FeatCpuSolver(const localflow::FeatParams& p) : p_(p) {}
  FlowField compute(const Image& i0, const Image& i1) override {
    localflow::FeatureFlow r = localflow::feature_flow(i0, i1, p_);
    unclassified_ = r.flow.size() ? double(r.unclassified) / double(r.flow.size()) : 0;
    return std::move(r.flow);
  }
  double last_unclassified_fraction() const override { return unclassified_; }

 private:
  localflow::FeatParams p_;
  double unclassified_ = 0;
};

class FeatCpuVariant : public LocalFlowVariant {
 public:
  std::string name() const override { return "feat_cpu"; }
  std::string workload() const override { return "features"; }
  std::string target() const override { return "cpu"; }
  std::vector<TunableDomain> tunables() const override { return {}; }
  std::unique_ptr<FlowSolver> make_solver(const Config& config) const override {
    if (auto why = invalid_reason(config)) throw std::invalid_argument(*why);
    const localflow::FeatParams p = feat_params_of(config);
    if (auto why = localflow::feat_params_invalid_reason(p))
      throw std::invalid_argument(name() + ": " + *why);
    return std::make_unique<FeatCpuSolver>(p);
  }
};

class BmCpuVariant : public LocalFlowVariant {
 public:
  std::string name() const override { return "bm_cpu"; }
  std::string workload() const override { return "bm"; }
  std::string target() const override { return "cpu"; }
  std::vector<TunableDomain> tunables() const override { return {}; }
  std::unique_ptr<FlowSolver> make_solver(const Config& config) const override {
    if (auto why = invalid_reason(config)) throw std::invalid_argument(*why);
    const localflow::BmParams p = bm_params_of(config);
    if (auto why = localflow::bm_params_invalid_reason(p))
      throw std::invalid_argument(name() + ": " + *why);
    return std::make_unique<BmCpuSolver>(p);
  }
};

class LkCpuVariant : public LocalFlowVariant {
 public:
  std::string name() const override { return "lk_cpu"; }
  std::string workload() const override { return "lk"; }
  std::string target() const override { return "cpu"; }
  /// f32 in the space; f16 (binary16 planes, no faster on a CPU) builds as the reference of
  /// lk_cuda f16.
  std::vector<std::string> accepted_precisions() const override { return {"f32", "f16"}; }
  std::vector<TunableDomain> tunables() const override { return {}; }
  std::unique_ptr<FlowSolver> make_solver(const Config& config) const override {
    if (auto why = invalid_reason(config)) throw std::invalid_argument(*why);
    const localflow::LkParams p = lk_params_of(config);
    if (auto why = localflow::lk_params_invalid_reason(p))
      throw std::invalid_argument(name() + ": " + *why);
    return std::make_unique<LkCpuSolver>(p, lk_storage_of(config));
  }
};

}  // namespace

const LocalFlowVariant& bm_cpu_variant() {
  static const BmCpuVariant v;
  return v;
}

const LocalFlowVariant& lk_cpu_variant() {
  static const LkCpuVariant v;
  return v;
}

const LocalFlowVariant& feat_cpu_variant() {
  static const FeatCpuVariant v;
  return v;
}

// The local flow variants take ranks 300-399: the host ones first.
FLOWTUNE_REGISTER_VARIANTS(300, &bm_cpu_variant(), &lk_cpu_variant(), &feat_cpu_variant());

}  // namespace flowtune
