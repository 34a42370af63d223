// The Workload concept (ARCHITECTURE.md vocabulary): an algorithm with its parameter schema, its
// input sets, its metrics and its variants. tuner/, db/ and reports/ know a workload only
// through this interface: parameters and metrics by name, never by type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "variants/config.hpp"
#include "variants/variant.hpp"
#include "workloads/frame_size.hpp"
#include "workloads/param_dimension.hpp"

namespace flowtune {

/// One algorithm parameter (it changes what is computed, so it is part of a config's key).
/// Values travel as double; an `integer` parameter holds whole numbers only; a `categorical`
/// one holds the index k of one of its `choices` (min 0, max choices.size() - 1): the CLI
/// reads and `tune params` writes the choice's name, a config and the DB the index.
struct ParamSpec {
  enum class Type { integer, real, categorical };
  std::string name;  ///< snake_case, e.g. "n_warpings", "lambda"
  Type type = Type::real;
  std::string unit;  ///< e.g. "px", "" for a pure number
  double default_value = 0;
  double min = 0, max = 0;                  ///< valid range
  bool min_open = false, max_open = false;  ///< true: the bound itself is excluded
  std::string doc;                          ///< one line
  std::string source;                       ///< paper and section, e.g. "IPOL 2013, sec. 4.1"
  /// The value a config without this parameter means (a DB row, tuned header or imported
  /// file written before the parameter existed): the value that reproduces the older
  /// computation. nullopt for the parameters of the schema's first version, which every
  /// config gives. Distinct from default_value, the value a new config takes when nobody sets
  /// it (TV-L1's median_window: absent 0, off; default 5). A canonical config (its DB row and
  /// key, select/config_rows.hpp) leaves the parameter out exactly when it equals this value.
  std::optional<double> absent_value = std::nullopt;
  /// Categorical: the names of the values 0, 1, ... (e.g. {"bicubic", "bilinear"}).
  std::vector<std::string> choices = {};
  /// nullopt when `value` is valid, else "lambda=-1 outside (0, 10]" (with the range).
  std::optional<std::string> invalid_reason(double value) const;
  /// The valid range as text: "[1, 1000]", "(0, 0.25]" (integers without decimals);
  /// categorical: "0 = bicubic, 1 = bilinear".
  std::string range_text() const;
  /// `value` as text: the choice's name for a categorical parameter (when valid), else the
  /// shortest decimal, e.g. "bilinear", "0.15".
  std::string value_text(double value) const;
  /// The value of `text`: a choice's name or its index for a categorical parameter, else a
  /// number. nullopt when `text` is neither (no range check: see invalid_reason).
  std::optional<double> value_of(const std::string& text) const;
};

/// A metric a workload computes from its output (time and energy are the harness's). A metric
/// named ref_<m> is <m> measured against a reference output of a stated high-accuracy config
/// instead of the ground truth (e.g. ref_aepe): on inputs without ground truth it stands in for
/// <m> in the front objectives (select/objectives.hpp, front_objective_names).
struct MetricSpec {
  std::string name;      ///< e.g. "aepe"
  std::string unit;      ///< e.g. "px", "deg"
  bool minimize = true;  ///< false: higher is better
  std::string doc;       ///< one line, with its source
};

/// The inputs a workload is measured on (a dataset: frame pairs with ground truth, graphs).
class InputSet {
 public:
  virtual ~InputSet() = default;
  /// Stored with every measurement, e.g. "middlebury:Grove2,RubberWhale".
  virtual std::string key() const = 0;
  virtual std::size_t size() const = 0;
  /// Name of item i (a sequence, a graph), unique within the set.
  virtual std::string item_name(std::size_t i) const = 0;
  /// Work of one run on item i in the workload's work unit (pixels of a frame, N^3 relaxations).
  virtual double item_work(std::size_t i) const = 0;
  /// False when the items have no ground truth (a user's footage): accuracy is then measured
  /// against a reference output only, and each front objective m gives way to ref_<m>
  /// (MetricSpec).
  virtual bool has_ground_truth() const { return true; }
  /// What the inputs are, in one line for the run's header (e.g. the number of pairs, their
  /// size, and the reference the accuracy is measured against); "" = nothing to add.
  virtual std::string description() const { return ""; }
};

/// A small picture of a runner's output for the report (e.g. the colour-coded flow): its kind
/// ("flow", "ground_truth", "endpoint_error", ...), size in px, what full saturation means in
/// the picture's unit (px of flow or of error; 0 = nothing), and the bytes of an 8-bit RGB
/// PNG file.
struct OutputPicture {
  std::string kind;
  int width = 0, height = 0;
  double scale = 0;
  std::vector<std::uint8_t> png;
};

/// Thrown by Runner::score when the output fails the workload's correctness check (e.g.
/// APSP distances differ from the reference): the config is recorded as failed (accuracy).
struct CheckFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One config, built and bound to an input set: what the measurement harness runs.
class Runner {
 public:
  virtual ~Runner() = default;
  /// One synchronous execution on item i (one frame, one APSP solve): when it returns, all
  /// device work has finished, so host wall time is the execution's time.
  virtual void run(std::size_t item) = 0;
  /// Metrics (by MetricSpec name) of the output of the last run on item i against the
  /// reference or ground truth. Throws CheckFailed when a correctness check fails.
  virtual std::map<std::string, double> score(std::size_t item) = 0;
  /// Small pictures of the output of the last run on item i for the report, each side at
  /// most max_side pixels (a flow workload: flow_pictures of its flow against the ground
  /// truth, kernels/flow_pictures.hpp, as PNG); empty, the default, when the workload has none.
  virtual std::vector<OutputPicture> pictures(std::size_t item, int max_side) {
    (void)item;
    (void)max_side;
    return {};
  }
};

/// Where a workload's inputs come from: a folder and item names (empty: the workload's default).
struct InputOptions {
  InputOptions() = default;
  /// The folder, the items and the image size limit; the footage options at their defaults.
  InputOptions(std::string data_dir_in, std::vector<std::string> items_in = {},
               std::size_t max_pixels_in = 0)
      : data_dir(std::move(data_dir_in)), items(std::move(items_in)), max_pixels(max_pixels_in) {}
  std::string data_dir;  ///< a folder or, for footage, a video file
  std::vector<std::string> items;
  std::size_t max_pixels = 0;  ///< largest image read (width x height); 0 = the default (64 Mpx)
  /// Footage (optical flow): a text file of frame pairs, one "FIRST SECOND" a line ("" = the
  /// consecutive frames of data_dir).
  std::string pairs;
  /// Footage: pair k is made of frames k stride and k stride + 1 (1 = every frame pair).
  int stride = 1;
  /// Footage: frames read at most (the first ones in order; 0 = all).
  int max_frames = 0;
  /// Score against the reference output as well where the inputs have ground truth (inputs
  /// without ground truth always are: ref_<metric>, MetricSpec).
  bool reference_metrics = false;
  /// Optical flow: every pair resampled to resolution_width x resolution_height before it is
  /// measured (workloads/tvl1/resolution.hpp); 0 x 0 = each pair's own size.
  int resolution_width = 0, resolution_height = 0;
  /// Where a loader says what takes long (e.g. computing reference outputs), one line a call;
  /// empty = nowhere. Not sent to worker processes.
  std::function<void(const std::string&)> progress;
};

/// The dimensions of a space's parameters (parameter name -> values and ranges,
/// workloads/param_dimension.hpp).
using ParamDimensions = std::map<std::string, ParamDimension>;

/// An algorithm flowtune tunes (tvl1, apsp, ...).
class Workload {
 public:
  virtual ~Workload() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  /// Unit of InputSet::item_work, e.g. "px"; the harness stores time per unit (ns).
  virtual std::string work_unit() const = 0;
  virtual const std::vector<ParamSpec>& params() const = 0;
  virtual const std::vector<MetricSpec>& metrics() const = 0;
  /// The objectives of the default Pareto front: "time_ms" and/or metric names, e.g.
  /// {"time_ms", "aepe"}.
  virtual std::vector<std::string> front_objectives() const = 0;
  /// The workload's variants (each Variant::workload() == name()).
  virtual std::vector<const Variant*> variants() const = 0;
  /// The parameter dimensions of `tune` for a board of target "cpu" or "cuda" (values or
  /// ranges); parameters absent from the map take their default. A space that leaves one of
  /// these dimensions out fixes its parameter at ParamDimension::fixed_value (the target's
  /// default), not at the ParamSpec default.
  virtual ParamDimensions default_dimensions(const std::string& target) const = 0;
  /// Relative cost of one execution of config per work unit, for duration estimates (TV-L1:
  /// inner iterations per pixel over the pyramid); <= 0 when the workload has no model.
  virtual double relative_cost(const Config& config) const {
    (void)config;
    return 1;
  }
  /// Rules between parameters (beyond each ParamSpec's range); nullopt when valid.
  virtual std::optional<std::string> invalid_reason(const Config& config) const {
    (void)config;
    return std::nullopt;
  }
  /// Loads the inputs; throws std::runtime_error naming the file and the problem.
  virtual std::unique_ptr<InputSet> load_inputs(const InputOptions& options) const = 0;
  /// Builds config's variant for `inputs` (which must come from this workload's load_inputs
  /// and outlive the runner). Throws std::runtime_error when the build fails.
  virtual std::unique_ptr<Runner> make_runner(const Config& config,
                                              const InputSet& inputs) const = 0;

