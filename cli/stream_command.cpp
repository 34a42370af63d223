// `tune stream`: one config over a stream of frames (a folder of numbered frames or a video,
// consecutive pairs), frame after frame as a camera delivers them, the time per frame in
// steady state and the accuracy per pair.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "cli/commands.hpp"
#include "cli/one_config.hpp"
#include "cli/options.hpp"
#include "select/tuned_header_reader.hpp"
#include "variants/variant.hpp"

namespace flowtune::cli {
namespace {

/// The q-quantile (0..1) of sorted values, linear between neighbours.
double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double pos = q * double(sorted.size() - 1);
  const std::size_t lo = std::size_t(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (pos - double(lo)) * (sorted[hi] - sorted[lo]);
}

std::string ms_text(double ms) {
  std::ostringstream os;
  os << std::setprecision(4) << ms << " ms";
  return os.str();
}

}  // namespace

int run_stream(const std::vector<std::string>& args) {
  std::string tuned, board;
  int passes = 3;
  InputArgs inputs;
  SpaceArgs space;
  po::options_description desc = command_options("stream options");
  desc.add_options()(
      "tuned", po::value(&tuned),
      "tuned header from `tune export` (its config is used; no other config option may be given)")(
      "passes", po::value(&passes)->default_value(passes),
      "times through the stream (>= 2): the first warms up (builds, allocations, the first "
      "frame of each size), the others are timed");
  desc.add(board_options(board, "--tuned: the board of a header exported for several boards"))
      .add(input_options(inputs, kInputData | kInputMaxPixels | kInputFootage))
      .add(space_options(space));
  po::variables_map vm;
  const po::positional_options_description no_positionals;
  if (parse(args, desc, no_positionals, vm,
            "tune stream --data FRAMES_OR_VIDEO [--tuned H | --workload W --variant V --param "
            "NAME=V ...] [--passes N]"))
    return 0;
  if (inputs.data_dir.empty() && inputs.pairs.empty())
    throw UsageError("tune stream needs --data: a folder of numbered frames or a video");
  if (passes < 2) throw UsageError("--passes must be >= 2, got " + std::to_string(passes));
  if (!tuned.empty())
    for (const char* opt : {"variant", "precision", "tunable", "param"})
      if (vm.count(opt))
        throw UsageError(std::string("--tuned fixes the config; --") + opt +
                         " cannot be combined with it");
  InputOptions in = inputs.to_input_options();
  Config config;
  if (tuned.empty()) {
    config = config_from_options(space);
  } else {
    // In a header tuned at several sizes, the size of --resolution, else the first listed.
    const std::vector<TunedHeaderEntry> entries = read_tuned_header_entries(tuned);
    config =
        select_tuned_entry(entries, board, in.resolution_width, in.resolution_height, tuned).config;
  }
  const Workload& workload = find_workload(config.workload);
  if (auto why = workload.check_params(config)) throw std::runtime_error(*why);
  const Variant* variant = find_workload_variant(workload, config.variant);
  if (!variant) throw std::runtime_error("variant '" + config.variant + "' is not in this build");
  if (auto reason = variant->invalid_reason(config)) throw std::runtime_error(*reason);
  if (auto reason = workload.invalid_reason(config)) throw std::runtime_error(*reason);
  in.progress = [](const std::string& line) { std::cerr << line << '\n'; };
  const std::unique_ptr<InputSet> set = workload.load_inputs(in);
  const std::size_t n = set->size();
  if (n == 0) throw std::runtime_error(inputs.data_dir + ": no frame pair");
  std::unique_ptr<Runner> runner = workload.make_runner(config, *set);

  using clock = std::chrono::steady_clock;
  std::vector<double> first_pass, timed;
  std::map<std::string, double> metric_sums;
  for (int pass = 0; pass < passes; ++pass)
    for (std::size_t item = 0; item < n; ++item) {
      const auto t0 = clock::now();
      runner->run(item);
      const double ms = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
      (pass == 0 ? first_pass : timed).push_back(ms);
      if (pass == 0)
        for (const auto& [name, value] : runner->score(item)) metric_sums[name] += value;
    }
  std::vector<double> sorted = timed;
  std::sort(sorted.begin(), sorted.end());
  const double median = quantile(sorted, 0.5);
  std::cout << config.label() << " (" << config.params_text() << ")\n"
            << "stream: " << n << " pair" << (n == 1 ? "" : "s") << ", " << set->description()
            << "\n"
            << "first pass: first frame " << ms_text(first_pass.front()) << ", pass "
            << ms_text(std::accumulate(first_pass.begin(), first_pass.end(), 0.0)) << "\n"
            << "steady state (passes 2-" << passes << ", " << timed.size() << " frames): median "
            << ms_text(median) << " per frame [p10 " << ms_text(quantile(sorted, 0.1)) << ", p90 "
            << ms_text(quantile(sorted, 0.9)) << "], " << std::setprecision(4)
            << (median > 0 ? 1000.0 / median : 0) << " frames/s\n";
  for (const auto& [name, sum] : metric_sums)
    std::cout << name << " " << std::setprecision(6) << sum / double(n) << " (mean over the " << n
              << " pairs)\n";
  return 0;
}

}  // namespace flowtune::cli
