// The store-dispatched evaluator (tuner/evaluator.hpp): points become tasks of the store,
// workers (tuner/store_worker.hpp) measure and record them.
#include <map>

#include "tuner/dispatch.hpp"
#include "tuner/evaluator.hpp"
#include "tuner/resources_json.hpp"

namespace flowtune {
namespace {

class StoreEvaluator final : public Evaluator {
 public:
  StoreEvaluator(db::Repository& repo, const EvaluationContext& context,
                 const StoreEvaluatorOptions& options)
      : repo_(repo),
        context_(context),
        options_(options),
        dispatcher_(repo, options.run_id, options.storage, options.lease_s) {
    if (options.run_lost) dispatcher_.set_run_lost(options.run_lost);
    dispatcher_.start_local_workers(options.local_workers, options.gpus);
    capacity_ = options.local_workers == 0 ? 64 : 2 * std::size_t(options.local_workers);
  }
  ~StoreEvaluator() override = default;

  std::size_t capacity() const override { return capacity_; }
  std::size_t in_flight() const override { return dispatcher_.outstanding(); }

  void submit(const Evaluation& e) override {
    const Fidelity& f = context_.fidelities.at(e.fidelity);
    TaskRequest task;
    task.request = {context_.board.name, e.config, f.inputs, f.measure};
    task.dataset = f.dataset;
    task.resources_json = e.resources_json;
    task.allow_clock_control = context_.allow_clock_control;
    task.config_timeout_s = context_.config_timeout_s;
    task.progress_deadline_s =
        progress_deadline_s(options_.progress_deadline_s, dispatcher_.longest_task_s());
    config_of_[e.point] = e;
    dispatcher_.publish(e.point, e.config.key, task);
  }

  std::vector<EvaluationOutcome> collect(const std::function<bool()>& stop) override {
    std::vector<EvaluationOutcome> out;
    for (const Dispatcher::Finished& f : dispatcher_.wait(stop)) {
      EvaluationOutcome o;
      o.point = f.point;
      const Evaluation& e = config_of_.at(f.point);
      o.config = e.config;
      o.fidelity = e.fidelity;
      o.dataset = context_.fidelities.at(e.fidelity).dataset;
      config_of_.erase(f.point);
      o.recorded = true;
      o.where = "worker " + std::to_string(f.task.worker_id) +
                (f.task.attempts > 1 ? ", claimed again" : "");
      std::optional<db::MeasuredConfig> mc;
      if (f.task.state == "done")
        mc = repo_.measurement_of(o.config.board, o.config.key, o.dataset);
      if (mc) {
        o.kind = EvaluationOutcome::Kind::measured;
        o.measurement = mc->measurement;
      } else {
        o.kind = EvaluationOutcome::Kind::failed;
        o.failure_class = repo_.failure_class(o.config.board, o.config.key, o.dataset);
      }
      out.push_back(std::move(o));
    }
    return out;
  }

  void shut_down() override { dispatcher_.shut_down(); }

 private:
  db::Repository& repo_;
  EvaluationContext context_;
  StoreEvaluatorOptions options_;
  Dispatcher dispatcher_;
  std::size_t capacity_ = 1;
  std::map<std::size_t, Evaluation> config_of_;
};

}  // namespace

std::unique_ptr<Evaluator> make_store_evaluator(db::Repository& repo,
                                                const EvaluationContext& context,
                                                const StoreEvaluatorOptions& options) {
  return std::make_unique<StoreEvaluator>(repo, context, options);
}

}  // namespace flowtune
