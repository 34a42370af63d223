// `tune worker --storage S --run ID`: one distributed worker (tuner/store_worker.hpp).
// Without arguments, `tune worker` is the internal measuring process (tuner/worker.hpp).
#include <cmath>
#include <iostream>

#include "cli/cli.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "db/repository.hpp"
#include "tuner/store_worker.hpp"
#include "variants/config.hpp"

namespace flowtune::cli {

int run_worker_command(const std::vector<std::string>& args) {
  if (args.empty()) return run_worker();  // internal: the tuner's measuring process
  StoreWorkerOptions o;
  StoreArgs store;
  long long run = 0;
  po::options_description desc = command_options("worker options");
  desc.add_options()("run", po::value(&run), "the run id printed by the coordinator")(
      "lease-s", po::value(&o.lease_s)->default_value(o.lease_s),
      "a claim expires after this long without a heartbeat (heartbeats: every lease/3)")(
      "poll-s", po::value(&o.poll_s)->default_value(o.poll_s, shortest_decimal(o.poll_s)),
      "wait between claims while no point is pending")(
      "coordinator-wait-s",
      po::value(&o.coordinator_wait_s)
          ->default_value(o.coordinator_wait_s, shortest_decimal(o.coordinator_wait_s)),
      "while the run's coordinator is gone (its lease expired): measure what is published, "
      "and wait this long for `tune` to resume the run before stopping");
  desc.add(store_options(store, "the run's store: SQLite path"));
  double store_retry_s = db::kDefaultStoreRetryS;
  desc.add(store_retry_options(store_retry_s));
  desc.add(kernel_store_options(o.kernel_store));
  po::variables_map vm;
  if (parse(args, desc, {}, vm, "tune worker --storage DB --run ID [--lease-s S]")) return 0;
  o.storage = store_path(store, vm, "tune worker");
  if (run <= 0) throw UsageError("tune worker: --run ID (> 0) is required");
  if (!(o.lease_s > 0) || !std::isfinite(o.lease_s) || !(o.poll_s > 0))
    throw UsageError("tune worker: --lease-s and --poll-s must be > 0");
  if (!(o.coordinator_wait_s >= 0) || !std::isfinite(o.coordinator_wait_s))
    throw UsageError("tune worker: --coordinator-wait-s must be a number >= 0");
  o.run_id = run;
  check_kernel_store(o.kernel_store);
  apply_store_retry(store_retry_s);
  return run_store_worker(o, std::cerr);
}

}  // namespace flowtune::cli
