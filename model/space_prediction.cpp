#include "model/space_prediction.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <set>
#include <stdexcept>
#include <tuple>

#include "tuner/progress.hpp"
#ifdef FLOWTUNE_HAVE_CUDA
#include "variants/cuda/cuda_variant.hpp"
#endif

namespace flowtune::model {
namespace {

// The build of a kernel config: every tunable but the per-level thresholds and the tiled
// levels' shape (not the scheme's NVRTC defines), with the variant and precision.
std::string build_key(const Config& c) {
  std::string key = c.variant + '\n' + c.precision;
  for (const auto& [name, value] : c.tunables)
#ifdef FLOWTUNE_HAVE_CUDA
    if (!cuda::is_level_threshold(name) && !cuda::is_tiled_shape_tunable(name))
#endif
      key += '\n' + name + '=' + std::to_string(value);
  return key;
}

// The 2D front (time, energy), both minimised, kept sorted by time with energy strictly
// falling; a point equal in both to a front row joins its ties.
class Front {
 public:
  void add(const FramePrediction& f, std::size_t u, std::size_t j) {
    // The first row at or after f's time.
    auto it = rows_.lower_bound(f.time_ms);
    if (it != rows_.end() && it->first == f.time_ms && it->second.frame.energy_mj == f.energy_mj) {
      it->second.ties.emplace_back(u, j);
      return;
    }
    // Dominated by a row no slower and no costlier?
    if (it != rows_.end() && it->first == f.time_ms && it->second.frame.energy_mj <= f.energy_mj)
      return;
    if (it != rows_.begin() && std::prev(it)->second.frame.energy_mj <= f.energy_mj) return;
    // Rows from f's time on that cost at least as much are dominated by f.
    while (it != rows_.end() && it->second.frame.energy_mj >= f.energy_mj) it = rows_.erase(it);
    FrontRow row;
    row.frame = f;
    row.ties.emplace_back(u, j);
    rows_.emplace(f.time_ms, std::move(row));
  }
  std::vector<FrontRow> rows() const {
    std::vector<FrontRow> out;
    for (const auto& [t, r] : rows_) out.push_back(r);
    return out;
  }

