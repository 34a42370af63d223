// The option groups shared by the sub-commands, the grammars of option values and the
// parsing of a sub-command's arguments (cli/options.hpp). Boost.ProgramOptions and the
// engine's option structs only, no workload or board lookup, so the fuzz harness
// tests/fuzz/fuzz_cli.cpp builds this file alone.
#include "cli/options.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>

#include "cli/cli.hpp"
#include "db/repository.hpp"
#include "db/store_url.hpp"
#include "variants/config.hpp"
#include "workloads/frame_size.hpp"

namespace flowtune::cli {

po::options_description command_options(const std::string& caption) {
  po::options_description desc(caption);
  desc.add_options()("help,h", "this help");
  return desc;
}

po::options_description store_retry_options(double& seconds) {
  po::options_description d("store outage options");
  d.add_options()("store-retry-s",
                  po::value(&seconds)->default_value(seconds, shortest_decimal(seconds)),
                  "how long an operation on a locked SQLite file or an unreachable PostgreSQL "
                  "server is retried (with backoff) before the command stops with an error; "
                  "the same command resumes the run later");
  return d;
}

void apply_store_retry(double seconds) {
  if (!(seconds >= 0) || !std::isfinite(seconds))
    throw UsageError("--store-retry-s must be a number of seconds >= 0");
  db::set_store_retry_limit_s(seconds);
}

po::options_description kernel_store_options(std::string& mode) {
  po::options_description d("kernel store options");
  d.add_options()("kernel-store", po::value(&mode)->default_value(mode),
                  "share compiled kernels through the store, so that workers on other hosts "
                  "fetch what one host compiled instead of compiling it: auto (on for a "
                  "PostgreSQL store; a worker started by `tune --workers` follows its "
                  "coordinator), on (also for an SQLite file on a shared file system), off");
  return d;
}

void check_kernel_store(const std::string& mode) {
  if (mode != "auto" && mode != "on" && mode != "off")
    throw UsageError("--kernel-store must be auto, on or off, got '" + mode + "'");
}

po::options_description store_options(StoreArgs& a, const std::string& db_help) {
  po::options_description desc("store options");
  auto* db = po::value(&a.db);
  if (!a.db.empty()) db->default_value(a.db);
  desc.add_options()("db", db, db_help.c_str())(
      "storage", po::value(&a.storage),
      "the store: an SQLite path (same as --db) or postgresql://[user@]host[:port]/database "
      "(the password through PGPASSWORD or ~/.pgpass, never shown or stored)");
  return desc;
}

std::string store_path(const StoreArgs& a, const po::variables_map& vm,
                       const std::string& command) {
  const bool db_given = vm.count("db") && !vm["db"].defaulted();
  const auto checked = [&](const std::string& option, const std::string& value) {
    if (auto problem = db::storage_problem(value))
      throw UsageError(command + ": " + option + ": " + *problem);
    return value;
  };
  if (db_given) checked("--db", a.db);
  if (vm.count("storage")) {
    checked("--storage", a.storage);
    if (db_given && a.storage != a.db)
      throw UsageError("--storage and --db name different databases; give one");
    return a.storage;
  }
  if (a.db.empty()) throw UsageError(command + ": --storage or --db is required");
  return checked("--db", a.db);
}

po::options_description board_options(std::string& board, const std::string& help) {
  po::options_description desc("board options");
  auto* value = po::value(&board);
  if (!board.empty()) value->default_value(board);
  desc.add_options()("board", value, help.c_str());
  return desc;
}

InputOptions InputArgs::to_input_options() const {
  InputOptions o;
  o.data_dir = data_dir;
  if (!items.empty()) o.items = split_list(items);
  o.max_pixels = max_pixels;
  if (stride < 1) throw UsageError("--stride must be >= 1, got " + std::to_string(stride));
  if (max_frames < 0)
    throw UsageError("--max-frames must be >= 0 (0 = all), got " + std::to_string(max_frames));
  o.pairs = pairs;
  o.stride = stride;
  o.max_frames = max_frames;
  o.reference_metrics = reference_metrics;
  if (!resolution.empty()) {
    try {
      const Resolution r = parse_resolution(resolution);
      o.resolution_width = r.width;
      o.resolution_height = r.height;
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--resolution: ") + e.what());
    }
  }
  return o;
}

po::options_description input_options(InputArgs& a, unsigned parts) {
  po::options_description desc("input options");
  if (parts & kInputData)
    desc.add_options()("data", po::value(&a.data_dir),
                       "the workload's inputs (optical flow: a folder of Middlebury sequences, "
                       "KITTI 2015 or MPI-Sintel, recognised by its layout; or footage without "
                       "ground truth: a folder of numbered frames or a video file; default: the "
                       "repo's data/middlebury)");
  if (parts & kInputItems)
    desc.add_options()("sequences", po::value(&a.items),
                       "comma-separated input items (optical flow: sequence names; graphs: "
                       "icosphere:3,random:1024)")("items", po::value(&a.items),
                                                   "same as --sequences");
  if (parts & kInputFootage)
    desc.add_options()("pairs", po::value(&a.pairs),
                       "optical flow: a text file of frame pairs, FIRST SECOND a line (relative "
                       "to the file's folder), instead of --data")(
        "stride", po::value(&a.stride)->default_value(a.stride),
        "optical flow footage: pair k is frames k*N and k*N+1 of the folder or video")(
        "max-frames", po::value(&a.max_frames)->default_value(a.max_frames),
        "optical flow footage: read the first N frames only (0 = all)")(
        "reference-metrics", po::bool_switch(&a.reference_metrics),
        "optical flow: also score against the reference flow (its ref_ metrics and the "
        "photometric error) on inputs with ground truth; footage always is")(
        "resolution", po::value(&a.resolution),
        "optical flow: resample every pair to WIDTHxHEIGHT (e.g. 1280x720, the camera's size) "
        "before measuring: frames bicubic (Gaussian pre-filter when shrinking), ground truth "
        "nearest with its vectors scaled; measurements at a size are a dataset of their own "
        "(key ...@WxH)");
  if (parts & kInputMaxPixels)
    desc.add_options()("max-pixels", po::value(&a.max_pixels)->default_value(a.max_pixels),
                       "largest input image read, width x height (0 = 64 Mpx); larger files "
                       "are refused before any allocation");
  return desc;
}

po::options_description space_options(SpaceArgs& a) {
  po::options_description desc("space options");
  std::string names;  // the registry's, so that --help never lists fewer than there are
  for (const Workload* w : all_workloads()) names += (names.empty() ? "" : " | ") + w->name();
  desc.add_options()("workload", po::value(&a.workload)->default_value(a.workload),
                     ("workload to tune: " + names + " (`tune params` describes them)").c_str())(
      "variant", po::value(&a.variants)->composing(),
      "variant to include (repeatable; default: all of the board's target)")(
      "precision", po::value(&a.precisions)->composing(),
      "f32 | f16 | mixed (repeatable; default: all)")(
      "tunable", po::value(&a.tunables)->composing(),
      "restrict a tunable: NAME=V1,V2,... (repeatable)")(
      "param", po::value(&a.params)->composing(),
      "a parameter dimension: NAME=ITEM,ITEM,... (repeatable; `tune params` lists them), each "
      "item a value or a range: LO:HI (integers), LO:HI:STEP (zoom=0.5:0.9:0.05), LO:HI:log "
      "(every value of 2 significant digits), LO:HI:log:N or LO:HI:lin:N (N points), e.g. "
      "n_scales=0,3:8")("no-default-dimensions", po::bool_switch(&a.no_default_dimensions),
                        "parameters not given with --param take the board target's default "
                        "only (epsilon 0 on a GPU board), not the workload's default dimensions; "
                        "`tune` lists them in its header");
  return desc;
}

po::options_description measure_options(MeasureOptions& m) {
  po::options_description desc("measurement options");
  desc.add_options()("min-rounds", po::value(&m.min_rounds)->default_value(m.min_rounds),
                     "timed runs per item, at least")(
      "max-rounds", po::value(&m.max_rounds)->default_value(m.max_rounds),
      "timed runs per item, at most; 0 = none: the scored warm-up run alone gives the time "
      "(accuracy sweeps; no energy)")(
      "min-window-ms", po::value(&m.min_window_ms)->default_value(m.min_window_ms),
      "timed window per item, at least (with energy_mj an objective, the sensor's window, "
      "200 ms, at least)")("ci", po::value(&m.ci_fraction)->default_value(m.ci_fraction, "0.02"),
                           "repeat until the 95% CI of the median is within this fraction (0 = "
                           "off)")("max-window-ms",
                                   po::value(&m.max_window_ms)->default_value(m.max_window_ms),
                                   "the CI rule stops repeating after this window per item");
  return desc;
}

void check_measure_options(const MeasureOptions& m) {
  if (!(m.ci_fraction >= 0) || !(m.max_window_ms >= 0))
    throw UsageError("--ci and --max-window-ms must be >= 0");
  if (m.min_rounds < 0 || m.max_rounds < 0)
    throw UsageError("--min-rounds and --max-rounds must be >= 0");
  if (!(m.min_window_ms >= 0) || !std::isfinite(m.min_window_ms))
    throw UsageError("--min-window-ms must be a finite number >= 0");
}

void check_accuracy_source(const std::string& option, const std::string& path, double tolerance) {
  if (path.empty()) return;
  if (!db::is_postgresql_url(path) && !std::filesystem::is_regular_file(path))
    throw UsageError(option + " " + path + ": no such file (a store written by `tune`)");
  if (!(tolerance >= 0) || !std::isfinite(tolerance))
    throw UsageError("--accuracy-tolerance must be a finite number >= 0");
}

std::vector<Constraint> SelectionArgs::constraints() const {
  return parse_constraints(max_texts);
}

po::options_description selection_options(SelectionArgs& a) {
  po::options_description desc("selection options");
  desc.add_options()("dataset", po::value(&a.dataset),
                     "dataset key (default: the board's dataset with the most measurements)")(
      "max", po::value(&a.max_texts)->composing(),
      "a constraint NAME=VALUE (repeatable); also --max-ms T, --max-mj E, --max-w P (mean power), "
      "--max-edp D (mJ ms) and --max-METRIC V, "
      "e.g. --max-<accuracy metric> 0.25");
  return desc;
}

std::vector<std::string> expand_max_options(const std::vector<std::string>& args,
                                            const po::options_description& desc) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string name = a.rfind("--max-", 0) == 0 ? a.substr(6) : std::string(), value;
    const auto eq = name.find('=');
    // --max-pixels is an input option: never a constraint, declared here or not.
    if (name.empty() || a == "--max-pixels" ||
        desc.find_nothrow("max-" + name.substr(0, eq), false)) {
      out.push_back(a);
      continue;
    }
    if (eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      throw UsageError(a + " needs a value");
    }
    std::replace(name.begin(), name.end(), '-', '_');  // --max-ref-aepe: metric ref_aepe
    if (name == "ms") name = "time_ms";
    if (name == "mj") name = "energy_mj";
    if (name == "w") name = "power_w";
    if (name == "edp") name = "edp_mj_ms";
    out.push_back("--max");
    out.push_back(name + "=" + value);
  }
  return out;
}

