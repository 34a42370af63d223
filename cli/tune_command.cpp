// `tune` (also `tune tune`): a tuning run of a workload's space on one board
// (tuner/tune_run.hpp), its Pareto front as a table or JSON.
#include <sys/ioctl.h>
#include <unistd.h>

#include <boost/algorithm/string.hpp>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "boards/board.hpp"
#include "cli/cli.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/predict_prior.hpp"
#include "db/repository.hpp"
#include "db/store_url.hpp"
#include "reports/pareto_table.hpp"
#include "reports/text_format.hpp"
#include "select/config_rows.hpp"
#include "select/export_selection.hpp"
#include "select/prune_reasons.hpp"
#include "tuner/kernel_prebuild.hpp"
#include "tuner/strategy.hpp"
#include "tuner/tune_run.hpp"

namespace flowtune::cli {
namespace {

std::string strategy_help() {
  std::string names;
  for (const std::string& n : strategy_names()) names += (names.empty() ? "" : " | ") + n;
  return names;
}

// The config the request asks for, from the DB, and the exact `tune export` command that
// deploys it (stdout); a note on stderr when no measured config satisfies the request.
void print_pick(const TuneOptions& o, const TuneSummary& summary) {
  if (summary.front.empty()) return;
  const std::string objective = o.objective.empty() ? "time" : o.objective;
  std::string export_command = "tune export --board " + o.board + " --db " +
                               db::redact_store_url(o.db_path) + " --objective " + objective;
  std::string request = objective;
  for (const Constraint& c : o.constraints) {
    export_command += " --max " + c.name + "=" + shortest_decimal(c.max);
    request += ", " + c.name + " <= " + shortest_decimal(c.max);
  }
  if (o.inputs.resolution_width > 0)
    export_command += " --resolution " + std::to_string(o.inputs.resolution_width) + "x" +
                      std::to_string(o.inputs.resolution_height);
  export_command += " -o tuned_" + o.board + ".h";
  try {
    const db::Repository repo(o.db_path, db::OpenMode::read_only);
    const ExportSelection pick =
        select_for_export(repo, o.board, objective, summary.dataset, o.constraints);
    const db::MeasurementRow& m = pick.config.measurement;
    std::cout << "\npick (" << request << "): " << pick.config.config.label << " "
              << to_config(pick.config.config).params_text() << ": " << m.time_ms_median << " ms";
    if (m.energy_mj)
      std::cout << ", " << *m.energy_mj << " mJ"
                << (m.power_w ? " at " + reports::detail::fixed(*m.power_w, 1) + " W" : "");
    for (const auto& [name, value] : m.metrics) std::cout << ", " << name << " " << value;
    std::cout << "\ndeploy it: " << export_command << '\n';
  } catch (const std::exception& e) {
    std::cerr << "tune: no pick for (" << request << "): " << e.what() << '\n';
  }
}

// The run's summary and front: JSON on stdout with json, else the table.
void print_summary(const TuneOptions& o, const TuneSummary& summary, bool json) {
  if (json) {
    nlohmann::json j = {{"run_id", summary.run_id},
                        {"board", o.board},
                        {"dataset", summary.dataset},
                        {"configs", summary.n_space},
                        {"measured", summary.n_measured},
                        {"resumed", summary.n_resumed},
                        {"pruned", summary.n_pruned},
                        {"failed", summary.n_failed},
                        {"cancelled", summary.n_cancelled},
                        {"interrupted", summary.interrupted},
                        {"front_objectives", summary.front_objectives}};
    const auto builds = [](const KernelBuildCounts& c) {
      return nlohmann::json{{"compiled", c.compiled},   {"local_hits", c.local_hits},
                            {"fetched", c.fetched},     {"rejected", c.rejected},
                            {"published", c.published}, {"store_errors", c.store_errors},
                            {"compile_s", c.compile_s}, {"fetch_s", c.fetch_s}};
    };
    j["kernel_builds"] = {{"this_process", builds(summary.builds_here)},
                          {"measuring_process", builds(summary.builds_measuring)}};
    const FrontEnergySummary& fe = summary.front_energy;
    j["front_energy"] = {{"ran", fe.ran},
                         {"why_not", fe.why_not},
                         {"sensor", fe.sensor},
                         {"window_ms", fe.window_ms},
                         {"points", fe.n_points},
                         {"measured", fe.n_measured},
                         {"failed", fe.n_failed},
                         {"left", fe.n_left},
                         {"seconds", fe.seconds},
                         {"share_s", fe.share_s},
                         {"time_budget_s", fe.time_budget_s}};
    if (!summary.accuracy_from.empty())
      j["accuracy_table"] = {
          {"from", summary.accuracy_from},
          {"keys", summary.accuracy_keys},
          {"not_timed", summary.n_known_infeasible},
          {"measured_with_key", summary.accuracy_check.rows_with_key},
          {"max_relative_difference", summary.accuracy_check.max_relative_difference}};
    j["front"] = nlohmann::json::array();
    for (const db::MeasuredConfig& mc : summary.front) {
      nlohmann::json f = {{"config", nlohmann::json::parse(db::config_json(mc.config))},
                          {"time_ms", mc.measurement.time_ms_median},
                          {"metrics", mc.measurement.metrics}};
      if (mc.measurement.energy_mj) f["energy_mj"] = *mc.measurement.energy_mj;
      if (mc.measurement.power_w) f["power_w"] = *mc.measurement.power_w;
      j["front"].push_back(f);
    }
    std::cout << j.dump(1) << '\n';
  }
  std::string axes;
  for (const std::string& name : summary.front_objectives)
    axes += (axes.empty() ? "" : " vs ") + name;
  if (!json)
    std::cout << "\nboard " << o.board << ": " << summary.n_space << " configs, "
              << summary.n_measured << " measured now, " << summary.n_resumed
              << " already in the DB, " << summary.n_pruned << " pruned, " << summary.n_failed
              << " failed"
              << (summary.n_cancelled
                      ? ", " + std::to_string(summary.n_cancelled) + " cancelled at the time budget"
                      : std::string())
              << (summary.n_known_infeasible ? ", " + std::to_string(summary.n_known_infeasible) +
                                                   " not timed (accuracy table)"
                                             : std::string())
              << (summary.interrupted ? " (interrupted)" : "") << "\nPareto front (" << axes
              << "), dataset " << summary.dataset << ":\n"
              << reports::format_pareto_table(summary.front);
}

// A cuda board on a machine that shows no GPU: one refusal (an environment problem) before
// anything is built, instead of every config recorded as failed. Not with --workers 0, where
// the points are measured by workers elsewhere.
void refuse_gpu_board_without_gpu(const TuneOptions& o) {
  const Board board = load_board(o.board);
  if (board.target != "cuda" || o.workers == 0 || gpu_present()) return;
  throw std::runtime_error("board " + board.name + ": environment: it is a CUDA board (" +
                           board.arch() +
                           ") but this machine shows no GPU (no NVML device, no Jetson device "
                           "tree); nothing was measured. Tune on the board itself, use --board "
                           "host here, or --workers 0 to publish the points for `tune worker` "
                           "on the board");
}

// Why a run measured nothing because every config it looked at was pruned: the reason classes
// of the board's pruned configs of this workload, most configs first (select/prune_reasons.hpp);
// "" when the DB holds no pruned config of the workload (then something else stopped it).
std::string all_pruned_text(const TuneOptions& o, const TuneSummary& summary) {
  const db::Repository repo(o.db_path, db::OpenMode::read_only);
  std::vector<std::pair<std::string, std::string>> label_reasons;
  for (const db::PrunedRow& p : repo.pruned(o.board))
    if (p.config.workload == o.space.workload) label_reasons.emplace_back(p.config.label, p.reason);
  if (label_reasons.empty()) return "";
  std::ostringstream s;
  s << "tune: nothing measured on board " << o.board << " (" << summary.n_space
    << " configs in the space, " << label_reasons.size()
    << " of this workload pruned); pruned by reason:\n";
  std::size_t shown = 0;
  for (const PruneClass& c : group_prune_reasons(label_reasons)) {
    if (shown++ == 5) {
      s << "  ... (`tune space --board " << o.board << "` lists them all)\n";
      break;
    }
    s << "  " << c.configs << "  " << c.name << "\n      e.g. " << c.reasons.front() << '\n';
  }
  s << "Change the options these rules reject (`tune space` with the same options shows what "
       "is kept; `tune params` gives each parameter's valid range).\n";
  return s.str();
}

// The width of the terminal on stderr (ioctl TIOCGWINSZ, else $COLUMNS, else 100); 0 when
// stderr is no terminal or TERM is "dumb": then progress is a line per point.
int terminal_columns() {
  if (!::isatty(STDERR_FILENO)) return 0;
  const char* term = std::getenv("TERM");
  if (term && std::string(term) == "dumb") return 0;
  winsize ws{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  const char* env = std::getenv("COLUMNS");
  const int columns = env ? std::atoi(env) : 0;
  return columns > 0 ? columns : 100;
}

}  // namespace

int run_tune(const std::vector<std::string>& args) {
  TuneOptions o;
  StoreArgs store{o.db_path, ""};
  double store_retry_s = db::kDefaultStoreRetryS;
  InputArgs inputs;
  SpaceArgs space;
  long long max_evals = 0;
  bool in_process = false, json = false, quiet = false;
  std::string budget_text, objectives_text, workers_text, time_budget_text = "auto";
  std::string prior = "estimate";
  std::string prebuild_root;
  std::string prebuild_scope = "start";
  std::vector<std::string> max_texts;
  o.strategy = "auto";
  std::string progress_deadline_text = "auto";
  po::options_description desc = command_options("tune options");
  desc.add_options()("workers", po::value(&workers_text)->implicit_value("auto"),
                     "distributed: N worker processes measure the points through the store "
                     "(auto = one per visible GPU, 1 without; 0 = only workers started "
                     "elsewhere with `tune worker`)")(
      "lease-s", po::value(&o.lease_s)->default_value(o.lease_s),
      "a worker's claim on a point, and this coordinator's role of the run, expire after this "
      "long without a heartbeat: another worker measures the point; another `tune` may resume "
      "the run")(
      "progress-deadline-s", po::value(&progress_deadline_text)->default_value("auto"),
      "distributed: a worker whose measurement of a point gives no result for this long stops "
      "it and records the point as failed (timeout), and stops renewing its lease (auto = "
      "max(600, 10 x the run's longest point so far); 0 = none)")(
      "strategy", po::value(&o.strategy)->default_value(o.strategy),
      ("auto | " + strategy_help() +
       "; auto = brute_force for a space of at most 256 points, else additive_surrogate "
       "(docs/decisions.md, \"Default strategy\")")
          .c_str())("max-evals", po::value(&max_evals)->default_value(0),
                    "evaluations (measured + failed configs; 0 = the whole space)")(
      "budget", po::value(&budget_text),
      "evaluations as N or P% of the unpruned space (instead of --max-evals)")(
      "time-budget", po::value(&time_budget_text)->default_value(time_budget_text),
      "wall-clock budget of the run, kernel builds included: 90s, 10m, 1.5h, 1h30m, 0 = none; auto "
      "= 8m on a GPU board (with the last points and setup, within 10 minutes), 5m on the host. "
      "When it is spent the run stops cleanly and the "
      "same command resumes")(
      "objective", po::value(&o.objective),
      "what you want: time, energy (mJ per run), power (W), edp (energy-delay product, mJ ms) or a "
      "metric of the workload (`tune params`), minimised (or "
      "maximised by its direction) under the --max constraints; default: the front of the "
      "objectives")(
      "max", po::value(&max_texts)->composing(),
      "a constraint the search steers towards, NAME=VALUE (figure <= VALUE; repeatable); "
      "also --max-METRIC V for a metric of the workload, --max-ms V, --max-mj V, --max-w V (mean "
      "power), --max-edp V (mJ ms); a constraint or objective on energy measures it on every "
      "point")("seed", po::value(&o.seed)->default_value(1), "random seed of the strategy")(
      "prior", po::value(&prior)->default_value(prior),
      "model_guided's ranking of the space: estimate (tuner/model_estimate) | predict (tune "
      "predict's model, refit from this DB's measurements of the board when it has some)")(
      "accuracy-from", po::value(&o.accuracy_from),
      "a store to take accuracy from (measured on any board, the same data): points whose "
      "precision and parameters it shows breaking a --max constraint on a metric are not "
      "timed; the table is checked against this board's measurements at the end")(
      "accuracy-tolerance",
      po::value(&o.accuracy_tolerance)->default_value(o.accuracy_tolerance, "0.01"),
      "with --accuracy-from: a point is skipped only when its table value breaks the bound by "
      "more than this fraction of it")(
      "objectives", po::value(&objectives_text),
      "comma-separated figures to minimise (first: single-objective strategies); default "
      "time_ms and the workload's front objectives; add energy_mj to measure energy on every "
      "point (without it, energy is measured after the search on the front's points where the "
      "board has a sensor)")("json", po::bool_switch(&json),
                             "print the run's summary and front as JSON on stdout")(
      "quiet,q", po::bool_switch(&quiet),
      "print nothing on stderr but errors: no progress, no run header (stdout keeps the "
      "result)")("build-threads", po::value(&o.build_threads)->default_value(o.build_threads),
                 "threads building kernels ahead (-1 = cores - 1 on GPU boards, 0 on host)")(
      "multi-fidelity", po::bool_switch(&o.multi_fidelity),
      "screen every point on the first item with 3 timed runs and measure on every item only "
      "the points asynchronous successive halving promotes (eta 3); screens are stored as "
      "dataset <item>#screen")(
      "in-process", po::bool_switch(&in_process),
      "measure in this process instead of a worker process (no fault isolation)")(
      "config-timeout-s", po::value(&o.config_timeout_s)->default_value(o.config_timeout_s),
      "a config measured longer than this fails as timeout (0 = no limit; worker only)")(
      "retry-failed", po::bool_switch(&o.retry_failed),
      "measure again the configs that failed in earlier runs")(
      "allow-clock-control", po::bool_switch(&o.allow_clock_control),
      "explore GPU clocks by setting them (needs privileges; never on shared machines)")(
      "prebuild-kernels", po::value(&prebuild_root),
      "measure nothing: build the kernels this run would compile first (its strategy's first "
      "kernel sets and those one tunable step from them) for the board's arch with the NVRTC "
      "in use into DIR/<arch>-nvrtc<version>/, a prebuilt kernel cache for the board "
      "(docs/jetson.md, \"Prebuilt kernels\"); needs no GPU")(
      "prebuild-scope", po::value(&prebuild_scope)->default_value(prebuild_scope),
      "with --prebuild-kernels: start (the kernel sets above) or space (every kernel set of the "
      "space that the variants' rules allow: the board compiles nothing)");
  desc.add(board_options(o.board))
      .add(store_options(store, "SQLite database (created if absent; runs resume)"))
      .add(store_retry_options(store_retry_s))
      .add(kernel_store_options(o.kernel_store))
      .add(input_options(inputs))
      .add(space_options(space))
      .add(measure_options(o.measure));
  po::variables_map vm;
  if (parse(expand_max_options(args, desc), desc, {}, vm,
            "tune [--board B] [--workload W] [--db P] [options]"))
    return 0;
  o.constraints = parse_constraints(max_texts);
  if (max_evals < 0)
    throw UsageError("--max-evals must be >= 0 (0 = all), got " + std::to_string(max_evals));
  o.max_evals = static_cast<std::size_t>(max_evals);
  if (!budget_text.empty()) {
    const Budget b = parse_budget("--budget", budget_text);
    o.max_evals = b.evaluations;
    o.budget_fraction = b.fraction;
  }
  if (!objectives_text.empty()) boost::split(o.objectives, objectives_text, boost::is_any_of(","));
  check_measure_options(o.measure);
  check_accuracy_source("--accuracy-from", o.accuracy_from, o.accuracy_tolerance);
  o.isolate = !in_process;
  o.db_path = store_path(store, vm, "tune");
  check_kernel_store(o.kernel_store);
  if (prebuild_root.empty() && !vm["prebuild-scope"].defaulted())
    throw UsageError("--prebuild-scope needs --prebuild-kernels DIR");
  apply_store_retry(store_retry_s);
  if (!workers_text.empty()) {
    if (workers_text == "auto") {
      o.workers = kWorkersAuto;
    } else {
      const std::vector<int> n = parse_int_list("--workers", workers_text);
      if (n.size() != 1 || n[0] < 0)
        throw UsageError("--workers must be a number >= 0 or auto, got '" + workers_text + "'");
      o.workers = n[0];
    }
    if (in_process) throw UsageError("--workers and --in-process exclude each other");
  }
  if (!(o.lease_s > 0) || !std::isfinite(o.lease_s))
    throw UsageError("--lease-s must be a number > 0");
  if (!(o.config_timeout_s >= 0)) throw UsageError("--config-timeout-s must be >= 0");
  if (progress_deadline_text != "auto") {
    char* end = nullptr;
    o.progress_deadline_s = std::strtod(progress_deadline_text.c_str(), &end);
    if (progress_deadline_text.empty() || *end != '\0' || !(o.progress_deadline_s >= 0) ||
        !std::isfinite(o.progress_deadline_s))
      throw UsageError("--progress-deadline-s must be auto or a number of seconds >= 0 (got '" +
                       progress_deadline_text + "')");
  }
  o.board = resolve_board(o.board);
  // auto: docs/decisions.md, "Default time budget".
  o.time_budget_s = time_budget_text == "auto"
                        ? (load_board(o.board).target == "cuda" ? 480 : 300)
                        : parse_duration_s("--time-budget", time_budget_text);
  o.space = to_space_options(space);
  o.inputs = inputs.to_input_options();
  o.command = "tune";
  for (const std::string& a : args) o.command += " " + a;

  std::ostream no_log(nullptr);  // --quiet: a stream without buffer writes nothing
  if (!prebuild_root.empty()) {
    if (prior == "predict" || o.strategy == "model_guided")
      throw UsageError(
          "--prebuild-kernels: a model-guided start depends on the DB; prebuild "
          "for another strategy");
    PrebuildScope scope = PrebuildScope::start;
    try {
      scope = parse_prebuild_scope(prebuild_scope);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
    const KernelPrebuild p = prebuild_kernels(o, prebuild_root, scope, kPrebuildStartPoints,
                                              o.build_threads > 0 ? unsigned(o.build_threads) : 0u,
                                              quiet ? no_log : std::cerr);
    std::cout << "prebuilt kernels for board " << p.board << " (" << p.arch << ", NVRTC "
              << p.compiler_version << ") in " << p.folder << ": " << p.built.size()
              << " kernel sets built, " << p.not_built.size() << " not built; "
              << kernel_build_counts_text(p.builds) << "; manifest " << p.manifest << '\n';
    for (const auto& [label, why] : p.not_built)
      std::cout << "  not built: " << label << ": " << why << '\n';
    return p.built.empty() ? 1 : 0;
  }
  if (prior == "predict")
    o.prior_model = predicted_prior(o.board, o.space.workload, o.db_path, std::cerr);
  else if (prior != "estimate")
    throw UsageError("--prior: estimate or predict, got '" + prior + "'");
  refuse_gpu_board_without_gpu(o);
  if (quiet) {
    o.progress = ProgressStyle::quiet;
  } else if (const int columns = terminal_columns(); columns > 0) {
    o.progress = ProgressStyle::bar;
    o.progress_columns = columns;
  }
  const TuneSummary summary = run_tuning(o, quiet ? no_log : std::cerr);
  print_summary(o, summary, json);
  if (!json) print_pick(o, summary);
  if (summary.interrupted)
    return 128 + (summary.stop_signal ? summary.stop_signal : 2);  // 130, 143
  if (summary.front.empty() && summary.n_measured + summary.n_failed == 0 &&
      !summary.time_budget_spent && summary.n_space > 0) {
    // Nothing measured, now or before (a resumed all-pruned run counts its pruned configs as
    // already in the DB): say why, instead of an empty front and exit 0.
    const std::string why = all_pruned_text(o, summary);
    if (!why.empty()) {
      std::cerr << why;
      return 1;
    }
  }
  if (summary.n_failed > 0) {
    std::cerr << "tune: " << summary.n_failed
              << " config(s) failed in this run (see the failures table or `tune report`)\n";
    return 1;
  }
  return 0;
}

}  // namespace flowtune::cli
