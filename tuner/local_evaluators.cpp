// The synchronous evaluators (tuner/evaluator.hpp): in this process, or in a worker process.
#include <chrono>
#include <deque>
#include <optional>

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
  o.phases = r.phases;
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

// Measures in a worker process, one point at a time, with up to kInPipe requests in the
// worker's pipe: the next point starts the moment the one before is answered, while the tuner
// records that answer and asks its strategy (its own work then costs the GPU nothing as long as
// it takes less than a point). submit() queues and sends; collect() waits for the oldest
// answer. With clock control each point is sent alone, under its clock guard.
class WorkerProcessEvaluator final : public Evaluator {
 public:
  explicit WorkerProcessEvaluator(EvaluationContext context) : context_(std::move(context)) {}
  std::size_t capacity() const override { return context_.allow_clock_control ? 1 : kInPipe + 1; }
  std::size_t in_flight() const override { return queue_.size(); }
  void submit(const Evaluation& evaluation) override {
    queue_.push_back(evaluation);
    if (!context_.allow_clock_control) send_queued();
  }
  std::vector<EvaluationOutcome> collect(const std::function<bool()>& stop) override {
    if (queue_.empty() || stop()) return {};
    if (context_.allow_clock_control) {
      const ClockGuard clock_guard(context_.board, queue_.front().config.clock_mhz, true);
      send_queued();
      return {finish(stop)};
    }
    send_queued();
    EvaluationOutcome o = finish(stop);
    if (!stop()) send_queued();  // a stop ends the run: no new worker for the queued points
    return {std::move(o)};
  }
  KernelBuildCounts kernel_builds() const override { return worker_.kernel_builds(); }

 private:
  static constexpr std::size_t kInPipe = 2;

  // Sends the queued points not yet sent, up to kInPipe in the worker's pipe (one with clock
  // control); a front that cannot be sent becomes its outcome.
  void send_queued() {
    const std::size_t limit = context_.allow_clock_control ? 1 : kInPipe;
    while (sent_ < queue_.size() && sent_ < limit && !failed_send_) {
      const Evaluation& e = queue_[sent_];
      const Fidelity& f = context_.fidelities.at(e.fidelity);
      WorkerResult failure;
      if (!worker_.send({context_.board.name, e.config, f.inputs, f.measure}, &failure)) {
        if (sent_ == 0) failed_send_ = std::move(failure);
        return;  // else the worker died: the front's answer tells, the rest go to a new one
      }
      ++sent_;
    }
  }
  EvaluationOutcome finish(const std::function<bool()>& stop) {
    const Evaluation e = queue_.front();
    queue_.pop_front();
    MeasureResult r;
    double busy_s = 0;
    if (failed_send_) {
      r = std::move(*failed_send_);
      failed_send_.reset();
    } else {
      r = worker_.receive(context_.config_timeout_s, stop);
      busy_s = worker_.last_wait_s();
    }
    // The points sent behind this one are lost when its worker ended (they go again).
    sent_ = std::min(sent_ > 0 ? sent_ - 1 : 0, worker_.outstanding());
    EvaluationOutcome o = outcome_of(e, std::move(r), context_);
    // The GPU's time on the point: the worker's own time for it where it answered (its
    // phases, protocol included), else the wait for the answer.
    o.busy_s = o.phases.total_s() > 0 ? o.phases.total_s() : busy_s;
    return o;
  }
  EvaluationContext context_;
  std::deque<Evaluation> queue_;  // submitted, oldest first; the first sent_ are in the pipe
  std::size_t sent_ = 0;
  WorkerProcess worker_;
  std::optional<WorkerResult> failed_send_;
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
