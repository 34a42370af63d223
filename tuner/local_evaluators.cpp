// The synchronous evaluators (tuner/evaluator.hpp): in this process, or in a worker process.
#include <deque>

#include "boards/gpu_clocks.hpp"
#include "select/config_rows.hpp"
#include "tuner/evaluator.hpp"

namespace flowtune {
namespace {

// The outcome of measure_config's result for evaluation e on board.
EvaluationOutcome outcome_of(const Evaluation& e, MeasureResult r, const EvaluationContext& c) {
  const Board& board = c.board;
  EvaluationOutcome o;
  o.point = e.point;
  o.fidelity = e.fidelity;
  o.dataset = c.fidelities.at(e.fidelity).dataset;
  o.config = e.config;
  if (r.cancelled) {
    o.kind = EvaluationOutcome::Kind::cancelled;
  } else if (r.ok) {
    o.kind = EvaluationOutcome::Kind::measured;
    o.measurement = std::move(r.measurement);
    o.measurement.clock_mhz_observed = observed_gpu_clock_mhz(board);
    o.measurement.resources_json = e.resources_json;
    o.measurement.dataset = o.dataset;
  } else {
    o.kind = EvaluationOutcome::Kind::failed;
    o.failure_class = r.failure_class;
    o.message = r.message;
  }
  return o;
}

// Measures one point per collect() call, in submission order.
class SynchronousEvaluator : public Evaluator {
 public:
  explicit SynchronousEvaluator(EvaluationContext context) : context_(std::move(context)) {}
  std::size_t capacity() const override { return 1; }
  std::size_t in_flight() const override { return queue_.size(); }
  void submit(const Evaluation& evaluation) override { queue_.push_back(evaluation); }
  std::vector<EvaluationOutcome> collect(const std::function<bool()>& stop) override {
    if (queue_.empty() || stop()) return {};
    const Evaluation e = queue_.front();
    queue_.pop_front();
    const ClockGuard clock_guard(context_.board, e.config.clock_mhz, context_.allow_clock_control);
    return {outcome_of(e, measure(e, stop), context_)};
  }

 protected:
  virtual MeasureResult measure(const Evaluation& e, const std::function<bool()>& stop) = 0;
  EvaluationContext context_;

 private:
  std::deque<Evaluation> queue_;
};

class InProcessEvaluator final : public SynchronousEvaluator {
 public:
  InProcessEvaluator(EvaluationContext context, std::vector<const InputSet*> inputs,
                     EnergySensor* sensor)
      : SynchronousEvaluator(std::move(context)), inputs_(std::move(inputs)), sensor_(sensor) {}

 private:
  MeasureResult measure(const Evaluation& e, const std::function<bool()>&) override {
    return measure_config(find_workload(e.config.workload), e.config, *inputs_.at(e.fidelity),
                          sensor_, context_.fidelities.at(e.fidelity).measure);
  }
  std::vector<const InputSet*> inputs_;
  EnergySensor* sensor_;
};

class WorkerProcessEvaluator final : public SynchronousEvaluator {
 public:
  using SynchronousEvaluator::SynchronousEvaluator;
  KernelBuildCounts kernel_builds() const override { return worker_.kernel_builds(); }

 private:
  MeasureResult measure(const Evaluation& e, const std::function<bool()>& stop) override {
    const Fidelity& f = context_.fidelities.at(e.fidelity);
    return worker_.measure({context_.board.name, e.config, f.inputs, f.measure},
                           context_.config_timeout_s, stop);
  }
  WorkerProcess worker_;
};

}  // namespace

std::unique_ptr<Evaluator> make_in_process_evaluator(const EvaluationContext& context,
                                                     std::vector<const InputSet*> inputs,
                                                     EnergySensor* sensor) {
  return std::make_unique<InProcessEvaluator>(context, std::move(inputs), sensor);
}

std::unique_ptr<Evaluator> make_worker_process_evaluator(const EvaluationContext& context) {
  return std::make_unique<WorkerProcessEvaluator>(context);
}

}  // namespace flowtune