  /// Files of a one-off run (`tune run`): what to write and what to compare with.
  struct FileRun {
    std::vector<std::string> inputs;  ///< e.g. the two frames of TV-L1
    std::string output;               ///< the result file ("" = none), e.g. a .flo
    std::string visualisation;        ///< an image of the result ("" = none)
    std::string reference;            ///< ground truth to score against ("" = none)
    double visualisation_scale = 0;   ///< e.g. the flow magnitude of full saturation; 0 = auto
    std::size_t max_pixels = 0;       ///< largest image read; 0 = the default (64 Mpx)
    std::string init_flow;  ///< optical flow: a .flo to start from instead of 0 ("" = none)
  };
  /// Runs config once on files and writes what `run` asks for; returns a one-line summary
  /// (with the metrics when a reference is given). Throws std::runtime_error naming the file
  /// and the problem; the default throws "not supported by this workload".
  virtual std::string run_on_files(const Config& config, const FileRun& run) const;
  /// The frame size of run's inputs, width x height (optical flow: the first frame's), so
  /// that a header tuned at several sizes runs the nearest; 0 x 0 where inputs have no frame
  /// size (the default). Throws std::runtime_error naming a file that cannot be read.
  virtual Resolution input_size(const FileRun& run) const {
    (void)run;
    return {};
  }

