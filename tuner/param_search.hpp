// Search of algorithm parameters (e.g. TV-L1's lambda and theta, and integer or categorical
// ones such as median_window or warping_interp) on a non-linear grid, then refinement around
// the best cell, minimising a metric on training inputs and reporting it on held-out inputs
// (Masson 2011, thesis, sec. 5.1.2: log grid, then local refinement).
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "tuner/measure.hpp"
#include "tuner/space.hpp"

namespace flowtune {

/// One searched parameter and its initial grid.
/// refined (real or integer parameters): the grid is ascending and positive and the search
/// refines geometrically around the best value (a log-spaced grid such as 0.05:0.8:log:6 is
/// the natural one; an integer parameter's neighbours are rounded).
/// Not refined (any parameter; a categorical one always): every value of the grid is tried
/// in the initial grid, and the refinement rounds keep the best cell's value.
struct SearchDimension {
  std::string name;
  std::vector<double> grid;
  bool refined = true;
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
/// {best / sqrt(ratio), best, best * sqrt(ratio)}, keeping only values valid for spec; for an
/// integer parameter each neighbour is rounded (std::round) and duplicates dropped (best 3,
/// ratio 2: {2, 3, 4}; ratio 1.1: {3}). Throws std::invalid_argument for ratio <= 1,
/// best <= 0 or a categorical spec.
std::vector<double> refine_around(double best, double ratio, const ParamSpec& spec);

/// The cells of one refinement round: for each dimension k, refine_around(best[name],
/// ratios[k], spec) when it is refined, else {best[name]} (Cartesian product by
/// parameter_points). specs[k] is dimension k's spec. Throws std::invalid_argument when the
/// sizes differ or best lacks a dimension.
ParamDimensions refinement_grid(const std::vector<SearchDimension>& dimensions,
                                const std::vector<const ParamSpec*>& specs, const ParamValues& best,
                                const std::vector<double>& ratios);

/// Runs the search: the initial grid (Cartesian product of the dimensions), then
/// `refinements` rounds of refinement_grid around the best cell, each round halving the
/// log step of the refined dimensions (ratio_k = (grid max / grid min)^(1 / (size - 1)),
/// then its square root per round); every evaluation is a measurement on the training inputs
/// recorded in the DB (dataset = the training key; a cell already in the DB is read back, so a
/// killed search resumes). Cells are measured through an Evaluator (tuner/evaluator.hpp) and
/// recorded by record_outcome: a cell that fails is recorded as failed and counts as the worst
/// value of the metric. The best cell and the base config are then measured on the test inputs.
/// Throws std::invalid_argument for an unknown metric or parameter, a refined dimension that
/// is categorical or whose grid is not >= 2 ascending positive values, an empty grid, a grid
/// value the workload rejects on the base config, or a base space with no runnable config; whatever
/// loading or measuring throws otherwise. Progress goes to log.
ParamSearchResult search_parameters(const ParamSearchOptions& options, std::ostream& log);

}  // namespace flowtune
