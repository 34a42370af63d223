// The Evaluator seam (ARCHITECTURE.md, "tuner/"): the tuning loop and `tune search` hand it
// points and get back what became of them, whichever way they are measured: in this
// process, in an isolated worker process, or by workers of the store (distributed). The
// strategies only choose points (tuner/strategy.hpp); the evaluators only measure them
// (Kernel Tuner's runners; Optuna's trials). Recording goes through record_outcome.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "boards/board.hpp"
#include "db/repository.hpp"
#include "tuner/measure.hpp"
#include "tuner/worker.hpp"
#include "variants/kernel_binary_cache.hpp"

namespace flowtune {

/// One point to evaluate.
struct Evaluation {
  std::size_t point = 0;       ///< index in the caller's space (handed back unchanged)
  std::size_t fidelity = 0;    ///< index in EvaluationContext::fidelities (0 = full)
  db::ConfigRow config;        ///< with its key and label (to_config_row)
  std::string resources_json;  ///< the kernels' resource report, stored with the measurement
};

/// What evaluating a point gave.
struct EvaluationOutcome {
  enum class Kind { measured, failed, cancelled };
  std::size_t point = 0;
  std::size_t fidelity = 0;  ///< the evaluation's
  std::string dataset;       ///< the fidelity's dataset key: where the outcome is recorded
  db::ConfigRow config;
  Kind kind = Kind::failed;
  db::MeasurementRow measurement;      ///< measured: the row (run_id filled in by recording)
  std::string failure_class, message;  ///< failed: "compile", "runtime", "accuracy", ...
  /// True when the evaluator already stored the outcome (a store worker records it with the
  /// end of its task); record_outcome is then a no-op.
  bool recorded = false;
  std::string where;  ///< who measured it, for the progress line (e.g. "worker 2"), or ""
  /// Seconds the measuring side spent on it (from the hand-over of its request to its
  /// answer), or < 0 where the evaluator does not know (the caller then times it from
  /// submit()).
  double busy_s = -1;
  /// Where the measuring side's time went (measure_config's phases; zero where the
  /// evaluator does not report them, e.g. a store worker's).
  MeasurePhases phases;
};

/// Measures points. submit() hands over a point; collect() waits until at least one handed
/// point is done (or stop() is true) and returns every one done since the last call, in no
/// particular order. A synchronous evaluator measures within collect(). Not thread-safe.
class Evaluator {
 public:
  virtual ~Evaluator() = default;
  /// Points that may be in flight at once (1 for the synchronous evaluators).
  virtual std::size_t capacity() const = 0;
  /// Points submitted and not yet collected.
  virtual std::size_t in_flight() const = 0;
  virtual void submit(const Evaluation& evaluation) = 0;
  /// The outcomes finished; an outcome of kind cancelled means a stop request ended its
  /// measurement (not a failure of the config: it is neither recorded nor told). Returns
  /// what it has (maybe nothing) once stop() is true.
  virtual std::vector<EvaluationOutcome> collect(const std::function<bool()>& stop) = 0;
  /// Ends the evaluator's work (stops its workers); points still in flight are dropped.
  virtual void shut_down() {}
  /// The kernel builds of the measuring processes this evaluator started (compiles, local
  /// cache hits, store fetches; tuner/kernel_store.hpp); none for an evaluator measuring in
  /// this process (kernel_build_counters() has those) or through the store (each worker logs
  /// its own).
  virtual KernelBuildCounts kernel_builds() const { return {}; }
};

/// One way of measuring a point: on which inputs, how long, and under which dataset key the
/// result is stored. Fidelity 0 is the full one; a screen (one item, a short window;
/// tuner/screening.hpp) is stored under its own key, never as a full-fidelity point.
struct Fidelity {
  InputOptions inputs;     ///< how the measuring side loads the inputs
  MeasureOptions measure;  ///< repetition and energy
  std::string dataset;     ///< the key its measurements are stored under
};

/// What every evaluator needs to know of the run.
struct EvaluationContext {
  Board board;
  std::vector<Fidelity> fidelities;  ///< [0] the full fidelity
  bool allow_clock_control = false;
  double config_timeout_s = 0;  ///< isolated/distributed: longer fails as timeout (0 = none)
};

/// Measures in the calling process (no fault isolation): inputs[k] are the loaded inputs of
/// context.fidelities[k]; sensor may be nullptr (energy stays NULL). The clock of each config
/// is locked while it runs when allowed (boards/gpu_clocks.hpp ClockGuard).
std::unique_ptr<Evaluator> make_in_process_evaluator(const EvaluationContext& context,
                                                     std::vector<const InputSet*> inputs,
                                                     EnergySensor* sensor);

/// Measures in a worker process of this executable (tuner/worker.hpp): a crash, a fault or a
/// hang (beyond config_timeout_s) fails that config only, and a fresh worker takes the next.
/// capacity() is 3: two points wait in the worker's pipe (it starts the second the moment it
/// answers the first) and a third is queued while the caller records, asks and builds, so the
/// GPU waits for none of the caller's work that takes less than a point. Each outcome's busy_s
/// is the worker's own time for the point. With clock control allowed it is 1 (each point's
/// clock is set around its own measurement).
std::unique_ptr<Evaluator> make_worker_process_evaluator(const EvaluationContext& context);

/// Settings of the store-dispatched evaluator.
struct StoreEvaluatorOptions {
  std::string storage;  ///< what workers open (the coordinator's database)
  std::int64_t run_id = 0;
  double lease_s = 30;  ///< a worker's claim lasts this long without a heartbeat
  /// Local workers to start, pinned one per entry of gpus (round robin); 0 = only workers
  /// started elsewhere (`tune worker --storage S --run ID`).
  int local_workers = 0;
  std::vector<std::string> gpus;
  /// True once this process lost the run's coordinator role (tuner/coordinator_lease.hpp):
  /// the evaluator then leaves the run's tasks as they are when it shuts down.
  std::function<bool()> run_lost;
  /// A task's progress deadline (TaskRequest::progress_deadline_s): > 0 a fixed number of
  /// seconds, 0 none, < 0 derived from the run's longest task so far (kAutoProgressDeadline*).
  double progress_deadline_s = -1;
};

/// Publishes points as tasks of the store (tuner/dispatch.hpp) for workers to measure; they
/// record each outcome with the end of its task, so the outcomes come back recorded.
/// capacity() is 2 per local worker (64 when none is local). Throws std::runtime_error when
/// workers cannot be started, and from collect() when every local worker exited with points
/// in flight.
std::unique_ptr<Evaluator> make_store_evaluator(db::Repository& repo,
                                                const EvaluationContext& context,
                                                const StoreEvaluatorOptions& options);

/// Stores an outcome of run_id under outcome.dataset unless the evaluator did: a
/// measurement unless the point was measured there meanwhile by another process (then
/// nothing is written and false is returned), or a failure with its class and message.
/// Returns true when the outcome is in the DB as this outcome. A cancelled outcome is not
/// recorded (false).
bool record_outcome(db::Repository& repo, std::int64_t run_id, EvaluationOutcome& outcome);

}  // namespace flowtune
