#include "tuner/point_line.hpp"

#include <iomanip>
#include <sstream>

namespace flowtune {

VaryingDimensions varying_dimensions(const ConfigSpace& space) {
  VaryingDimensions v;
  if (space.empty()) return v;
  const Config first = space[0];
  space.for_each([&](std::size_t, const Config& c) {
    v.variant = v.variant || c.variant != first.variant;
    v.precision = v.precision || c.precision != first.precision;
    v.clock = v.clock || c.clock_mhz != first.clock_mhz;
    for (const auto& [name, value] : c.tunables) {
      const auto it = first.tunables.find(name);
      if (it == first.tunables.end() || it->second != value) v.tunables.insert(name);
    }
    for (const auto& [name, value] : first.tunables)
      if (!c.tunables.count(name)) v.tunables.insert(name);
    for (const auto& [name, value] : c.params) {
      const auto it = first.params.find(name);
      if (it == first.params.end() || it->second != value) v.params.insert(name);
    }
    for (const auto& [name, value] : first.params)
      if (!c.params.count(name)) v.params.insert(name);
  });
  return v;
}

std::string varying_text(const Config& config, const VaryingDimensions& varying) {
  std::string s;
  const auto add = [&s](const std::string& part) { s += (s.empty() ? "" : " ") + part; };
  if (varying.variant) add(config.variant);
  if (varying.precision) add(config.precision);
  for (const auto& [name, value] : config.tunables)
    if (varying.tunables.count(name)) add(name + "=" + std::to_string(value));
  for (const auto& [name, value] : config.params)
    if (varying.params.count(name)) add(name + "=" + shortest_decimal(value));
  if (varying.clock) add("clock_mhz=" + std::to_string(config.clock_mhz));
  return s.empty() ? config.variant : s;
}

std::string figures_text(const db::MeasurementRow& m) {
  std::ostringstream os;
  os << std::setprecision(3) << m.time_ms_median << " ms";
  for (const auto& [name, value] : m.metrics) os << ", " << name << " " << value;
  if (m.energy_mj) os << ", energy " << *m.energy_mj << " mJ";
  return os.str();
}

std::string short_message(const std::string& message, std::size_t max_chars) {
  std::string line = message.substr(0, message.find('\n'));
  const bool cut = line.size() > max_chars || line.size() < message.size();
  if (line.size() > max_chars) line = line.substr(0, max_chars > 3 ? max_chars - 3 : 0);
  return cut ? line + "..." : line;
}

}  // namespace flowtune
