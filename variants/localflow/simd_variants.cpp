// The SIMD host variants of the local flow workloads: bm_simd and lk_simd run
// kernels/simd/localflow_simd.hpp (Google Highway SIMD, OpenMP threads), the scalar
// references' flows bit for bit. Tunables: threads, simd_target
// (variants/simd/simd_target_tunable.hpp).
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/simd/host_cpu.hpp"
#include "kernels/simd/localflow_simd.hpp"
#include "variants/localflow/localflow_variant.hpp"
#include "variants/simd/simd_target_tunable.hpp"

namespace flowtune {
namespace {

/// The threads tunable: host_thread_counts() (powers of two up to the CPUs this process may
/// run on, and that count), searched and defaulted at all the CPUs, as simd_fused's.
TunableDomain threads_domain() {
  const std::vector<int> threads = host_thread_counts();
  return {"threads", threads, {threads.back()}};
}

/// Why a threads value is pruned: < 1, or more than the CPUs (oversubscribed threads only
/// time-share the CPUs and wait for each other at every level's end).
std::optional<std::string> threads_reason(const std::string& who, const Config& config) {
  const int threads = config.tunable("threads");
  const int cpus = host_cpu().cpus;
  if (threads < 1) return who + ": threads=" + std::to_string(threads) + " < 1";
  if (threads > cpus)
    return who + ": threads=" + std::to_string(threads) + " exceeds the " + std::to_string(cpus) +
           " CPUs this process may run on (sched_getaffinity)";
  return simd_target_tunable_reason(who, config);
}

class BmSimdSolver : public FlowSolver {
 public:
  BmSimdSolver(const localflow::BmParams& p, int threads, std::int64_t target)
      : p_(p), threads_(threads), target_(target) {}
  FlowField compute(const Image& i0, const Image& i1) override {
    return block_matching_simd(i0, i1, p_, threads_, target_);
  }

 private:
  localflow::BmParams p_;
  int threads_;
  std::int64_t target_;
};

class LkSimdSolver : public FlowSolver {
 public:
  LkSimdSolver(const localflow::LkParams& p, int threads, std::int64_t target)
      : p_(p), threads_(threads), target_(target) {}
  FlowField compute(const Image& i0, const Image& i1) override {
    return lucas_kanade_simd(i0, i1, p_, threads_, target_);
  }

 private:
  localflow::LkParams p_;
  int threads_;
  std::int64_t target_;
};

class BmSimdVariant : public LocalFlowVariant {
 public:
  std::string name() const override { return "bm_simd"; }
  std::string workload() const override { return "bm"; }
  std::string target() const override { return "cpu"; }
  std::vector<TunableDomain> tunables() const override {
    return {threads_domain(), simd_target_domain()};
  }
  std::unique_ptr<FlowSolver> make_solver(const Config& config) const override {
    if (auto why = invalid_reason(config)) throw std::invalid_argument(*why);
    const localflow::BmParams p = bm_params_of(config);
    if (auto why = localflow::bm_params_invalid_reason(p))
      throw std::invalid_argument(name() + ": " + *why);
    return std::make_unique<BmSimdSolver>(p, config.tunable("threads"),
                                          simd_target_bit(simd_target_code_of(config)));
  }

 protected:
  std::optional<std::string> rule_invalid_reason(const Config& config) const override {
    return threads_reason(name(), config);
  }
};

class LkSimdVariant : public LocalFlowVariant {
 public:
  std::string name() const override { return "lk_simd"; }
  std::string workload() const override { return "lk"; }
  std::string target() const override { return "cpu"; }
  std::vector<TunableDomain> tunables() const override {
    return {threads_domain(), simd_target_domain()};
  }
  std::unique_ptr<FlowSolver> make_solver(const Config& config) const override {
    if (auto why = invalid_reason(config)) throw std::invalid_argument(*why);
    const localflow::LkParams p = lk_params_of(config);
    if (auto why = localflow::lk_params_invalid_reason(p))
      throw std::invalid_argument(name() + ": " + *why);
    return std::make_unique<LkSimdSolver>(p, config.tunable("threads"),
                                          simd_target_bit(simd_target_code_of(config)));
  }

 protected:
  std::optional<std::string> rule_invalid_reason(const Config& config) const override {
    return threads_reason(name(), config);
  }
};

}  // namespace

const LocalFlowVariant& bm_simd_variant() {
  static const BmSimdVariant v;
  return v;
}

const LocalFlowVariant& lk_simd_variant() {
  static const LkSimdVariant v;
  return v;
}

// After the scalar host variants (300), before the CUDA ones.
FLOWTUNE_REGISTER_VARIANTS(305, &bm_simd_variant(), &lk_simd_variant());

}  // namespace flowtune