  /// The spec of parameter `name`, or nullptr.
  const ParamSpec* find_param(const std::string& name) const;
  /// Every parameter at its default (the values of a new config: `tune run`, the spaces).
  ParamValues default_params() const;
  /// `params` with every parameter it lacks that has an absent value (ParamSpec::absent_value)
  /// set to that value: what a stored row, tuned header or imported file means. Parameters
  /// without an absent value stay missing (check_params names them).
  ParamValues with_absent_values(ParamValues params) const;
  /// `params` without each parameter that equals its absent value: the canonical form that
  /// DB rows and keys store, so a config keeps the key it had before such a parameter existed.
  ParamValues without_absent_values(ParamValues params) const;
  /// Checks config.params against the schema (every parameter present or with an absent
  /// value, known, in range, whole where integer), then invalid_reason(); nullopt when valid.
  std::optional<std::string> check_params(const Config& config) const;
};

/// The workload `tune` uses when none is named (the flagship).
inline constexpr const char* kDefaultWorkload = "tvl1";

/// Every workload compiled into this binary (each registered by its own file with
/// FLOWTUNE_REGISTER_WORKLOAD), in listing order: by listing rank, then by name.
const std::vector<const Workload*>& all_workloads();
/// Adds `workload` (a process-wide object, never destroyed before exit) to all_workloads().
/// listing_rank places it in every listing (`tune --help`, `tune params`, error messages):
/// lower ranks first, equal ranks by name. The built-in workloads use tvl1 100, apsp 200,
/// bm 300, lk 310, features 320; a new workload takes an unused rank. Returns false (and adds
/// nothing) when a workload of that name exists. Usually called through
/// FLOWTUNE_REGISTER_WORKLOAD from a static initialiser.
bool register_workload(int listing_rank, const Workload& workload);
/// The listing rank of register_workload(const Workload&): after every built-in workload.
inline constexpr int kLateWorkloadRank = 1000;
/// register_workload(kLateWorkloadRank, workload): for a workload built into one binary only
/// (e.g. a test workload linked into a test build of `tune`), listed after the others.
bool register_workload(const Workload& workload);
/// The variant `name` of workload, or nullptr.
const Variant* find_workload_variant(const Workload& workload, const std::string& name);
/// The workload called name; throws std::invalid_argument listing the valid names.
const Workload& find_workload(const std::string& name);

/// Registers a workload when constructed: the static object FLOWTUNE_REGISTER_WORKLOAD defines.
class WorkloadRegistrar {
 public:
  /// Calls register_workload(listing_rank, workload).
  WorkloadRegistrar(int listing_rank, const Workload& workload) {
    register_workload(listing_rank, workload);
  }
};

}  // namespace flowtune

/// Registers a workload from the .cpp file that defines it, at static initialisation, e.g.
///   FLOWTUNE_REGISTER_WORKLOAD(200, apsp_workload());
/// (listing rank, then the process-wide workload; see register_workload). Use it at namespace
/// scope of a .cpp under workloads/<name>/, which CMake links whole-archive
/// (cmake/FlowtuneRegistration.cmake) so that the linker keeps the registration.
#define FLOWTUNE_REGISTER_WORKLOAD(listing_rank, workload)                                  \
  static const ::flowtune::WorkloadRegistrar FLOWTUNE_CONCAT_(flowtune_workload_registrar_, \
                                                              __LINE__)(listing_rank, workload)
