#include "tuner/tune_run.hpp"

#include <atomic>
#include <csignal>
#include <sstream>

#include "boards/board.hpp"
#include "boards/gpu_clocks.hpp"
#include "tuner/constraints.hpp"
#include "tuner/environment.hpp"
#include "tuner/pareto.hpp"
#include "tuner/progress.hpp"
#include "tuner/strategy.hpp"

namespace flowtune {
namespace {

std::atomic<bool> g_stop_requested{false};
extern "C" void on_stop_signal(int) { g_stop_requested = true; }

// Installs SIGINT/SIGTERM handlers for the lifetime of a run and restores the old ones.
class StopSignals {
 public:
  StopSignals() {
    g_stop_requested = false;
    old_int_ = std::signal(SIGINT, on_stop_signal);
    old_term_ = std::signal(SIGTERM, on_stop_signal);
  }
  ~StopSignals() {
    std::signal(SIGINT, old_int_);
    std::signal(SIGTERM, old_term_);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  void (*old_int_)(int) = SIG_DFL;
  void (*old_term_)(int) = SIG_DFL;
};

}  // namespace

db::ConfigRow to_config_row(const std::string& board, const Config& config) {
  db::ConfigRow row;
  row.board = board;
  row.key = config.key();
  row.label = config.label();
  row.variant = config.variant;
  row.precision = config.precision;
  row.tunables_json = config.tunables_json();
  row.clock_mhz = config.clock_mhz;
  row.iterations = config.params.iterations;
  row.n_scales = config.params.n_scales;
  row.n_warpings = config.params.n_warpings;
  row.zoom = config.params.zoom;
  row.epsilon = config.params.epsilon;
  row.tau = config.params.tau;
  row.lambda = config.params.lambda;
  row.theta = config.params.theta;
  return row;
}

std::string resources_json(const std::vector<KernelResources>& resources) {
  std::ostringstream os;
  os << '[';
  for (std::size_t i = 0; i < resources.size(); ++i) {
    const KernelResources& r = resources[i];
    os << (i ? "," : "") << "{\"kernel\":\"" << r.kernel << "\",\"threads\":" << r.threads_per_block
       << ",\"registers\":" << r.registers_per_thread
       << ",\"static_shared_bytes\":" << r.static_shared_bytes
       << ",\"dynamic_shared_bytes\":" << r.dynamic_shared_bytes
       << ",\"local_bytes\":" << r.local_bytes << ",\"spill_bytes\":" << r.spill_bytes
       << ",\"built_for\":\"" << r.built_for << "\",\"estimated\":" << (r.estimated ? "true" : "false")
       << '}';
  }
  os << ']';
  return os.str();
}

std::vector<db::MeasuredConfig> time_aepe_front(const std::vector<db::MeasuredConfig>& measured) {
  std::vector<std::vector<double>> points;
  points.reserve(measured.size());
  for (const auto& m : measured) points.push_back({m.measurement.time_ms_median, m.measurement.aepe});
  std::vector<db::MeasuredConfig> front;
  for (std::size_t i : pareto_front(points)) front.push_back(measured[i]);
  return front;
}

TuneSummary run_tuning(const TuneOptions& options, std::ostream& log) {
  const Board board = load_board(options.board);
  if (board.target == "cuda") check_board_matches_device(board);
  db::Repository repo(options.db_path);
  const std::vector<Sequence> sequences =
      load_sequences(options.data_dir.empty() ? default_data_dir() : options.data_dir, options.sequences);

  SpaceOptions space_options = options.space;
  if (options.allow_clock_control && space_options.clocks_mhz.empty() && board.target == "cuda")
    space_options.clocks_mhz = supported_gpu_clocks_mhz(board);
  const std::vector<Config> space = enumerate_space(board, space_options);

  TuneSummary summary;
  summary.n_space = space.size();
  summary.dataset = dataset_key(sequences);
  const db::RunInfo info = collect_run_info(board, options.command, summary.dataset);
  summary.run_id = repo.begin_run(info);
  log << "run " << summary.run_id << ": board " << board.name << ", " << space.size()
      << " configs, dataset " << summary.dataset << ", DB " << options.db_path << '\n';
  if (board.target == "cuda" && !options.allow_clock_control)
    log << "clock dimension not explored (no --allow-clock-control): the observed clock is recorded\n";

  const std::unique_ptr<EnergySensor> sensor = make_energy_sensor(board);
  log << "energy sensor: " << (sensor ? sensor->name() : std::string("none (energy stored as NULL)")) << '\n';
  MeasureOptions measure = options.measure;
  if (sensor) measure.min_window_ms = std::max(measure.min_window_ms, sensor->min_window_ms());

  const std::vector<std::size_t> order =
      make_strategy(options.strategy, options.max_evals, options.seed)->order(space.size());
  Progress progress(order.size(), log);
  StopSignals signals;
  try {
    for (std::size_t idx : order) {
      if (g_stop_requested) {
        summary.interrupted = true;
        break;
      }
      const Config& config = space[idx];
      const std::string key = config.key();
      const db::ConfigRow row = to_config_row(board.name, config);
      if (repo.is_measured(board.name, key, summary.dataset) || repo.is_pruned(board.name, key)) {
        ++summary.n_resumed;
        progress.step(config.label() + " it=" + std::to_string(config.params.iterations), false);
        continue;
      }
      const Variant* variant = find_variant(config.variant);
      if (const std::optional<std::string> reason = prune_reason(board, *variant, config)) {
        repo.record_pruned(summary.run_id, row, *reason);
        ++summary.n_pruned;
        progress.step("pruned: " + *reason, true);
        continue;
      }
      try {
        ClockGuard clock_guard(board, config.clock_mhz, options.allow_clock_control);
        std::unique_ptr<FlowSolver> solver = variant->make_solver(config);
        db::MeasurementRow m = measure_frames(*solver, sequences, sensor.get(), measure);
        m.run_id = summary.run_id;
        m.clock_mhz_observed = observed_gpu_clock_mhz(board);
        if (board.target == "cuda") m.resources_json = resources_json(variant->resources(config, board.arch()));
        repo.record_measurement(row, m);
        ++summary.n_measured;
        std::ostringstream label;
        label << config.label() << " it=" << config.params.iterations << ": " << m.time_ms_median
              << " ms/frame, AEPE " << m.aepe;
        progress.step(label.str(), true);
      } catch (const std::exception& e) {
        repo.record_pruned(summary.run_id, row, std::string("failed: ") + e.what());
        ++summary.n_failed;
        progress.step(config.label() + " failed: " + e.what(), true);
      }
    }
  } catch (...) {
    repo.end_run(summary.run_id, "failed");
    throw;
  }
  repo.end_run(summary.run_id, summary.interrupted ? "interrupted" : "done");
  summary.front = time_aepe_front(repo.measured(board.name, summary.dataset));
  return summary;
}

}  // namespace flowtune
