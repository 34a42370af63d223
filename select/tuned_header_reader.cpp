// The one reader of tuned headers (select/tuned_header_reader.hpp).
#include "select/tuned_header_reader.hpp"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
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

namespace {

// "h200@1280x720" -> board "h200", 1280 x 720; "h200" -> 0 x 0. False for a malformed size.
bool split_label(const std::string& label, TunedHeaderEntry& e) {
  const std::size_t at = label.rfind('@');
  e.board = label.substr(0, at);
  e.width = e.height = 0;
  if (at == std::string::npos) return true;
  const std::string size = label.substr(at + 1);
  const std::size_t x = size.find('x');
  if (x == std::string::npos || x == 0 || x + 1 == size.size()) return false;
  for (std::size_t i = 0; i < size.size(); ++i)
    if (i != x && !std::isdigit(static_cast<unsigned char>(size[i]))) return false;
  if (x > 5 || size.size() - x - 1 > 5) return false;
  e.width = std::stoi(size.substr(0, x));
  e.height = std::stoi(size.substr(x + 1));
  return e.width > 0 && e.height > 0;
}

std::string label_of(const TunedHeaderEntry& e) {
  return e.width > 0 ? e.board + "@" + std::to_string(e.width) + "x" + std::to_string(e.height)
                     : e.board;
}

}  // namespace

std::vector<TunedHeaderEntry> read_tuned_header_entries(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the tuned header");
  const std::string marker = tuned_config_marker();
  const std::string label_prefix = "// flowtune-config[";
  std::vector<TunedHeaderEntry> entries;
  for (std::string line; std::getline(in, line);) {
    TunedHeaderEntry e;
    std::string json;
    if (line.rfind(label_prefix, 0) == 0) {
      const auto end = line.find("]: ");
      if (end == std::string::npos) continue;
      const std::string label = line.substr(label_prefix.size(), end - label_prefix.size());
      if (!split_label(label, e))
        throw std::runtime_error(path + ": malformed flowtune-config label '" + label +
                                 "' (expected BOARD or BOARD@WIDTHxHEIGHT)");
      json = line.substr(end + 3);
    } else if (line.rfind(marker, 0) == 0) {
      json = line.substr(marker.size());
    } else {
      continue;
    }
    try {
      e.config = parse_tuned_config(json);
    } catch (const std::invalid_argument& err) {
      throw std::runtime_error(path + ": malformed flowtune-config line (" + err.what() + ")");
    }
    entries.push_back(std::move(e));
  }
  if (entries.empty())
    throw std::runtime_error(path +
                             ": not a flowtune tuned header (no '// flowtune-config:' line; "
                             "export it again with `tune export`)");
  return entries;
}

double tuned_size_distance(int tuned_width, int tuned_height, int width, int height) {
  if (tuned_width <= 0 || tuned_height <= 0 || width <= 0 || height <= 0)
    return std::numeric_limits<double>::infinity();
  const double area = std::log(double(tuned_width) * tuned_height / (double(width) * height));
  const double aspect = std::log(double(tuned_width) / tuned_height * height / width);
  return std::fabs(area) + 1e-3 * std::fabs(aspect);
}

const TunedHeaderEntry& select_tuned_entry(const std::vector<TunedHeaderEntry>& entries,
                                           const std::string& board, int width, int height,
                                           const std::string& path) {
  std::string labels;
  std::set<std::string> boards;
  for (const TunedHeaderEntry& e : entries) {
    labels += (labels.empty() ? "" : ", ") + label_of(e);
    boards.insert(e.board);
  }
  // A single-board header's one line ("// flowtune-config: ") serves any board asked for.
  if (entries.size() == 1 && entries[0].board.empty()) return entries[0];
  std::vector<const TunedHeaderEntry*> candidates;
  for (const TunedHeaderEntry& e : entries)
    if (e.board == board || (board.empty() && boards.size() == 1)) candidates.push_back(&e);
  if (candidates.empty())
    throw std::runtime_error(
        path + ": a header of several boards (" + labels + "); " +
        (board.empty() ? "choose one with --board" : "it has no board '" + board + "'"));
  if (candidates.size() == 1) return *candidates[0];
  if (width <= 0 || height <= 0)
    throw std::runtime_error(path + ": board '" + candidates[0]->board +
                             "' was tuned at several sizes (" + labels +
                             "): the frame size picks one");
  const TunedHeaderEntry* best = candidates[0];
  for (const TunedHeaderEntry* e : candidates)
    if (tuned_size_distance(e->width, e->height, width, height) <
        tuned_size_distance(best->width, best->height, width, height))
      best = e;
  return *best;
}

Config read_tuned_header(const std::string& path, const std::string& board, int width, int height) {
  return select_tuned_entry(read_tuned_header_entries(path), board, width, height, path).config;
}

}  // namespace flowtune
