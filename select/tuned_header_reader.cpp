// The one reader of tuned headers (select/tuned_header_reader.hpp).
#include "select/tuned_header_reader.hpp"

#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace flowtune {
namespace {

const nlohmann::json& member(const nlohmann::json& j, const char* name, const std::string& text) {
  const auto it = j.find(name);
  if (it == j.end())
    throw std::invalid_argument(std::string("tuned config: '") + name + "' missing in '" + text +
                                "'");
  return *it;
}

std::string string_member(const nlohmann::json& j, const char* name, const std::string& text) {
  const nlohmann::json& v = member(j, name, text);
  if (!v.is_string())
    throw std::invalid_argument(std::string("tuned config: '") + name + "' is not a string in '" +
                                text + "'");
  return v.get<std::string>();
}

const nlohmann::json& object_member(const nlohmann::json& j, const char* name,
                                    const std::string& text) {
  const nlohmann::json& v = member(j, name, text);
  if (!v.is_object())
    throw std::invalid_argument(std::string("tuned config: '") + name + "' is not an object in '" +
                                text + "'");
  return v;
}

}  // namespace

std::string tuned_config_marker(const std::string& board) {
  return board.empty() ? "// flowtune-config: " : "// flowtune-config[" + board + "]: ";
}

Config parse_tuned_config(const std::string& json) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(json);
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument("tuned config: not JSON: '" + json + "' (" + e.what() + ")");
  }
  if (!j.is_object())
    throw std::invalid_argument("tuned config: not a JSON object: '" + json + "'");
  Config c;
  c.workload = string_member(j, "workload", json);
  c.variant = string_member(j, "variant", json);
  c.precision = string_member(j, "precision", json);
  const nlohmann::json& clock = member(j, "clock_mhz", json);
  if (!clock.is_number_integer() || clock.get<std::int64_t>() < 0 ||
      clock.get<std::int64_t>() > 100000)
    throw std::invalid_argument(
        "tuned config: clock_mhz must be a whole number in [0, 100000] in '" + json + "'");
  c.clock_mhz = static_cast<int>(clock.get<std::int64_t>());
  for (const auto& [name, value] : object_member(j, "tunables", json).items()) {
    if (!value.is_number_integer() || value.get<std::int64_t>() < INT32_MIN ||
        value.get<std::int64_t>() > INT32_MAX)
      throw std::invalid_argument("tuned config: tunable '" + name + "' is not an int in '" + json +
                                  "'");
    c.tunables[name] = static_cast<int>(value.get<std::int64_t>());
  }
  for (const auto& [name, value] : object_member(j, "params", json).items()) {
    if (!value.is_number())
      throw std::invalid_argument("tuned config: parameter '" + name + "' is not a number in '" +
                                  json + "'");
    c.params[name] = value.get<double>();
  }
  return c;
}

Config read_tuned_header(const std::string& path, const std::string& board) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the tuned header");
  const std::string marker = tuned_config_marker();
  const std::string board_prefix = "// flowtune-config[";
  const std::string board_marker = tuned_config_marker(board);
  std::string boards;  // of a multi-board header
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(board_prefix, 0) == 0) {
      const auto end = line.find("]: ");
      if (end != std::string::npos)
        boards += (boards.empty() ? "" : ", ") +
                  line.substr(board_prefix.size(), end - board_prefix.size());
      if (board.empty() || line.rfind(board_marker, 0) != 0) continue;
      line = marker + line.substr(board_marker.size());
    }
    if (line.rfind(marker, 0) != 0) continue;
    try {
      return parse_tuned_config(line.substr(marker.size()));
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(path + ": malformed flowtune-config line (" + e.what() + ")");
    }
  }
  if (!boards.empty())
    throw std::runtime_error(
        path + ": a header of several boards (" + boards + "); " +
        (board.empty() ? "choose one with --board" : "it has no board '" + board + "'"));
  throw std::runtime_error(path +
                           ": not a flowtune tuned header (no '// flowtune-config:' line; "
                           "export it again with `tune export`)");
}

}  // namespace flowtune
