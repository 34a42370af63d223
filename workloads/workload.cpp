#include "workloads/workload.hpp"

#include <cmath>
#include <cstddef>
#include <stdexcept>

namespace flowtune {

std::string ParamSpec::range_text() const {
  if (type == Type::categorical) {
    std::string s;
    for (std::size_t k = 0; k < choices.size(); ++k)
      s += (k ? ", " : "") + std::to_string(k) + " = " + choices[k];
    return s;
  }
  return std::string(min_open ? "(" : "[") + shortest_decimal(min) + ", " + shortest_decimal(max) +
         (max_open ? ")" : "]");
}

std::optional<std::string> ParamSpec::invalid_reason(double value) const {
  // The message is built only for a value that is refused (imports check 10^6 values).
  const auto what = [&] { return name + "=" + shortest_decimal(value); };
  if (!std::isfinite(value))
    return what() + " is not a finite number (valid: " + range_text() + ")";
  if (type == Type::categorical) {
    if (value != std::floor(value) || value < 0 || value >= double(choices.size()))
      return what() + " is not one of " + range_text();
    return std::nullopt;
  }
  if (type == Type::integer && value != std::floor(value))
    return what() + " is not a whole number (valid: integers in " + range_text() + ")";
  const bool below = min_open ? !(value > min) : !(value >= min);
  const bool above = max_open ? !(value < max) : !(value <= max);
  if (below || above) return what() + " outside " + range_text();
  return std::nullopt;
}

std::string ParamSpec::value_text(double value) const {
  if (type == Type::categorical && !invalid_reason(value))
    return choices[static_cast<std::size_t>(value)];
  return shortest_decimal(value);
}

std::optional<double> ParamSpec::value_of(const std::string& text) const {
  for (std::size_t k = 0; k < choices.size(); ++k)
    if (choices[k] == text) return double(k);
  try {
    std::size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size()) return v;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

const ParamSpec* Workload::find_param(const std::string& name) const {
  for (const ParamSpec& p : params())
    if (p.name == name) return &p;
  return nullptr;
}

ParamValues Workload::default_params() const {
  ParamValues v;
  for (const ParamSpec& p : params()) v[p.name] = p.default_value;
  return v;
}

ParamValues Workload::with_absent_values(ParamValues params) const {
  for (const ParamSpec& p : this->params())
    if (p.absent_value && !params.count(p.name)) params[p.name] = *p.absent_value;
  return params;
}

ParamValues Workload::without_absent_values(ParamValues params) const {
  for (const ParamSpec& p : this->params()) {
    const auto it = params.find(p.name);
    if (p.absent_value && it != params.end() && it->second == *p.absent_value) params.erase(it);
  }
  return params;
}

std::optional<std::string> Workload::check_params(const Config& config) const {
  for (const auto& [name, value] : config.params) {
    (void)value;
    if (!find_param(name)) return this->name() + ": unknown parameter '" + name + "'";
  }
  for (const ParamSpec& p : params()) {
    const auto it = config.params.find(p.name);
    if (it == config.params.end()) {
      if (p.absent_value) continue;  // a row or header written before p existed
      return this->name() + ": parameter '" + p.name + "' missing";
    }
    if (auto why = p.invalid_reason(it->second)) return this->name() + ": " + *why;
  }
  return invalid_reason(config);
}

std::string Workload::run_on_files(const Config& config, const FileRun& run) const {
  (void)config;
  (void)run;
  throw std::runtime_error("`tune run` is not supported by workload '" + name() + "'");
}

}  // namespace flowtune
