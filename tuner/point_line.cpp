#include "tuner/point_line.hpp"

#include <iomanip>
#include <map>
#include <set>
#include <sstream>

namespace flowtune {

namespace {

// A listed space (its configs given): each config compared with the first, in one pass.
VaryingDimensions varying_dimensions_of_listed(const ConfigSpace& space) {
  VaryingDimensions v;
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

}  // namespace

VaryingDimensions varying_dimensions(const ConfigSpace& space) {
  VaryingDimensions v;
  if (space.empty()) return v;
  if (!space.generated()) return varying_dimensions_of_listed(space);
  // From the space's layout (per block of a variant and precision, its tunables' values; the
  // parameters' values shared by every block): no pass over the configs, which a default GPU
  // space has ~10^11 of.
  const SpaceLayout layout = space.layout();
  const SpaceLayout::Block& first = layout.blocks.front();
  std::map<std::string, std::size_t> blocks_with;  // tunable -> blocks that have it
  for (const SpaceLayout::Block& b : layout.blocks) {
    v.variant = v.variant || b.variant != first.variant;
    v.precision = v.precision || b.precision != first.precision;
    for (const SpaceLayout::Axis& t : b.tunables) {
      ++blocks_with[t.name];
      if (t.values.size() > 1) v.tunables.insert(t.name);
    }
  }
  // A tunable some blocks lack, or whose single value differs between blocks, varies.
  for (const auto& [name, n] : blocks_with) {
    if (n != layout.blocks.size()) {
      v.tunables.insert(name);
      continue;
    }
    std::set<double> values;
    for (const SpaceLayout::Block& b : layout.blocks)
      for (const SpaceLayout::Axis& t : b.tunables)
        if (t.name == name) values.insert(t.values.begin(), t.values.end());
    if (values.size() > 1) v.tunables.insert(name);
  }
  for (const SpaceLayout::Axis& p : layout.params)
    if (p.values.size() > 1) v.params.insert(p.name);
  v.clock = layout.clocks.size() > 1;
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
