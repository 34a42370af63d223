#include <chrono>
#include <sstream>

#include "kernels/flo_io.hpp"
#include "kernels/flow_viz.hpp"
#include "kernels/image_limits.hpp"
#include "kernels/metrics.hpp"
#include "kernels/png_io.hpp"
#include "workloads/localflow/localflow_workload.hpp"
#include "workloads/tvl1/flow_files.hpp"
#include "workloads/tvl1/flow_output_pictures.hpp"
#include "workloads/tvl1/resolution.hpp"
#include "workloads/tvl1/sequence_set.hpp"
#include "workloads/tvl1/sequences.hpp"

namespace flowtune::localflow_common {
namespace {

class LocalFlowRunner final : public Runner {
 public:
  LocalFlowRunner(std::unique_ptr<FlowSolver> solver, const SequenceSet& inputs)
      : solver_(std::move(solver)), inputs_(inputs), last_(inputs.size()) {}
  void run(std::size_t item) override {
    const Sequence& s = inputs_.sequence(item);
    last_.at(item) = solver_->compute(s.i0, s.i1);
    if (const auto* f = dynamic_cast<const FeatureSolver*>(solver_.get()))
      unclassified_[item] = f->last_unclassified_fraction();
  }
  std::map<std::string, double> score(std::size_t item) override {
    const Sequence& s = inputs_.sequence(item);
    if (last_.at(item).size() == 0) throw std::logic_error("score before run on " + s.name);
    FlowError e{};
    try {
      e = flow_error(last_[item], s.ground_truth);
    } catch (const std::invalid_argument& err) {
      throw CheckFailed(s.name + ": " + err.what());
    }
    std::map<std::string, double> out = {{"aepe", e.aepe}, {"aae_deg", e.aae_deg}};
    const auto it = unclassified_.find(item);
    if (it != unclassified_.end()) out["unclassified"] = it->second;
    return out;
  }

  std::vector<OutputPicture> pictures(std::size_t item, int max_side) override {
    const Sequence& s = inputs_.sequence(item);
    if (last_.at(item).size() == 0) return {};
    return flow_output_pictures(last_[item], s.ground_truth, max_side);
  }

 private:
  std::unique_ptr<FlowSolver> solver_;
  const SequenceSet& inputs_;
  std::vector<FlowField> last_;
  std::map<std::size_t, double> unclassified_;  // FeatureSolver only
};

}  // namespace

const std::vector<MetricSpec>& metrics() {
  static const std::vector<MetricSpec> m = {
      {"aepe", "px", true, "average endpoint error vs ground truth (Baker et al. 2011, eq. 2)"},
      {"aae_deg", "deg", true, "average angular error vs ground truth (Baker et al. 2011, eq. 1)"}};
  return m;
}

std::unique_ptr<InputSet> load_inputs(const InputOptions& o) {
  if (o.max_pixels > 0) set_default_image_limits({o.max_pixels});
  FlowDataset d;
  d.sequences = load_sequences(o.data_dir.empty() ? default_data_dir() : o.data_dir, o.items);
  d.key = dataset_key(d.sequences);
  resample_dataset(d, Resolution{o.resolution_width, o.resolution_height});
  return std::make_unique<SequenceSet>(std::move(d));
}

std::unique_ptr<Runner> make_runner(std::unique_ptr<FlowSolver> solver, const InputSet& inputs) {
  const auto* set = dynamic_cast<const SequenceSet*>(&inputs);
  if (!set)
    throw std::invalid_argument("input set '" + inputs.key() +
                                "' does not come from the local flow workloads' load_inputs");
  return std::make_unique<LocalFlowRunner>(std::move(solver), *set);
}

std::string run_on_files(FlowSolver& solver, const Config& config, const Workload::FileRun& run) {
  if (run.max_pixels > 0) set_default_image_limits({run.max_pixels});
  const FlowRunFiles files = read_flow_run_files(config.workload, run);
  const auto start = std::chrono::steady_clock::now();
  const FlowField flow = solver.compute(files.i0, files.i1);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::ostringstream os;
  os << config.label() << " (" << config.params_text() << ")" << time_per_frame_text(seconds);
  if (!run.output.empty()) {
    write_flo(run.output, flow);
    os << ": wrote " << run.output;
  }
  if (!run.visualisation.empty()) {
    // Block matching's mismatches are outliers: the largest radius would wash the image out,
    // so without --max-flow the 99th percentile of the radii saturates.
    const double radius = run.visualisation_scale > 0 ? run.visualisation_scale
                                                      : flow_viz_quantile_radius(flow, 0.99);
    write_flow_png(run.visualisation, flow, radius, true);
    os << (run.output.empty() ? ": wrote " : " and ") << run.visualisation
       << " (colour-wheel key to the right of the flow; full saturation at " << radius << " px"
       << (run.visualisation_scale > 0 ? "" : ", the 99th percentile of |flow|") << ")";
  }
  if (!run.reference.empty()) {
    const FlowError e = flow_error(flow, *files.reference);
    os << "\naepe " << e.aepe << " px, aae_deg " << e.aae_deg << " deg over " << e.n_valid
       << " pixels";
  }
  return os.str();
}

const LocalFlowVariant& variant_of(const Workload& workload, const Config& config) {
  std::string names;
  for (const Variant* v : workload.variants()) {
    if (v->name() == config.variant)
      if (const auto* lv = dynamic_cast<const LocalFlowVariant*>(v)) return *lv;
    names += (names.empty() ? "" : ", ") + v->name();
  }
  throw std::invalid_argument(workload.name() + ": unknown variant '" + config.variant +
                              "' (valid: " + names + ")");
}

}  // namespace flowtune::localflow_common

namespace flowtune {

std::vector<const Variant*> LocalFlowWorkload::variants() const {
  std::vector<const Variant*> out;
  for (const Variant* v : localflow_variants())
    if (v->workload() == name()) out.push_back(v);
  return out;
}

std::unique_ptr<Runner> LocalFlowWorkload::make_runner(const Config& config,
                                                       const InputSet& inputs) const {
  return localflow_common::make_runner(
      localflow_common::variant_of(*this, config).make_solver(config), inputs);
}

std::string LocalFlowWorkload::run_on_files(const Config& config, const FileRun& run) const {
  auto solver = localflow_common::variant_of(*this, config).make_solver(config);
  return localflow_common::run_on_files(*solver, config, run);
}

}  // namespace flowtune
