// `tune run` (alias `tune flow`): one config of a workload on files given on the command line.
#include <iostream>

#include "tuner/cli.hpp"
#include "tuner/cli_options.hpp"
#include "tuner/tuned_header.hpp"
#include "variants/variant.hpp"

namespace flowtune::cli {
namespace {

// The config from --workload/--variant/--precision/--tunable/--param: the first value of
// each list; a tunable not given takes the first value of its domain, a parameter its default.
Config config_from_options(const SpaceArgs& args) {
  const SpaceOptions s = to_space_options(args);
  const Workload& workload = find_workload(s.workload);
  Config c;
  c.workload = workload.name();
  const std::vector<const Variant*> variants = workload.variants();
  if (args.variants.empty()) {
    for (const Variant* v : variants)
      if (v->target() == "cpu") {
        c.variant = v->name();
        break;
      }
  } else {
    c.variant = args.variants.front();
  }
  const Variant* v = find_workload_variant(workload, c.variant);
  if (!v || v->workload() != workload.name())
    throw UsageError("unknown variant '" + c.variant + "' of workload '" + workload.name() + "'");
  c.precision = args.precisions.empty() ? v->precisions().front() : args.precisions.front();
  for (const TunableDomain& d : v->tunables()) {
    auto it = s.tunable_values.find(d.name);
    c.tunables[d.name] = it != s.tunable_values.end() ? it->second.front() : d.values.front();
  }
  c.params = workload.default_params();
  for (const auto& [name, values] : s.param_values) c.params[name] = values.front();
  return c;
}

}  // namespace

int run_flow(const std::vector<std::string>& args) {
  std::string tuned;
  Workload::FileRun run;
  SpaceArgs space;
  po::options_description desc("run options");
  desc.add_options()("help,h", "this help")(
      "tuned", po::value(&tuned),
      "tuned header from `tune export` (its config is used; no other config option may be given)")(
      "output,o", po::value(&run.output), "result file to write (optical flow: a .flo)")(
      "viz", po::value(&run.visualisation),
      "image of the result (optical flow: PNG with the Middlebury colour wheel)")(
      "max-flow", po::value(&run.visualisation_scale)->default_value(0),
      "--viz: value of full saturation (optical flow: magnitude in px; 0 = the largest)")(
      "max-pixels", po::value(&run.max_pixels)->default_value(0),
      "largest input image read, width x height (0 = 64 Mpx)")(
      "gt", po::value(&run.reference),
      "reference to score against (optical flow: ground-truth .flo)")(
      "inputs", po::value(&run.inputs)->composing(),
      "input files (positional; optical flow: I0.png I1.png)");
  add_space_options(desc, space);
  po::positional_options_description pos;
  pos.add("inputs", -1);
  po::variables_map vm;
  if (parse(args, desc, pos, vm,
            "tune run|flow [--tuned H | --workload W --variant V --param NAME=V ...] INPUTS... [-o "
            "OUT] [--viz OUT.png] [--gt REF]"))
    return 0;
  if (run.output.empty() && run.visualisation.empty() && run.reference.empty())
    throw UsageError("nothing to do: give -o, --viz or --gt");
  if (!tuned.empty()) {
    for (const char* opt : {"variant", "precision", "tunable", "param"})
      if (vm.count(opt))
        throw UsageError(std::string("--tuned fixes the config; --") + opt +
                         " cannot be combined with it");
  }
  const Config config = tuned.empty() ? config_from_options(space) : read_tuned_header(tuned);
  const Workload& workload = find_workload(config.workload);
  if (auto why = workload.check_params(config)) throw std::runtime_error(*why);
  const Variant* variant = find_workload_variant(workload, config.variant);
  if (!variant) throw std::runtime_error("variant '" + config.variant + "' is not in this build");
  if (auto reason = variant->invalid_reason(config)) throw std::runtime_error(*reason);
  std::cout << workload.run_on_files(config, run) << '\n';
  return 0;
}

}  // namespace flowtune::cli
