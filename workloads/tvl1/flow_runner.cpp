// The TV-L1 workload's runner (see flow_runner.hpp).
#include "workloads/tvl1/flow_runner.hpp"

#include <algorithm>
#include <cstddef>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernels/metrics.hpp"
#include "kernels/photometric.hpp"
#include "workloads/tvl1/flow_output_pictures.hpp"

namespace flowtune {
namespace {

/// See make_flow_runner.
class FlowRunner final : public Runner {
 public:
  FlowRunner(std::unique_ptr<FlowSolver> solver, const SequenceSet& inputs, bool warm_start)
      : solver_(std::move(solver)),
        inputs_(inputs),
        warm_start_(warm_start),
        out_(inputs.size()),
        ran_(inputs.size(), 0) {}
  ~FlowRunner() override {
    try {
      for (std::size_t item = 0; item < out_.size(); ++item)
        inputs_.keep_output(item, std::move(out_[item]));
    } catch (...) {  // no memory to keep them: the outputs are freed with the runner instead
    }
  }
  FlowRunner(const FlowRunner&) = delete;
  FlowRunner& operator=(const FlowRunner&) = delete;

  void run(std::size_t item) override {
    const Sequence& s = inputs_.sequence(item);
    // Into the item's kept flow: after its first run no allocation (and no page faults)
    // inside the timed call.
    if (!out_.at(item)) {
      out_[item] = inputs_.take_output(item);
      lock_item(s, *out_[item]);
    }
    ran_.at(item) = 0;
    const long prev = s.previous;
    if (warm_start_ && prev >= 0 && std::size_t(prev) < ran_.size() && ran_[std::size_t(prev)])
      warm_into(s, out_[std::size_t(prev)]->flow, out_[item]->flow);
    else
      solver_->compute_into(s.i0, s.i1, out_[item]->flow);
    ran_[item] = 1;
  }
  std::map<std::string, double> score(std::size_t item) override {
    const Sequence& s = inputs_.sequence(item);
    if (!ran_.at(item)) throw std::logic_error("score before a completed run on " + s.name);
    const FlowField& flow = out_[item]->flow;
    std::map<std::string, double> out;
    try {
      if (s.has_ground_truth()) {
        const FlowError e = flow_error(flow, s.ground_truth);
        out["aepe"] = e.aepe;
        out["aae_deg"] = e.aae_deg;
        if (s.benchmark == FlowBenchmark::kitti)
          out["fl_all"] = kitti_outlier_percent(flow, s.ground_truth);
        if (s.benchmark == FlowBenchmark::sintel && s.not_occluded.width > 0)
          out["epe_noc"] = masked_endpoint_error(flow, s.ground_truth, s.not_occluded).aepe;
      }
      if (s.has_reference()) {
        out["ref_aepe"] = flow_error(flow, s.reference).aepe;
        out["photometric"] = photometric_error(s.i0, s.i1, flow, s.visible).mean;
      }
    } catch (const std::invalid_argument& err) {
      throw CheckFailed(s.name + ": " + err.what());
    }
    if (out.empty())
      throw CheckFailed(s.name + ": neither a ground truth nor a reference flow to score against");
    return out;
  }

  std::vector<OutputPicture> pictures(std::size_t item, int max_side) override {
    const Sequence& s = inputs_.sequence(item);
    if (!ran_.at(item)) return {};
    if (s.has_ground_truth())
      return flow_output_pictures(out_[item]->flow, s.ground_truth, max_side);
    if (!s.has_reference()) return {};
    // Without ground truth: the flow and the reference flow, on the reference's colour scale.
    std::vector<OutputPicture> out = flow_output_pictures(out_[item]->flow, s.reference, max_side);
    for (OutputPicture& p : out)
      if (p.kind == "ground_truth") p.kind = "reference";
    out.erase(std::remove_if(out.begin(), out.end(),
                             [](const OutputPicture& p) { return p.kind == "endpoint_error"; }),
              out.end());
    return out;
  }

 private:
  /// The item's frames and its flow (sized first, so that compute_into keeps its storage)
  /// page-locked for a solver with a device (FlowSolver::page_lock): its host API then moves
  /// them by DMA, and the time measured is a frame of a caller whose buffers are page-locked,
  /// as a camera pipeline capturing into page-locked memory. CPU solvers lock nothing. An
  /// output kept by an earlier runner (SequenceSet::keep_output) is sized and keeps its locks:
  /// only a range still unlocked (an earlier solver without a device) is asked for again.
  void lock_item(const Sequence& s, KeptItemOutput& out) {
    const std::size_t n = s.i0.size(), bytes = n * sizeof(float);
    FlowField& flow = out.flow;
    if (out.locks.size() != 4 || flow.u.size() != n || flow.v.size() != n) {
      out.locks.clear();  // unlocks before the storage can move
      flow.width = s.i0.width;
      flow.height = s.i0.height;
      flow.u.resize(n);
      flow.v.resize(n);
      out.locks.resize(4);
    }
    const void* ranges[4] = {s.i0.data.data(), s.i1.data.data(), flow.u.data(), flow.v.data()};
    for (int k = 0; k < 4; ++k)
      if (!out.locks[std::size_t(k)])
        out.locks[std::size_t(k)] = solver_->page_lock(ranges[k], bytes);
  }

  /// The pair started from `init` (its predecessor's flow), into `flow`'s storage
  /// (compute_from_into: the page-locked planes stay).
  void warm_into(const Sequence& s, const FlowField& init, FlowField& flow) {
    solver_->compute_from_into(s.i0, s.i1, init, flow);
  }

  std::unique_ptr<FlowSolver> solver_;
  const SequenceSet& inputs_;
  bool warm_start_ = false;
  /// Per item from its first run: its output, taken from inputs_ and locked by this runner.
  std::vector<std::unique_ptr<KeptItemOutput>> out_;
  std::vector<char> ran_;  ///< per item: its last run completed (its flow is a result)
};

}  // namespace

std::unique_ptr<Runner> make_flow_runner(std::unique_ptr<FlowSolver> solver,
                                         const SequenceSet& inputs, bool warm_start) {
  return std::make_unique<FlowRunner>(std::move(solver), inputs, warm_start);
}

}  // namespace flowtune