 private:
  std::map<double, FrontRow> rows_;
};

}  // namespace

Config SpacePrediction::config(std::size_t u, std::size_t member, std::size_t j) const {
  Config c = classes.at(u).members.at(member);
  for (const auto& [name, value] : points.at(j)) c.params[name] = value;
  return c;
}

std::size_t SpacePrediction::configs_of(const FrontRow& row) const {
  std::size_t n = 0;
  for (const auto& [u, j] : row.ties) n += classes[u].members.size();
  return n;
}

std::vector<std::string> SpacePrediction::differing(const FrontRow& row) const {
  std::set<std::string> names;
  const Config first = config(row.ties.front().first, 0, row.ties.front().second);
  for (const auto& [u, j] : row.ties)
    for (std::size_t m = 0; m < classes[u].members.size(); ++m) {
      const Config c = config(u, m, j);
      if (c.variant != first.variant) names.insert("variant");
      if (c.precision != first.precision) names.insert("precision");
      for (const auto& [k, v] : c.tunables)
        if (first.tunables.count(k) == 0 || first.tunables.at(k) != v) names.insert(k);
      for (const auto& [k, v] : c.params)
        if (first.params.count(k) == 0 || first.params.at(k) != v) names.insert(k);
    }
  return {names.begin(), names.end()};
}

SpacePrediction predict_space(const ModelInputs& inputs, const ConfigSpace& space,
                              ConstraintChecks& checks,
                              const std::function<bool(const Config&)>& keep, int width, int height,
                              std::ostream* progress) {
  if (!space.generated())
    throw std::invalid_argument("predict_space: a generated space is needed, not a listed one");
  SpacePrediction out;
  out.points = parameter_points(space.param_dimensions());
  // The representative point: per costed parameter the space's value nearest to the
  // workload's default.
  const ParamValues defaults = inputs.workload->default_params();
  ParamValues target;
  for (const std::string& name : costed_params()) {
    const auto dim = space.param_dimensions().find(name);
    const auto d = defaults.find(name);
    if (dim == space.param_dimensions().end() || dim->second.empty() || d == defaults.end())
      continue;
    double best = dim->second.front();
    for (double v : dim->second)
      if (std::fabs(v - d->second) < std::fabs(best - d->second)) best = v;
    target[name] = best;
  }
  for (std::size_t j = 0; j < out.points.size(); ++j) {
    bool match = true;
    for (const auto& [name, value] : target) {
      const auto p = out.points[j].find(name);
      match = match && p != out.points[j].end() && p->second == value;
    }
    if (match) {
      out.representative = j;
      break;
    }
  }

  const SpaceLayout layout = space.layout();
  std::size_t total = 0;
  for (const SpaceLayout::Block& b : layout.blocks) {
    std::size_t combos = 1;
    for (const SpaceLayout::Axis& a : b.tunables) combos *= a.values.size();
    total += combos;
  }
  std::unique_ptr<CountProgress> bar;
  if (progress)
    bar = std::make_unique<CountProgress>("predicting kernel configs", total, *progress);
  // Kernel configs with the same iteration prediction share a class.
  std::map<std::tuple<double, double, double, double, double, std::string>, std::size_t> class_of;
  std::set<std::string> builds;
  std::size_t done = 0;
  for (const SpaceLayout::Block& b : layout.blocks) {
    std::size_t combos = 1;
    for (const SpaceLayout::Axis& a : b.tunables) combos *= a.values.size();
    for (std::size_t k = 0; k < combos; ++k, ++done) {
      if (bar) bar->tick(done);
      const Config c = space[b.first + k];
      if (!keep(c)) continue;
      ++out.kernel_configs;
      const ConstraintCheck* check = nullptr;
      try {
        check = &checks.get(b.first + k);
      } catch (const std::exception& e) {
        ++out.not_predicted["constraint check failed: " + std::string(e.what())];
        continue;
      }
      out.resources.add(*check);
      if (check->prune_reason) {
        out.pruned.emplace_back(c.label(), *check->prune_reason);
        continue;
      }
      if (!find_calibration(inputs.calibration, c.variant, c.precision)) {
        ++out.not_predicted["no calibration for " + c.variant + " " + c.precision];
        continue;
      }
      std::vector<KernelResources> kb;
      for (const auto& kernel : check->kernels) kb.push_back(kernel.resources);
      const std::optional<IterationPrediction> it = predict_config(inputs, c, kb);
      if (!it) {
        ++out.not_predicted["no calibration for " + c.variant + " " + c.precision];
        continue;
      }
      ++out.predicted_kernel_configs;
      builds.insert(build_key(c));
      const auto key = std::make_tuple(it->ns_per_px_10it, it->launches_per_iteration,
                                       it->board_factor, it->occupancy, it->occupancy_calibration,
                                       it->limited_by + '\n' + it->calibration);
      auto [slot, fresh] = class_of.emplace(key, out.classes.size());
      if (fresh) out.classes.push_back({*it, {}});
      out.classes[slot->second].members.push_back(c);
    }
  }
  if (bar) bar->finish(done);
  out.distinct_builds = builds.size();

  // Frames: per point its work once, then a few operations per class.
  Front front;
  for (std::size_t j = 0; j < out.points.size(); ++j) {
    Config at = space[0];
    for (const auto& [name, value] : out.points[j]) at.params[name] = value;
    const FrameWork work = frame_work(at, width, height);
    for (std::size_t u = 0; u < out.classes.size(); ++u) {
      const FramePrediction f = predict_frame(inputs.board, out.classes[u].it, work);
      out.sum_time_ms += f.time_ms * double(out.classes[u].members.size());
      front.add(f, u, j);
    }
  }
  out.front = front.rows();
  return out;
}

}  // namespace flowtune::model
