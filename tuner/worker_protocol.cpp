// The messages of the worker protocol: a worker request line (tuner/worker.hpp) and a
// distributed task's body (tuner/store_worker.hpp), as JSON. Kept apart from the worker loops
// so that the fuzz harness (tests/fuzz/fuzz_worker_protocol.cpp) builds with this file, the
// config codec (db/config_key.cpp) and nlohmann-json only.
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "tuner/store_worker.hpp"
#include "tuner/worker.hpp"

namespace flowtune {
namespace {

nlohmann::json inputs_json(const InputOptions& o) {
  return {{"data_dir", o.data_dir},
          {"items", o.items},
          {"max_pixels", o.max_pixels},
          {"pairs", o.pairs},
          {"stride", o.stride},
          {"max_frames", o.max_frames},
          {"reference_metrics", o.reference_metrics},
          {"resolution", {o.resolution_width, o.resolution_height}}};
}

nlohmann::json request_object(const WorkerRequest& r) {
  return {{"board", r.board},
          {"config", nlohmann::json::parse(db::config_json(r.config))},
          {"inputs", inputs_json(r.inputs)},
          {"measure",
           {{"warmup_rounds", r.measure.warmup_rounds},
            {"min_rounds", r.measure.min_rounds},
            {"max_rounds", r.measure.max_rounds},
            {"min_window_ms", r.measure.min_window_ms},
            {"ci_fraction", r.measure.ci_fraction},
            {"max_window_ms", r.measure.max_window_ms},
            {"energy", r.measure.energy}}}};
}

}  // namespace

std::string input_options_json(const InputOptions& inputs) {
  return inputs_json(inputs).dump();
}

std::string worker_request_json(const WorkerRequest& request) {
  return request_object(request).dump();
}

WorkerRequest parse_worker_request(const std::string& text) {
  try {
    const nlohmann::json req = nlohmann::json::parse(text);
    WorkerRequest r;
    r.board = req.at("board").get<std::string>();
    r.config = db::parse_config_json(req.at("config").dump());
    r.inputs.data_dir = req.at("inputs").at("data_dir").get<std::string>();
    r.inputs.items = req.at("inputs").at("items").get<std::vector<std::string>>();
    r.inputs.max_pixels = req.at("inputs").at("max_pixels").get<std::size_t>();
    // The footage options, absent from a request of a build without them.
    const nlohmann::json& in = req.at("inputs");
    r.inputs.pairs = in.value("pairs", std::string());
    r.inputs.stride = in.value("stride", 1);
    r.inputs.max_frames = in.value("max_frames", 0);
    r.inputs.reference_metrics = in.value("reference_metrics", false);
    if (in.contains("resolution")) {
      r.inputs.resolution_width = in.at("resolution").at(0).get<int>();
      r.inputs.resolution_height = in.at("resolution").at(1).get<int>();
    }
    const nlohmann::json& m = req.at("measure");
    r.measure.warmup_rounds = m.at("warmup_rounds").get<int>();
    r.measure.min_rounds = m.at("min_rounds").get<int>();
    r.measure.max_rounds = m.at("max_rounds").get<int>();
    r.measure.min_window_ms = m.at("min_window_ms").get<double>();
    r.measure.ci_fraction = m.at("ci_fraction").get<double>();
    r.measure.max_window_ms = m.at("max_window_ms").get<double>();
    r.measure.energy = m.at("energy").get<bool>();
    return r;
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("malformed worker request: ") + e.what());
  }
}

std::string task_request_json(const TaskRequest& t) {
  return nlohmann::json{{"request", nlohmann::json::parse(worker_request_json(t.request))},
                        {"dataset", t.dataset},
                        {"resources_json", t.resources_json},
                        {"allow_clock_control", t.allow_clock_control},
                        {"config_timeout_s", t.config_timeout_s},
                        {"progress_deadline_s", t.progress_deadline_s}}
      .dump();
}

TaskRequest parse_task_request(const std::string& text) {
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    TaskRequest t;
    t.request = parse_worker_request(j.at("request").dump());
    t.dataset = j.at("dataset").get<std::string>();
    t.resources_json = j.at("resources_json").get<std::string>();
    t.allow_clock_control = j.at("allow_clock_control").get<bool>();
    t.config_timeout_s = j.at("config_timeout_s").get<double>();
    t.progress_deadline_s = j.value("progress_deadline_s", 0.0);
    if (!(t.progress_deadline_s >= 0))
      throw std::invalid_argument("malformed task: progress_deadline_s must be >= 0");
    return t;
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("malformed task: ") + e.what());
  }
}

}  // namespace flowtune