std::vector<Constraint> parse_constraints(const std::vector<std::string>& texts) {
  std::vector<Constraint> out;
  for (const std::string& t : texts) {
    const auto eq = t.find('=');
    std::size_t used = 0;
    double v = 0;
    try {
      if (eq == std::string::npos) throw std::invalid_argument(t);
      v = std::stod(t.substr(eq + 1), &used);
    } catch (const std::exception&) {
      throw UsageError("--max: '" + t + "' is not NAME=NUMBER (e.g. --max-METRIC 0.25)");
    }
    if (used != t.size() - eq - 1 || !std::isfinite(v))
      throw UsageError("--max: '" + t + "' is not NAME=NUMBER (e.g. --max-METRIC 0.25)");
    // Every figure a bound applies to (times, energies, errors) is >= 0: a negative bound
    // admits no config, so the run would spend its budget for nothing.
    if (v < 0)
      throw UsageError("--max-" + t.substr(0, eq) + " " + t.substr(eq + 1) + " (--max " + t +
                       "): no config can satisfy it, " + t.substr(0, eq) +
                       " is never negative; give a bound >= 0");
    out.push_back({t.substr(0, eq), v});
  }
  return out;
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string s; std::getline(ss, s, ',');) out.push_back(s);
  return out;
}

std::vector<int> parse_int_list(const std::string& option, const std::string& text) {
  std::vector<int> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    try {
      std::size_t used = 0;
      const int v = std::stoi(item, &used);
      if (used != item.size()) throw std::invalid_argument(item);
      out.push_back(v);
    } catch (const std::exception&) {
      throw UsageError("--" + option + ": '" + item +
                       "' is not an integer (expected a list like 10,25,50)");
    }
  }
  if (out.empty()) throw UsageError("--" + option + ": empty list");
  return out;
}

