// Recording of outcomes (tuner/evaluator.hpp).
#include "tuner/evaluator.hpp"

namespace flowtune {

bool record_outcome(db::Repository& repo, std::int64_t run_id, EvaluationOutcome& outcome) {
  const std::string& dataset = outcome.dataset;
  if (outcome.recorded) return true;
  switch (outcome.kind) {
    case EvaluationOutcome::Kind::cancelled:
      return false;
    case EvaluationOutcome::Kind::failed:
      repo.record_failure(run_id, outcome.config, dataset, outcome.failure_class, outcome.message);
      break;
    case EvaluationOutcome::Kind::measured:
      outcome.measurement.run_id = run_id;
      outcome.measurement.dataset = dataset;
      if (repo.is_measured(outcome.config.board, outcome.config.key, dataset)) return false;
      repo.record_measurement(outcome.config, outcome.measurement);
      break;
  }
  outcome.recorded = true;
  return true;
}

}  // namespace flowtune
