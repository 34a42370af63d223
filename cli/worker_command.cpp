// `tune worker --storage S --run ID`: one distributed worker (tuner/store_worker.hpp).
// Without arguments, `tune worker` is the internal measuring process (tuner/worker.hpp).
#include <cmath>
#include <iostream>

#include "cli/cli.hpp"
#include "cli/options.hpp"
#include "tuner/store_worker.hpp"

namespace flowtune::cli {

int run_worker_command(const std::vector<std::string>& args) {
  if (args.empty()) return run_worker();  // internal: the tuner's measuring process
  StoreWorkerOptions o;
  long long run = 0;
  po::options_description desc("worker options");
  desc.add_options()("help,h", "this help")("storage", po::value(&o.storage),
                                            "the run's store: SQLite path")(
      "db", po::value(&o.storage), "same as --storage")("run", po::value(&run),
                                                        "the run id printed by the coordinator")(
      "lease-s", po::value(&o.lease_s)->default_value(o.lease_s),
      "a claim expires after this long without a heartbeat (heartbeats: every lease/3)")(
      "poll-s", po::value(&o.poll_s)->default_value(o.poll_s),
      "wait between claims while no point is pending");
  po::variables_map vm;
  if (parse(args, desc, {}, vm, "tune worker --storage DB --run ID [--lease-s S]")) return 0;
  if (o.storage.empty()) throw UsageError("tune worker: --storage is required");
  if (run <= 0) throw UsageError("tune worker: --run ID (> 0) is required");
  if (!(o.lease_s > 0) || !std::isfinite(o.lease_s) || !(o.poll_s > 0))
    throw UsageError("tune worker: --lease-s and --poll-s must be > 0");
  o.run_id = run;
  return run_store_worker(o, std::cerr);
}

}  // namespace flowtune::cli
