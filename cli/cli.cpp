// cli::run: the sub-command dispatch of `tune`, its help and version.
#include "cli/cli.hpp"

#include <iostream>

#include "cli/commands.hpp"
#include "db/store_url.hpp"

namespace flowtune::cli {
namespace {

constexpr const char* kHelp =
    "flowtune: autotuning and design-space exploration of GPU workloads (TV-L1 optical flow,\n"
    "all-pairs shortest paths)\n"
    "\n"
    "  tune [--board B] [--workload W] [options]  tune, store every result, print the Pareto "
    "front\n"
    "  tune boards [show NAME]           list the board profiles / print one\n"
    "  tune params [--workload W]        the parameters of each workload (defaults, ranges, "
    "sources)\n"
    "  tune space --board B              the space with the reason for every pruned config\n"
    "  tune predict --board B            predicted front, tuning time, frame per budget (model)\n"
    "  tune search --search NAME=LO:HI:log:N --metric METRIC --train A,B --test C,D\n"
    "                                    grid + refinement search of parameters, held out\n"
    "  tune replay --db recorded.db --strategy S --seeds 20 --budget 10%\n"
    "                                    replay strategies on a recorded run (no GPU)\n"
    "  tune export --board B --objective time|energy|METRIC -o tuned.h\n"
    "  tune export --board B --format t4|kt-cache -o space.json   for Kernel Tuner\n"
    "  tune import FILE --board B        Kernel Tuner cache / T4 results into the DB\n"
    "  tune report --board B -o DIR      Pareto report (CSV, Markdown, SVG) from the DB\n"
    "  tune --workers N ...              distributed: N worker processes (one per GPU)\n"
    "  tune worker --storage DB --run ID one more worker of a distributed run (any host)\n"
    "  tune status --storage DB [--run ID]  tasks and workers of distributed runs, ETA\n"
    "  tune run|flow [--tuned H] I0.png I1.png -o flow.flo [--viz flow.png] [--gt flow10.flo]\n"
    "  tune stream --data FRAMES|VIDEO [--tuned H]  time per frame in steady state on a stream\n"
    "  tune --version                    version and git revision\n"
    "\n"
    "`tune SUBCOMMAND --help` gives the options of each.";

}  // namespace

std::string version() {
  return std::string(FLOWTUNE_VERSION) + " (" + FLOWTUNE_GIT_REVISION + ")";
}

int run(int argc, char** argv) {
  return run(std::vector<std::string>(argv + (argc > 0 ? 1 : 0), argv + (argc > 0 ? argc : 0)));
}

int run(const std::vector<std::string>& args) {
  try {
    if (!args.empty()) {
      const std::string& sub = args.front();
      const std::vector<std::string> rest(args.begin() + 1, args.end());
      if (sub == "help") {
        std::cout << kHelp << '\n';
        return 0;
      }
      if (sub == "--version" || sub == "version") {
        std::cout << "flowtune " << version() << '\n';
        return 0;
      }
      if (sub == "--help" || sub == "-h") {
        std::cout << kHelp << "\n\n";
        return run_tune(args);
      }
      if (sub == "tune") return run_tune(rest);
      if (sub == "boards") return run_boards(rest);
      if (sub == "space") return run_space(rest);
      if (sub == "predict") return run_predict(rest);
      if (sub == "export") return run_export(rest);
      if (sub == "report") return run_report(rest);
      if (sub == "flow" || sub == "run") return run_flow(rest);
      if (sub == "stream") return run_stream(rest);
      if (sub == "params") return run_params(rest);
      if (sub == "worker") return run_worker_command(rest);
      if (sub == "search") return run_search(rest);
      if (sub == "replay") return run_replay(rest);
      if (sub == "import") return run_import(rest);
      if (sub == "status") return run_status(rest);
      if (sub.rfind("-", 0) != 0) throw UsageError("unknown sub-command '" + sub + "'\n" + kHelp);
    }
    return run_tune(args);
  } catch (const UsageError& e) {  // a PostgreSQL password never shows in a message
    std::cerr << "tune: " << db::redact_store_urls(e.what()) << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "tune: error: " << db::redact_store_urls(e.what()) << '\n';
    return 1;
  }
}

}  // namespace flowtune::cli
