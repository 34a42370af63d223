// Search of real algorithm parameters (e.g. TV-L1's lambda and theta) on a non-linear grid,
// then refinement around the best cell, minimising a metric on training inputs and reporting
// it on held-out inputs (Masson 2011, thesis, sec. 5.1.2: log grid, then local refinement).
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "tuner/measure.hpp"
#include "tuner/space.hpp"

namespace flowtune {

/// One searched parameter and its initial grid (ascending, positive: refinement is
/// geometric, so a log-spaced grid such as 0.05:0.8:log:6 is the natural one).
struct SearchDimension {
  std::string name;
  std::vector<double> grid;
};

struct ParamSearchOptions {
  std::string board = "host";
  std::string db_path = "flowtune.db";
  SpaceOptions space;  ///< the base config: first valid point of this space (single values)
  std::vector<SearchDimension> dimensions;
  int refinements = 2;  ///< rounds of local refinement around the best cell
  std::string metric;   ///< the workload metric to optimise (its direction from MetricSpec)
  InputOptions train, test;
  MeasureOptions measure;  ///< accuracy search: one warm-up run per item is enough by default
  bool isolate = true;     ///< measure in a worker process (tuner/evaluator.hpp), else in-process
  double config_timeout_s = 0;  ///< isolate: longer than this fails as timeout (0 = no limit)
  std::string command;
};

struct SearchPoint {
  ParamValues values;  ///< the searched parameters only
  double train = 0;    ///< the metric on the training inputs
};

struct ParamSearchResult {
  Config best;  ///< full config of the best cell
  double best_train = 0, best_test = 0;
  Config baseline;  ///< the base config (the parameters' defaults)
  double baseline_train = 0, baseline_test = 0;
  std::vector<SearchPoint> trace;   ///< every evaluated cell, in evaluation order
  std::string train_key, test_key;  ///< dataset keys of the two input sets
};

/// The local grid of one refinement step around `best` with geometric step `ratio` (> 1):
/// {best / sqrt(ratio), best, best * sqrt(ratio)}, keeping only values valid for spec.
/// Throws std::invalid_argument for ratio <= 1 or best <= 0.
std::vector<double> refine_around(double best, double ratio, const ParamSpec& spec);

/// Runs the search: the initial grid (Cartesian product of the dimensions), then
/// `refinements` rounds of refine_around on every dimension at once, each round halving the
/// log step; every evaluation is a measurement on the training inputs recorded in the DB
/// (dataset = the training key; a cell already in the DB is read back, so a killed search
/// resumes). Cells are measured through an Evaluator (tuner/evaluator.hpp) and recorded by
/// record_outcome: a cell that fails is recorded as failed and counts as the worst value of
/// the metric. The best cell and the base config are then measured on the test inputs.
/// Throws std::invalid_argument for an unknown metric or parameter, a non-real or
/// non-positive grid, or a base space with no runnable config; whatever loading or
/// measuring throws otherwise. Progress goes to log.
ParamSearchResult search_parameters(const ParamSearchOptions& options, std::ostream& log);

}  // namespace flowtune