std::vector<double> parse_param_values(const std::string& name, const std::string& text,
                                       bool integer) {
  const auto number = [&](const std::string& item) {
    try {
      std::size_t used = 0;
      const double v = std::stod(item, &used);
      if (used != item.size()) throw std::invalid_argument(item);
      return v;
    } catch (const std::exception&) {
      throw UsageError("--param " + name + ": '" + item +
                       "' is not a number (expected V1,V2,... or LO:HI:log|lin:COUNT)");
    }
  };
  std::vector<double> out;
  if (text.find(':') != std::string::npos) {
    std::vector<std::string> parts;
    std::stringstream ss(text);
    for (std::string p; std::getline(ss, p, ':');) parts.push_back(p);
    if (parts.size() != 4 || (parts[2] != "log" && parts[2] != "lin"))
      throw UsageError("--param " + name + "=" + text +
                       ": a range is LO:HI:log|lin:COUNT, e.g. 0.05:0.5:log:8");
    const double lo = number(parts[0]), hi = number(parts[1]);
    const double count_value = number(parts[3]);
    if (count_value < 1 || count_value > 1000 || count_value != std::floor(count_value))
      throw UsageError("--param " + name + ": COUNT must be a whole number in [1, 1000]");
    const int count = static_cast<int>(count_value);
    if (parts[2] == "log" && !(lo > 0 && hi > 0))
      throw UsageError("--param " + name + ": a log range needs LO > 0 and HI > 0");
    for (int k = 0; k < count; ++k) {
      const double t = count == 1 ? 0.0 : double(k) / (count - 1);
      out.push_back(parts[2] == "log" ? lo * std::pow(hi / lo, t) : lo + (hi - lo) * t);
    }
    if (count > 1) out.back() = hi;  // exact end point
    for (double& v :
         out) {  // 12 significant digits: 0.1 * 8^(2/3) reads 0.4, not 0.39999999999999997
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.12g", v);
      v = std::stod(buf);
    }
  } else {
    std::stringstream ss(text);
    for (std::string item; std::getline(ss, item, ',');) {
      out.push_back(number(item));
      if (integer && out.back() != std::floor(out.back()))
        throw UsageError("--param " + name + ": '" + item + "' is not a whole number");
    }
  }
  if (out.empty()) throw UsageError("--param " + name + ": empty list");
  if (integer) {
    std::vector<double> rounded;
    for (double v : out) {
      const double r = std::round(v);
      if (std::find(rounded.begin(), rounded.end(), r) == rounded.end()) rounded.push_back(r);
    }
    out = rounded;
  }
  return out;
}

