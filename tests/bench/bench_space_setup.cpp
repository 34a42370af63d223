// The setup of a tuning run on a big space, without a GPU and without measuring (a dry run):
// per step, the wall time and the process's memory (resident set now and its peak,
// /proc/self/status VmRSS and VmHWM). Steps as `tune --board B` and `tune space` take them:
// the space generated (tuner/space.hpp make_space), its constraint checks (every config, on
// every core, as `tune space` does; NVRTC builds are cached on disk), the SearchSpace of the
// strategies, then for each registered strategy its construction, its first ask() (the
// time-to-first-point of the strategy) and 50 ask/tell rounds with made-up objectives
// (relative_cost and a value per point), so the strategies' own cost on the space shows.
// Not a Google Benchmark: one line per step, for reports.
// Usage: bench_space_setup [BOARD] [--without-additions] [--strategies a,b]
//   BOARD                 a board profile (default h200)
//   --without-additions   median_window, nl_median_window and texture_alpha pinned to 0:
//                         the default space without the accuracy additions
//   --strategies LIST     the strategies to run (default: every registered one)
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "boards/board.hpp"
#include "tuner/constraint_checks.hpp"
#include "tuner/search_space.hpp"
#include "tuner/space.hpp"
#include "tuner/strategy.hpp"

using namespace flowtune;

namespace {

// VmRSS and VmHWM of this process in MB (0 where /proc is absent).
std::pair<double, double> memory_mb() {
  std::ifstream in("/proc/self/status");
  std::string line;
  double rss = 0, hwm = 0;
  while (std::getline(in, line)) {
    std::istringstream is(line);
    std::string key;
    double kb = 0;
    is >> key >> kb;
    if (key == "VmRSS:") rss = kb / 1024;
    if (key == "VmHWM:") hwm = kb / 1024;
  }
  return {rss, hwm};
}

struct Clock {
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
};

void report(const std::string& step, double seconds, const std::string& note = "") {
  const auto [rss, hwm] = memory_mb();
  std::printf("| %s | %.3f | %.0f | %.0f | %s |\n", step.c_str(), seconds, rss, hwm, note.c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  std::string board_name = "h200";
  bool without = false;
  std::vector<std::string> strategies;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--without-additions") {
      without = true;
    } else if (a == "--strategies" && i + 1 < argc) {
      std::istringstream is(argv[++i]);
      for (std::string s; std::getline(is, s, ',');) strategies.push_back(s);
    } else if (!a.empty() && a[0] != '-') {
      board_name = a;
    } else {
      std::cerr << "usage: bench_space_setup [BOARD] [--without-additions] [--strategies a,b]\n";
      return 2;
    }
  }
  if (strategies.empty()) strategies = strategy_names();
  const Board board = load_board(board_name);
  SpaceOptions options;
  if (without)
    options.param_values = {
        {"median_window", {0}}, {"nl_median_window", {0}}, {"texture_alpha", {0}}};
  const Workload& workload = find_workload(options.workload);

  std::printf("| step | s | RSS MB | peak RSS MB | note |\n|---|---:|---:|---:|---|\n");
  Clock t;
  const ConfigSpace space = make_space(board, options);
  report("make_space", t.seconds(), std::to_string(space.size()) + " configs on " + board.name);

  t = Clock();
  std::size_t kept = 0;
  {
    ConstraintChecks checks(board, workload, space,
                            std::max(1u, std::thread::hardware_concurrency()));
    for (std::size_t i = 0; i < space.size(); ++i) {
      try {
        kept += !checks.get(i).prune_reason;
      } catch (const std::exception&) {
      }
    }
    report("constraint checks, every config", t.seconds(), std::to_string(kept) + " kept");
  }

  t = Clock();
  const SearchSpace search(
      space.size(),
      [&](const std::function<void(std::size_t, const Config&)>& visit) { space.for_each(visit); });
  report("SearchSpace", t.seconds(), std::to_string(search.dimensions().size()) + " dimensions");

  std::vector<double> cost(space.size());
  space.for_each([&](std::size_t i, const Config& c) { cost[i] = workload.relative_cost(c); });
  for (const std::string& name : strategies) {
    StrategyOptions so;
    so.n_objectives = 2;
    so.budget = 1500;
    so.prior = cost;  // model_guided's stand-in prior: the cost model
    t = Clock();
    std::unique_ptr<Strategy> strategy = make_strategy(name, search, so);
    std::optional<std::size_t> p = strategy->ask();
    const double first = t.seconds();
    std::size_t asked = 0;
    for (; p && asked < 50; ++asked) {
      Observation o;
      o.point = *p;
      o.objectives = {cost[*p], 1 / (1 + std::log1p(cost[*p]))};
      o.values = o.objectives;
      strategy->tell(o);
      p = strategy->ask();
    }
    report("strategy " + name + ": first point", first);
    report("strategy " + name + ": 50 ask/tell", t.seconds() - first,
           std::to_string(asked) + " points");
  }
  return 0;
}
