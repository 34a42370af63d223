// The TV-L1 workload's runner (see flow_runner.hpp).
#include "workloads/tvl1/flow_runner.hpp"

#include <cstddef>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernels/metrics.hpp"
#include "workloads/tvl1/flow_output_pictures.hpp"

namespace flowtune {
namespace {

/// See make_flow_runner.
class FlowRunner final : public Runner {
 public:
  FlowRunner(std::unique_ptr<FlowSolver> solver, const SequenceSet& inputs)
      : solver_(std::move(solver)),
        inputs_(inputs),
        last_(inputs.size()),
        locks_(inputs.size()),
        ran_(inputs.size(), 0) {}
  void run(std::size_t item) override {
    const Sequence& s = inputs_.sequence(item);
    // Into the item's kept flow: after its first run no allocation (and no page faults)
    // inside the timed call.
    FlowField& flow = last_.at(item);
    if (locks_.at(item).empty()) lock_item(s, flow, locks_[item]);
    ran_.at(item) = 0;
    solver_->compute_into(s.i0, s.i1, flow);
    ran_[item] = 1;
  }
  std::map<std::string, double> score(std::size_t item) override {
    const Sequence& s = inputs_.sequence(item);
    if (!ran_.at(item)) throw std::logic_error("score before a completed run on " + s.name);
    FlowError e{};
    try {
      e = flow_error(last_[item], s.ground_truth);
    } catch (const std::invalid_argument& err) {
      throw CheckFailed(s.name + ": " + err.what());
    }
    return {{"aepe", e.aepe}, {"aae_deg", e.aae_deg}};
  }

  std::vector<OutputPicture> pictures(std::size_t item, int max_side) override {
    const Sequence& s = inputs_.sequence(item);
    if (!ran_.at(item)) return {};
    return flow_output_pictures(last_[item], s.ground_truth, max_side);
  }

 private:
  /// The item's frames and its flow (sized first, so that compute_into keeps its storage)
  /// page-locked for a solver with a device (FlowSolver::page_lock): its host API then moves
  /// them by DMA, and the time measured is a frame of a caller whose buffers are page-locked,
  /// as a camera pipeline capturing into page-locked memory. CPU solvers lock nothing.
  void lock_item(const Sequence& s, FlowField& flow, std::vector<std::shared_ptr<void>>& locks) {
    const std::size_t n = s.i0.size(), bytes = n * sizeof(float);
    flow.width = s.i0.width;
    flow.height = s.i0.height;
    flow.u.resize(n);
    flow.v.resize(n);
    locks = {solver_->page_lock(s.i0.data.data(), bytes),
             solver_->page_lock(s.i1.data.data(), bytes), solver_->page_lock(flow.u.data(), bytes),
             solver_->page_lock(flow.v.data(), bytes)};
  }

  std::unique_ptr<FlowSolver> solver_;
  const SequenceSet& inputs_;
  std::vector<FlowField> last_;
  std::vector<std::vector<std::shared_ptr<void>>> locks_;  ///< per item, after its first run
  std::vector<char> ran_;  ///< per item: its last run completed (its flow is a result)
};

}  // namespace

std::unique_ptr<Runner> make_flow_runner(std::unique_ptr<FlowSolver> solver,
                                         const SequenceSet& inputs) {
  return std::make_unique<FlowRunner>(std::move(solver), inputs);
}

}  // namespace flowtune
