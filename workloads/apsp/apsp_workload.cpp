#include "workloads/apsp/apsp_workload.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

#include "kernels/apsp/dijkstra.hpp"
#include "workloads/apsp/apsp_items.hpp"

namespace flowtune {
namespace {

/// Threads of the reference computation: every hardware thread (same result as one).
int reference_threads() {
  return std::max(1, int(std::thread::hardware_concurrency()));
}

/// The graphs of one load_inputs call, with their reference distances (repeated Dijkstra,
/// computed once here: an algorithm independent of every Floyd-Warshall variant).
class ApspInputSet : public InputSet {
 public:
  struct Item {
    apsp::Graph graph;
    apsp::DistMatrix reference;
  };

  explicit ApspInputSet(const std::vector<std::string>& names) {
    for (const auto& name : names) {
      apsp::Graph g = apsp::make_item_graph(name);
      apsp::DistMatrix reference = apsp::repeated_dijkstra(g.weights, reference_threads());
      items_.push_back({std::move(g), std::move(reference)});
    }
  }
  std::string key() const override {
    std::string k;
    for (const auto& item : items_) k += (k.empty() ? "" : ",") + item.graph.name;
    return k;
  }
  std::size_t size() const override { return items_.size(); }
  std::string item_name(std::size_t i) const override { return item(i).graph.name; }
  double item_work(std::size_t i) const override {
    const double n = item(i).graph.n();
    return n * n * n;
  }
  const Item& item(std::size_t i) const {
    if (i >= items_.size())
      throw std::out_of_range("apsp: item " + std::to_string(i) + " of " +
                              std::to_string(items_.size()));
    return items_[i];
  }

 private:
  std::vector<Item> items_;
};

class ApspRunner : public Runner {
 public:
  ApspRunner(std::unique_ptr<ApspSolver> solver, const ApspInputSet& inputs)
      : solver_(std::move(solver)), inputs_(inputs), outputs_(inputs.size()) {}
  void run(std::size_t i) override {
    const auto& item = inputs_.item(i);
    outputs_[i] = solver_->solve(item.graph);
  }
  std::map<std::string, double> score(std::size_t i) override {
    const auto& item = inputs_.item(i);
    if (!outputs_[i])
      throw std::logic_error("apsp: score(" + std::to_string(i) + ") before run(" +
                             std::to_string(i) + ")");
    return {{"mismatches", check_apsp_distances(*outputs_[i], item.reference, item.graph.name)}};
  }

 private:
  std::unique_ptr<ApspSolver> solver_;
  const ApspInputSet& inputs_;
  std::vector<std::optional<apsp::DistMatrix>> outputs_;  // last output per item
};

class ApspWorkload : public Workload {
 public:
  std::string name() const override { return "apsp"; }
  std::string description() const override {
    return "All-pairs shortest paths on mesh dual graphs by tiled Floyd-Warshall (Marras et "
           "al., sec. 4.1), checked exactly against repeated Dijkstra";
  }
  std::string work_unit() const override { return "relaxation"; }
  const std::vector<ParamSpec>& params() const override {
    static const std::vector<ParamSpec> none;
    return none;
  }
  const std::vector<MetricSpec>& metrics() const override {
    static const std::vector<MetricSpec> metrics = {
        {"mismatches", "", true,
         "distance entries differing from the repeated-Dijkstra reference (Marras et al. sec. "
         "5.2 baseline); any mismatch fails the check"}};
    return metrics;
  }
  std::vector<std::string> front_objectives() const override { return {"time_ms"}; }
  std::vector<const Variant*> variants() const override { return apsp_variants(); }
  ParamDimensions default_dimensions(const std::string& target) const override {
    (void)target;
    return {};
  }
  std::unique_ptr<InputSet> load_inputs(const InputOptions& options) const override {
    if (options.resolution_width || options.resolution_height)
      throw std::invalid_argument(
          "--resolution resamples optical-flow frames; apsp's graphs "
          "have no resolution (size them with --items random:N)");
    return std::make_unique<ApspInputSet>(options.items.empty() ? apsp::default_items()
                                                                : options.items);
  }
  std::unique_ptr<Runner> make_runner(const Config& config, const InputSet& inputs) const override {
    const ApspVariant* variant = find_apsp_variant(config.variant);
    if (!variant) {
      std::string names;
      for (const Variant* v : apsp_variants()) names += (names.empty() ? "" : ", ") + v->name();
      throw std::invalid_argument("apsp: unknown variant '" + config.variant +
                                  "' (valid: " + names + ")");
    }
    return make_apsp_runner(*variant, config, inputs);
  }
};

}  // namespace

const Workload& apsp_workload() {
  static const ApspWorkload workload;
  return workload;
}

FLOWTUNE_REGISTER_WORKLOAD(200, apsp_workload());

double check_apsp_distances(const apsp::DistMatrix& got, const apsp::DistMatrix& expected,
                            const std::string& item) {
  if (got.n != expected.n || got.d.size() != expected.d.size())
    throw CheckFailed("apsp: output of size " + std::to_string(got.n) + " x " +
                      std::to_string(got.n) + " on " + item + ", expected " +
                      std::to_string(expected.n) + " x " + std::to_string(expected.n));
  std::size_t mismatches = 0, first = 0;
  for (std::size_t e = 0; e < got.d.size(); ++e)
    if (got.d[e] != expected.d[e] && mismatches++ == 0) first = e;
  if (mismatches == 0) return 0;
  const std::size_t n = std::size_t(expected.n);
  throw CheckFailed("apsp: " + std::to_string(mismatches) + " mismatches on " + item +
                    ", first at (" + std::to_string(first / n) + "," + std::to_string(first % n) +
                    "): got " + std::to_string(got.d[first]) + ", expected " +
                    std::to_string(expected.d[first]));
}

std::unique_ptr<Runner> make_apsp_runner(const ApspVariant& variant, const Config& config,
                                         const InputSet& inputs) {
  const auto* apsp_inputs = dynamic_cast<const ApspInputSet*>(&inputs);
  if (!apsp_inputs)
    throw std::invalid_argument("apsp: inputs '" + inputs.key() +
                                "' do not come from the apsp workload's load_inputs");
  if (config.workload != "apsp")
    throw std::invalid_argument("apsp: config '" + config.label() + "' is for workload '" +
                                config.workload + "'");
  if (config.variant != variant.name())
    throw std::invalid_argument("apsp: config '" + config.label() + "' is not for variant " +
                                variant.name());
  return std::make_unique<ApspRunner>(variant.make_solver(config), *apsp_inputs);
}

}  // namespace flowtune
