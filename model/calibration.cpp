#include "model/calibration.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace flowtune::model {
namespace {

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::stringstream in(text);
  while (std::getline(in, item, sep)) out.push_back(item);
  return out;
}

double positive(const std::string& where, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(v > 0))
    throw std::runtime_error(where + ": '" + text + "' is not a number > 0");
  return v;
}

}  // namespace

std::vector<CalibrationEntry> load_calibration(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read calibration file " + path);
  std::vector<CalibrationEntry> out;
  std::string line;
  bool header = false;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line[0] == '#') continue;
    const std::string where = path + ":" + std::to_string(n);
    if (!header) {
      if (line != "board,variant,precision,tunables,ns_per_px,flop_per_px")
        throw std::runtime_error(where +
                                 ": expected the header "
                                 "board,variant,precision,tunables,ns_per_px,flop_per_px");
      header = true;
      continue;
    }
    const auto f = split(line, ',');
    if (f.size() != 6) throw std::runtime_error(where + ": expected 6 fields");
    CalibrationEntry e{f[0], f[1], f[2], {}, positive(where, f[4]), positive(where, f[5])};
    for (const auto& kv : split(f[3], ' ')) {
      if (kv.empty()) continue;
      const auto eq = kv.find('=');
      if (eq == std::string::npos) throw std::runtime_error(where + ": tunable '" + kv + "'");
      e.tunables[kv.substr(0, eq)] = std::atoi(kv.c_str() + eq + 1);
    }
    out.push_back(std::move(e));
  }
  if (!header) throw std::runtime_error(path + ": no header line");
  return out;
}

std::string default_calibration_path() {
  const char* dir = std::getenv("FLOWTUNE_MODEL_DIR");
  const std::string base =
      dir && *dir ? std::string(dir) : std::string(FLOWTUNE_SOURCE_DIR) + "/model";
  return base + "/calibration/h200_tvl1_2048.csv";
}

const CalibrationEntry* find_calibration(const std::vector<CalibrationEntry>& entries,
                                         const std::string& variant, const std::string& precision) {
  for (const auto& e : entries)
    if (e.variant == variant && e.precision == precision) return &e;
  return nullptr;
}

}  // namespace flowtune::model
