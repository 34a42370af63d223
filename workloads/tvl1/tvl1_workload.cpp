#include "workloads/tvl1/tvl1_workload.hpp"

#include <chrono>
#include <cmath>
#include <cstddef>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "kernels/flo_io.hpp"
#include "kernels/flow_viz.hpp"
#include "kernels/image_limits.hpp"
#include "kernels/metrics.hpp"
#include "kernels/png_io.hpp"
#include "workloads/tvl1/flow_dataset.hpp"
#include "workloads/tvl1/flow_files.hpp"
#include "workloads/tvl1/flow_output_pictures.hpp"
#include "workloads/tvl1/flow_runner.hpp"
#include "workloads/tvl1/sequence_set.hpp"
#include "workloads/tvl1/sequences.hpp"

namespace flowtune {
namespace {

class Tvl1Workload final : public Workload {
 public:
  std::string name() const override { return "tvl1"; }
  std::string description() const override {
    return "TV-L1 optical flow (Zach et al. 2007; IPOL 2013 scheme; Romera et al. 2023 GPU "
           "schemes)";
  }
  std::string work_unit() const override { return "px"; }
  const std::vector<ParamSpec>& params() const override { return tvl1_param_specs(); }
  const std::vector<MetricSpec>& metrics() const override {
    static const std::vector<MetricSpec> m = {
        {"aepe", "px", true, "average endpoint error vs ground truth (Baker et al. 2011, eq. 2)"},
        {"aae_deg", "deg", true,
         "average angular error vs ground truth (Baker et al. 2011, eq. 1)"},
        {"fl_all", "%", true,
         "KITTI 2015: pixels with endpoint error > 3 px and > 5% of the true flow (Menze and "
         "Geiger 2015)"},
        {"epe_noc", "px", true,
         "MPI-Sintel: average endpoint error over the non-occluded pixels (Butler et al. 2012)"},
        {"ref_aepe", "px", true,
         "inputs without ground truth: average endpoint error vs the reference flow of a stated "
         "high-accuracy config (workloads/tvl1/reference_flow.hpp)"},
        {"photometric", "gray level", true,
         "mean Charbonnier penalty of I1(x + u) - I0 over the pixels the reference flow's "
         "forward-backward check keeps (Sundaram et al. 2010)"}};
    return m;
  }
  std::vector<std::string> front_objectives() const override { return {"time_ms", "aepe"}; }
  std::vector<const Variant*> variants() const override {
    std::vector<const Variant*> out;
    for (const Variant* v : all_variants())
      if (v->workload() == name()) out.push_back(v);
    return out;
  }
  ParamDimensions default_dimensions(const std::string& target) const override {
    // What a practitioner would try, as ranges (the reasons: docs/decisions.md, "Default
    // TV-L1 dimensions"). GPU: fixed iterations (epsilon 0 only: the stopping test reads a
    // value back per test, so its frame is no CUDA Graph; `--param epsilon=...` asks for it).
    // The pyramid is its zoom with its depth (0 = automatic, down to ~16 px, or 3..8 levels);
    // warpings x iterations from the cheap end (1 warping, 5 iterations) to IPOL's; the
    // accuracy additions (median, weighted median, structure-texture decomposition with its
    // ROF iterations) from off to their papers' settings and beyond. Log ranges are counted
    // points at 2 significant digits, whole numbers. Left out of a space, iterations keeps
    // IPOL's 300 and each other parameter its ParamSpec default or, where that lies outside
    // the dimension (epsilon), the dimension's first value.
    using D = ParamDimension;
    if (target == "cuda")
      return {{"iterations", D::log(5, 100, 10, true).with_fixed_value(300)},
              {"n_warpings", D::integers(1, 6)},
              {"zoom", D::linear(0.5, 0.9, 0.05)},
              {"n_scales", D({0}) | D::integers(3, 8)},
              {"epsilon", {0}},
              {"median_window", {0, 3, 5}},
              {"nl_median_window", {0, 3, 5, 7}},
              {"texture_alpha", D::linear(0, 0.95, 0.05)},
              {"rof_iterations", D({0}) | D::log(1, 100, 7, true)}};
    // A CPU point takes seconds per frame on each sequence, so the host's 5-minute default
    // budget measures few points: iterations and warpings over a CPU's useful span and, of
    // the additions, only the median, which costs little beside 20-300 iterations and made
    // no sequence worse on the CPU. The weighted median multiplies the CPU frame by 3.1-3.6
    // and the decomposition alone made Urban3 worse by 0.03: `--param` asks for them
    // (docs/decisions.md).
    return {{"iterations", D::log(20, 300, 6, true)},
            {"n_warpings", D::integers(1, 5)},
            {"median_window", {0, 3, 5}}};
  }
  double relative_cost(const Config& config) const override {
    // Inner iterations per pixel of the frame: each level of the pyramid costs zoom^2 of
    // the one above (geometric series; an upper bound when epsilon > 0 stops early).
    const double z = config.param("zoom");
    const double levels = config.param("n_scales");
    const double pyramid =
        levels > 0 ? (1 - std::pow(z * z, levels)) / (1 - z * z) : 1 / (1 - z * z);
    return config.param("n_warpings") * config.param("iterations") * pyramid;
  }
  std::optional<std::string> invalid_reason(const Config& config) const override {
    const auto m = config.params.find("median_window");
    if (m != config.params.end() && m->second != 0 && m->second != 3 && m->second != 5)
      return "tvl1: median_window=" + shortest_decimal(m->second) + " must be 0 (off), 3 or 5";
    const auto nl = config.params.find("nl_median_window");
    if (nl != config.params.end() && nl->second != 0 &&
        (nl->second < 3 || std::fmod(nl->second, 2.0) != 1.0))
      return "tvl1: nl_median_window=" + shortest_decimal(nl->second) +
             " must be 0 (off) or odd (3..11)";
    const auto warm = config.params.find("warm_start");
    if (warm != config.params.end() && warm->second != 0) {
      if (warm->second != 1)
        return "tvl1: warm_start=" + shortest_decimal(warm->second) + " must be 0 (off) or 1";
      const FlowVariant* v = find_flow_variant(config.variant);
      if (v && !v->takes_initial_flow())
        return "tvl1: warm_start=1: variant " + config.variant + " does not take an initial flow";
    }
    const auto occl = config.params.find("nl_occlusion");
    if (occl != config.params.end() && occl->second != 0 && occl->second != 1)
      return "tvl1: nl_occlusion=" + shortest_decimal(occl->second) + " must be 0 (off) or 1";
    return std::nullopt;
  }
  std::unique_ptr<InputSet> load_inputs(const InputOptions& o) const override {
    if (o.max_pixels > 0) set_default_image_limits({o.max_pixels});
    return std::make_unique<SequenceSet>(load_flow_dataset(o));
  }
  std::unique_ptr<Runner> make_runner(const Config& config, const InputSet& inputs) const override {
    const auto* set = dynamic_cast<const SequenceSet*>(&inputs);
    if (!set) throw std::invalid_argument("tvl1: the input set is not a TV-L1 sequence set");
    const auto warm = config.params.find("warm_start");
    return make_flow_runner(solver_for(config), *set,
                            warm != config.params.end() && warm->second == 1);
  }
  Resolution input_size(const FileRun& run) const override {
    if (run.inputs.empty()) return {};
    const Image frame = read_png_gray(run.inputs[0]);
    return {frame.width, frame.height};
  }
  std::string run_on_files(const Config& config, const FileRun& run) const override {
    if (run.max_pixels > 0) set_default_image_limits({run.max_pixels});
    const FlowRunFiles files = read_flow_run_files(name(), run);
    const std::unique_ptr<FlowSolver> solver = solver_for(config);
    const auto start = std::chrono::steady_clock::now();
    FlowField flow;
    if (!files.init_flow) {
      flow = solver->compute(files.i0, files.i1);
    } else {
      try {
        flow = solver->compute_from(files.i0, files.i1, *files.init_flow);
      } catch (const std::invalid_argument& e) {
        throw std::runtime_error(run.init_flow + ": " + e.what() + " (variant " + config.variant +
                                 ")");
      }
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::ostringstream os;
    os << config.label() << " (" << config.params_text() << ")" << time_per_frame_text(seconds);
    if (!run.output.empty()) {
      write_flo(run.output, flow);
      os << ": wrote " << run.output;
    }
    if (!run.visualisation.empty()) {
      write_flow_png(run.visualisation, flow, run.visualisation_scale, true);
      os << (run.output.empty() ? ": wrote " : " and ") << run.visualisation
         << " (colour-wheel key to the right of the flow; full saturation at "
         << flow_viz_radius(flow, run.visualisation_scale) << " px)";
    }
    if (!run.reference.empty()) {
      const FlowError e = flow_error(flow, *files.reference);
      os << "\naepe " << e.aepe << " px, aae_deg " << e.aae_deg << " deg over " << e.n_valid
         << " pixels";
    }
    return os.str();
  }

 private:
  static std::unique_ptr<FlowSolver> solver_for(const Config& config) {
    const FlowVariant* v = find_flow_variant(config.variant);
    if (!v) throw std::invalid_argument("tvl1: '" + config.variant + "' is not a TV-L1 variant");
    return v->make_solver(config);
  }
};

}  // namespace

const Workload& tvl1_workload() {
  static const Tvl1Workload workload;
  return workload;
}

FLOWTUNE_REGISTER_WORKLOAD(100, tvl1_workload());

}  // namespace flowtune
