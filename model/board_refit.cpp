#include "model/board_refit.hpp"

#include <cmath>
#include <stdexcept>

#include "select/prediction_error.hpp"

namespace flowtune::model {
namespace {

std::string scheme(const BoardSample& s) {
  return s.variant + " " + s.precision;
}

double sample_factor(const BoardSample& s) {
  return s.measured_ms / (s.kernel_ms + s.launch_ms);
}

// Geometric mean of the factors of samples where take(j); 1 when none.
template <class Take>
double geomean(const std::vector<BoardSample>& samples, Take take) {
  double sum = 0;
  std::size_t n = 0;
  for (std::size_t j = 0; j < samples.size(); ++j)
    if (take(j)) {
      sum += std::log(sample_factor(samples[j]));
      ++n;
    }
  return n ? std::exp(sum / double(n)) : 1.0;
}

}  // namespace

double BoardRefit::factor(const std::string& variant, const std::string& precision) const {
  const auto it = factors.find(variant + " " + precision);
  return it == factors.end() ? global_factor : it->second;
}

BoardRefit refit_board(const std::vector<BoardSample>& samples) {
  for (const BoardSample& s : samples)
    if (!(s.kernel_ms + s.launch_ms > 0) || !(s.measured_ms > 0) || !(s.launch_ms >= 0))
      throw std::invalid_argument("board refit: " + s.label +
                                  ": predicted frame time and measured time must be > 0");
  BoardRefit r;
  r.n = samples.size();
  r.global_factor = geomean(samples, [](std::size_t) { return true; });
  for (const BoardSample& s : samples) ++r.n_scheme[scheme(s)];
  for (const auto& [name, n] : r.n_scheme)
    r.factors[name] =
        geomean(samples, [&, name = name](std::size_t j) { return scheme(samples[j]) == name; });
  std::vector<double> measured;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const BoardSample& s = samples[i];
    const std::string name = scheme(s);
    double f = 1;
    if (r.n_scheme[name] > 1)
      f = geomean(samples, [&](std::size_t j) { return j != i && scheme(samples[j]) == name; });
    else if (samples.size() > 1)
      f = geomean(samples, [&](std::size_t j) { return j != i; });
    r.predicted_ms.push_back(s.kernel_ms + s.launch_ms);
    r.loo_predicted_ms.push_back(f * (s.kernel_ms + s.launch_ms));
    measured.push_back(s.measured_ms);
  }
  r.before_median_abs_log = median_abs_log_ratio(r.predicted_ms, measured);
  r.before_spearman = spearman(r.predicted_ms, measured);
  r.loo_median_abs_log = median_abs_log_ratio(r.loo_predicted_ms, measured);
  r.loo_spearman = spearman(r.loo_predicted_ms, measured);
  return r;
}

}  // namespace flowtune::model
