// `tune status --storage DB [--run ID]`: the tasks and workers of distributed runs, with an
// ETA (tables workers and tasks, db/SCHEMA.md).
#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/cli.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "db/repository.hpp"

namespace flowtune::cli {
namespace {

// A worker whose heartbeat is older than this is reported "silent" (its process may be gone:
// heartbeats come every lease/3, 10 s with the default 30 s lease).
constexpr double kSilentAfterS = 60;

}  // namespace

int run_status(const std::vector<std::string>& args) {
  StoreArgs store;
  long long run_id = 0;
  bool json = false;
  po::options_description desc = command_options("status options");
  desc.add_options()("run", po::value(&run_id),
                     "this run only (default: every run that has tasks)")(
      "json", po::bool_switch(&json), "print the status as JSON");
  desc.add(store_options(store, "the store: SQLite path"));
  po::variables_map vm;
  if (parse(args, desc, {}, vm, "tune status --storage DB [--run ID] [--json]")) return 0;
  const std::string storage = store_path(store, vm, "tune status");
  const db::Repository repo(storage, db::OpenMode::read_only);
  const double now = repo.store_now_s();  // heartbeats are on the store's clock
  nlohmann::json out = nlohmann::json::array();
  for (const db::RunRow& run : repo.runs()) {
    if (run_id && run.id != run_id) continue;
    const db::TaskCounts c = repo.task_counts(run.id);
    const std::vector<db::WorkerRow> workers = repo.workers(run.id);
    if (!run_id && workers.empty() && c.pending + c.claimed + c.done + c.failed == 0) continue;
    std::size_t live = 0;
    for (const db::WorkerRow& w : workers)
      if (w.status == "running" && now - w.heartbeat_s < kSilentAfterS) ++live;
    const long long finished = (long long)(c.done + c.failed);
    const long long remaining = run.planned_points >= 0
                                    ? std::max(0LL, run.planned_points - finished)
                                    : (long long)(c.pending + c.claimed);
    double eta_s = -1;
    if (run.status == "running" && c.mean_task_s > 0 && live > 0)
      eta_s = double(remaining) * c.mean_task_s / double(live);
    nlohmann::json j = {{"run", run.id},
                        {"board", run.info.board},
                        {"workload", run.info.workload},
                        {"dataset", run.info.dataset},
                        {"status", run.status},
                        {"planned_points", run.planned_points},
                        {"pending", c.pending},
                        {"claimed", c.claimed},
                        {"done", c.done},
                        {"failed", c.failed},
                        {"cancelled", c.cancelled},
                        {"mean_task_s", c.mean_task_s},
                        {"eta_s", eta_s},
                        {"workers", nlohmann::json::array()}};
    // The coordinator role (table coordinators): who holds it, and whether it lives.
    if (run.status == "running" && !run.coordinator_host.empty())
      j["coordinator"] = {{"host", run.coordinator_host},
                          {"pid", run.coordinator_pid},
                          {"alive", run.coordinator_alive},
                          {"lease_left_s", run.coordinator_lease_until_s - now}};
    for (const db::WorkerRow& w : workers) {
      const bool silent = w.status == "running" && now - w.heartbeat_s >= kSilentAfterS;
      j["workers"].push_back({{"id", w.id},
                              {"host", w.host},
                              {"pid", w.pid},
                              {"gpu", w.gpu},
                              {"status", silent ? "silent" : w.status},
                              {"heartbeat_age_s", now - w.heartbeat_s},
                              {"done", w.n_done},
                              {"failed", w.n_failed}});
    }
    out.push_back(j);
    if (json) continue;
    std::cout << "run " << run.id << " (" << run.status << "): board " << run.info.board
              << ", workload " << run.info.workload << ", dataset " << run.info.dataset << "\n  "
              << c.done << " done, " << c.failed << " failed, " << c.claimed << " claimed, "
              << c.pending << " pending, " << c.cancelled << " cancelled";
    if (run.planned_points >= 0) std::cout << "; at most " << run.planned_points << " planned";
    std::cout << std::fixed << std::setprecision(1);
    if (c.mean_task_s > 0) std::cout << "; " << c.mean_task_s << " s per point";
    if (eta_s >= 0) std::cout << "; ETA " << eta_s << " s with " << live << " live worker(s)";
    std::cout << '\n';
    if (j.contains("coordinator"))
      std::cout << "  coordinator: " << run.coordinator_host << " pid " << run.coordinator_pid
                << (run.coordinator_alive
                        ? ", alive"
                        : ", gone (its workers go on; `tune` with the run's command resumes it)")
                << '\n';
    for (const nlohmann::json& w : j["workers"])
      std::cout << "  worker " << w["id"].get<long long>() << ": " << w["host"].get<std::string>()
                << " pid " << w["pid"].get<long long>()
                << (w["gpu"].get<std::string>().empty() ? "" : " " + w["gpu"].get<std::string>())
                << ", " << w["status"].get<std::string>() << ", last heartbeat "
                << w["heartbeat_age_s"].get<double>() << " s ago, " << w["done"].get<long long>()
                << " done, " << w["failed"].get<long long>() << " failed\n";
    std::cout.unsetf(std::ios::fixed);
  }
  if (json) std::cout << out.dump(1) << '\n';
  if (run_id && out.empty())
    throw std::runtime_error(storage + ": no run with id " + std::to_string(run_id));
  if (!json && out.empty()) {
    // Only distributed runs (tune --workers, tune worker) have tasks and workers to show.
    const std::size_t runs = repo.runs().size();
    std::cout << storage << ": no distributed run (" << runs << " run" << (runs == 1 ? "" : "s")
              << " in the DB, none with tasks or workers: `tune status` follows runs started "
                 "with `tune --workers`; `tune report` shows what the others measured)\n";
  }
  return 0;
}

}  // namespace flowtune::cli
