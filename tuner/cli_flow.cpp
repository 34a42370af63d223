#include <iostream>

#include "kernels/flo_io.hpp"
#include "kernels/flow_viz.hpp"
#include "kernels/metrics.hpp"
#include "kernels/png_io.hpp"
#include "tuner/cli.hpp"
#include "tuner/cli_options.hpp"
#include "tuner/tuned_header.hpp"
#include "variants/variant.hpp"

namespace flowtune::cli {
namespace {

// The config from --variant/--precision/--tunable/algorithm options: each tunable not given
// takes the first value of its domain.
Config config_from_options(const SpaceArgs& args) {
  const SpaceOptions s = to_space_options(args);
  Config c;
  c.variant = args.variants.empty() ? "kokkos_global" : args.variants.front();
  const Variant* v = find_variant(c.variant);
  if (!v) throw UsageError("unknown variant '" + c.variant + "'");
  c.precision = args.precisions.empty() ? v->precisions().front() : args.precisions.front();
  for (const TunableDomain& d : v->tunables()) {
    auto it = s.tunable_values.find(d.name);
    c.tunables[d.name] = it != s.tunable_values.end() ? it->second.front() : d.values.front();
  }
  c.params = s.params;
  c.params.iterations = s.iterations.front();
  return c;
}

}  // namespace

int run_flow(const std::vector<std::string>& args) {
  std::string tuned, out_flo, viz, gt;
  std::vector<std::string> frames;
  SpaceArgs space;
  space.iterations = "50";
  po::options_description desc("flow options");
  desc.add_options()("help,h", "this help")
      ("tuned", po::value(&tuned), "tuned header from `tune export` (its config is used)")
      ("output,o", po::value(&out_flo)->required(), ".flo file to write")
      ("viz", po::value(&viz), "PNG of the flow with the Middlebury colour wheel")
      ("gt", po::value(&gt), "ground-truth .flo: print AEPE/AAE against it")
      ("frames", po::value(&frames)->composing(), "the two frames (positional)");
  add_space_options(desc, space);
  po::positional_options_description pos;
  pos.add("frames", 2);
  po::variables_map vm;
  if (parse(args, desc, pos, vm, "tune flow [--tuned H | --variant V ...] I0.png I1.png -o out.flo [--viz out.png]"))
    return 0;
  if (frames.size() != 2) throw UsageError("tune flow needs two frames: I0.png I1.png");
  const Config config = tuned.empty() ? config_from_options(space) : read_tuned_header(tuned);
  const Variant* variant = find_variant(config.variant);
  if (!variant) throw std::runtime_error("variant '" + config.variant + "' is not in this build");
  if (auto reason = variant->invalid_reason(config)) throw std::runtime_error(*reason);

  const Image i0 = read_png_gray(frames[0]);
  const Image i1 = read_png_gray(frames[1]);
  if (i0.width != i1.width || i0.height != i1.height)
    throw std::runtime_error(frames[1] + ": frames of different sizes (" + std::to_string(i0.width) +
                             "x" + std::to_string(i0.height) + " vs " + std::to_string(i1.width) +
                             "x" + std::to_string(i1.height) + ")");
  const FlowField flow = variant->make_solver(config)->compute(i0, i1);
  write_flo(out_flo, flow);
  std::cout << config.label() << " it=" << config.params.iterations << ": wrote " << out_flo;
  if (!viz.empty()) {
    write_flow_png(viz, flow);
    std::cout << " and " << viz;
  }
  std::cout << '\n';
  if (!gt.empty()) {
    const FlowError e = flow_error(flow, read_flo(gt));
    std::cout << "AEPE " << e.aepe << " px, AAE " << e.aae_deg << " deg over " << e.n_valid << " pixels\n";
  }
  return 0;
}

}  // namespace flowtune::cli