std::vector<double> parse_spec_values(const ParamSpec& spec, const std::string& text,
                                      const std::string& option) {
  std::vector<double> out;
  if (spec.type == ParamSpec::Type::categorical) {
    std::stringstream ss(text);
    for (std::string item; std::getline(ss, item, ',');) {
      const std::optional<double> v = spec.value_of(item);
      if (!v || spec.invalid_reason(*v))
        throw UsageError(option + " " + spec.name + ": '" + item + "' is not one of " +
                         spec.range_text());
      if (std::find(out.begin(), out.end(), *v) == out.end()) out.push_back(*v);
    }
    if (out.empty()) throw UsageError(option + " " + spec.name + ": empty list");
    return out;
  }
  out = parse_param_values(spec.name, text, spec.type == ParamSpec::Type::integer);
  for (double v : out)
    if (auto why = spec.invalid_reason(v)) throw UsageError(option + ": " + *why);
  return out;
}

ParamDimension parse_dimension_option(const ParamSpec& spec, const std::string& text,
                                      const std::string& option) {
  try {
    return parse_param_dimension(spec, text);
  } catch (const std::invalid_argument& e) {
    throw UsageError(option + " " + e.what());
  }
}

bool parse(const std::vector<std::string>& args, const po::options_description& desc,
           const po::positional_options_description& pos, po::variables_map& vm,
           const std::string& usage) {
  try {
    po::store(po::command_line_parser(args).options(desc).positional(pos).run(), vm);
    if (vm.count("help")) {
      std::cout << usage << "\n\n" << desc << '\n';
      return true;
    }
    po::notify(vm);
  } catch (const po::error_with_option_name& e) {
    // Boost 1.74's what() substitutes %option%-style tokens in a loop that never ends when
    // the user's text itself holds such a token (e.g. --board%canonical_option%): build
    // the message without it when any argument holds a '%'.
    const bool has_percent = std::any_of(args.begin(), args.end(), [](const std::string& a) {
      return a.find('%') != std::string::npos;
    });
    if (has_percent)
      throw UsageError("invalid option or value near '" + e.get_option_name() +
                       "' (an argument holds '%'; check the spelling)\nusage: " + usage);
    throw UsageError(std::string(e.what()) + "\nusage: " + usage);
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + "\nusage: " + usage);
  }
  return false;
}

