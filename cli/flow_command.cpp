// `tune run` (alias `tune flow`): one config of a workload on files given on the command line.
#include <algorithm>
#include <boost/algorithm/string/predicate.hpp>
#include <filesystem>
#include <iostream>
#include <optional>

#include "cli/cli.hpp"
#include "cli/commands.hpp"
#include "cli/one_config.hpp"
#include "cli/options.hpp"
#include "select/tuned_header_reader.hpp"
#include "variants/variant.hpp"

namespace flowtune::cli {
namespace {

// True when path ends in ext (".flo"), letters in any case.
bool has_extension(const std::string& path, const std::string& ext) {
  return path.size() >= ext.size() &&
         boost::algorithm::iequals(path.substr(path.size() - ext.size()), ext);
}

// The formats are fixed: -o writes the flow as a Middlebury .flo (every workload `tune run`
// runs computes a flow), --viz the colour-coded flow as a PNG. A name whose extension says
// otherwise is refused before anything is computed, so that no .flo hides behind a .png name.
void check_output_extensions(const Workload::FileRun& run) {
  if (!run.output.empty() && !has_extension(run.output, ".flo"))
    throw UsageError("-o " + run.output +
                     ": the result is written as a Middlebury .flo file; give a name ending in "
                     ".flo (the colour-coded flow as a PNG: --viz " +
                     run.output + ")");
  if (!run.visualisation.empty() && !has_extension(run.visualisation, ".png"))
    throw UsageError("--viz " + run.visualisation +
                     ": the colour-coded flow is written as a PNG; give a name ending in .png (the "
                     "flow itself: -o NAME.flo)");
}

// The config of a tuned header for the board asked for; in a header tuned at several sizes
// (tune export --resolution), the size nearest to the first input frame's.
Config tuned_config(const std::string& header, const std::string& board,
                    const Workload::FileRun& run) {
  const std::vector<TunedHeaderEntry> entries = read_tuned_header_entries(header);
  int width = 0, height = 0;
  int sized = 0;
  for (const TunedHeaderEntry& e : entries) sized += e.width > 0;
  if (sized > 1) {
    // Every entry of a header is of one workload (tune export exports one).
    const Resolution r = find_workload(entries.front().config.workload).input_size(run);
    width = r.width;
    height = r.height;
  }
  const TunedHeaderEntry& e = select_tuned_entry(entries, board, width, height, header);
  if (e.width > 0)
    std::cerr << "tuned config of " << e.board << " at " << e.width << "x" << e.height
              << (width > 0 ? " (nearest to the frames' " + std::to_string(width) + "x" +
                                  std::to_string(height) + ")"
                            : std::string())
              << "\n";
  return e.config;
}

}  // namespace

int run_flow(const std::vector<std::string>& args) {
  std::string tuned, tuned_board;
  Workload::FileRun run;
  InputArgs inputs;
  SpaceArgs space;
  po::options_description desc = command_options("run options");
  desc.add_options()(
      "tuned", po::value(&tuned),
      "tuned header from `tune export` (its config is used; no other config option may be given)")(
      "output,o", po::value(&run.output), "result file to write (optical flow: a .flo)")(
      "viz", po::value(&run.visualisation),
      "image of the result (optical flow: PNG with the Middlebury colour wheel)")(
      "max-flow", po::value(&run.visualisation_scale)->default_value(0),
      "--viz: value of full saturation (optical flow: magnitude in px; 0 = the largest)")(
      "gt", po::value(&run.reference),
      "reference to score against (optical flow: ground-truth .flo, or a KITTI 2015 flow .png)")(
      "init-flow", po::value(&run.init_flow),
      "optical flow: a .flo to start from instead of 0 (e.g. the previous pair's flow; "
      "kokkos_global and the CUDA variants)")(
      "inputs", po::value(&run.inputs)->composing(),
      "input files (positional; optical flow: I0.png I1.png)");
  desc.add(board_options(tuned_board, "--tuned: the board of a header exported for several boards"))
      .add(input_options(inputs, kInputMaxPixels))
      .add(space_options(space));
  po::positional_options_description pos;
  pos.add("inputs", -1);
  po::variables_map vm;
  if (parse(args, desc, pos, vm,
            "tune run|flow [--tuned H | --workload W --variant V --param NAME=V ...] INPUTS... [-o "
            "OUT] [--viz OUT.png] [--gt REF]"))
    return 0;
  if (run.output.empty() && run.visualisation.empty() && run.reference.empty())
    throw UsageError("nothing to do: give -o, --viz or --gt");
  run.max_pixels = inputs.max_pixels;
  check_output_extensions(run);
  // Where the results go is checked before the flow is computed, not after.
  for (const std::string& out : {run.output, run.visualisation}) {
    if (out.empty()) continue;
    const std::filesystem::path parent = std::filesystem::path(out).parent_path();
    std::error_code ec;
    if (!parent.empty() && !std::filesystem::is_directory(parent, ec))
      throw std::runtime_error(out + ": folder " + parent.string() +
                               " does not exist (nothing computed)");
  }
  if (!tuned.empty()) {
    for (const char* opt : {"variant", "precision", "tunable", "param"})
      if (vm.count(opt))
        throw UsageError(std::string("--tuned fixes the config; --") + opt +
                         " cannot be combined with it");
  }
  const Config config =
      tuned.empty() ? config_from_options(space) : tuned_config(tuned, tuned_board, run);
  const Workload& workload = find_workload(config.workload);
  if (auto why = workload.check_params(config)) throw std::runtime_error(*why);
  const Variant* variant = find_workload_variant(workload, config.variant);
  if (!variant) throw std::runtime_error("variant '" + config.variant + "' is not in this build");
  if (auto reason = variant->invalid_reason(config)) throw std::runtime_error(*reason);
  std::cout << workload.run_on_files(config, run) << '\n';
  return 0;
}

}  // namespace flowtune::cli
