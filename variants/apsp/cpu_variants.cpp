// The host APSP variants: fw_cpu (blocked Floyd-Warshall, Marras et al. sec. 4.1 on the CPU,
// tunable tile) and dijkstra_cpu (single-thread repeated Dijkstra, the CPU baseline of
// sec. 5.2, fig. 7; no tunables).
#include <memory>
#include <stdexcept>

#include "kernels/apsp/dijkstra.hpp"
#include "kernels/apsp/floyd_warshall.hpp"
#include "variants/apsp/apsp_variant.hpp"

namespace flowtune {
namespace {

class FwCpuSolver : public ApspSolver {
 public:
  explicit FwCpuSolver(int tile) : tile_(tile) {}
  apsp::DistMatrix solve(const apsp::Graph& g) override {
    return apsp::floyd_warshall_blocked(g.weights, tile_);
  }

 private:
  int tile_;
};

class FwCpuVariant : public ApspVariant {
 public:
  std::string name() const override { return "fw_cpu"; }
  std::string target() const override { return "cpu"; }
  std::vector<TunableDomain> tunables() const override {
    return {{"tile", {16, 32, 64, 128, 256}}};
  }
  std::unique_ptr<ApspSolver> make_solver(const Config& config) const override {
    if (auto why = invalid_reason(config)) throw std::invalid_argument(*why);
    return std::make_unique<FwCpuSolver>(config.tunable("tile"));
  }
};

class DijkstraCpuSolver : public ApspSolver {
 public:
  apsp::DistMatrix solve(const apsp::Graph& g) override {
    return apsp::repeated_dijkstra(g.weights);
  }
};

class DijkstraCpuVariant : public ApspVariant {
 public:
  std::string name() const override { return "dijkstra_cpu"; }
  std::string target() const override { return "cpu"; }
  std::vector<TunableDomain> tunables() const override { return {}; }
  std::unique_ptr<ApspSolver> make_solver(const Config& config) const override {
    if (auto why = invalid_reason(config)) throw std::invalid_argument(*why);
    return std::make_unique<DijkstraCpuSolver>();
  }
};

}  // namespace

const ApspVariant& fw_cpu_variant() {
  static const FwCpuVariant v;
  return v;
}

const ApspVariant& dijkstra_cpu_variant() {
  static const DijkstraCpuVariant v;
  return v;
}

// The APSP variants take ranks 200-299: the host ones first.
FLOWTUNE_REGISTER_VARIANTS(200, &fw_cpu_variant(), &dijkstra_cpu_variant());

}  // namespace flowtune