double parse_duration_s(const std::string& option, const std::string& text) {
  // One or more "<number><unit>" terms, units h > m > s in that order, each at most once
  // ("1h30m", "8m40s"); a bare number is seconds and stands alone.
  const auto bad = [&] {
    return UsageError(option +
                      " must be a duration such as 90s, 10m, 1.5h or 1h30m (0 = none), got '" +
                      text + "'");
  };
  double total = 0;
  std::size_t at = 0;
  int last_rank = -1;  // 0 = h, 1 = m, 2 = s
  while (at < text.size()) {
    if (!std::isdigit(static_cast<unsigned char>(text[at])) && text[at] != '.') throw bad();
    std::size_t used = 0;
    double value = -1;
    try {
      value = std::stod(text.substr(at), &used);
    } catch (const std::exception&) {
      throw bad();
    }
    at += used;
    if (!(value >= 0) || !std::isfinite(value)) throw bad();
    if (at == text.size()) {
      if (last_rank >= 0) throw bad();  // "1h30": the unit of the last term is missing
      return value;
    }
    const char unit = text[at++];
    const int rank = unit == 'h' ? 0 : unit == 'm' ? 1 : unit == 's' ? 2 : -1;
    if (rank <= last_rank) throw bad();
    last_rank = rank;
    total += value * (rank == 0 ? 3600 : rank == 1 ? 60 : 1);
  }
  if (last_rank < 0) throw bad();
  return total;
}

Budget parse_budget(const std::string& option, const std::string& text) {
  Budget b;
  try {
    std::size_t used = 0;
    if (!text.empty() && text.back() == '%') {
      const double pct = std::stod(text.substr(0, text.size() - 1), &used);
      if (used + 1 != text.size() || !(pct > 0) || pct > 100) throw std::invalid_argument(text);
      b.fraction = pct / 100.0;
      return b;
    }
    const long long v = std::stoll(text, &used);
    if (used != text.size() || v < 1) throw std::invalid_argument(text);
    b.evaluations = std::size_t(v);
    return b;
  } catch (const std::exception&) {
    throw UsageError(option + ": '" + text + "' is neither a percentage of the space (10%) nor " +
                     "a number of evaluations >= 1");
  }
}

}  // namespace flowtune::cli
