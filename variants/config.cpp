#include "variants/config.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace flowtune {

std::string shortest_decimal(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[32];
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", value);
    return buf;
  }
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, value);
    if (std::strtod(buf, nullptr) == value) break;
  }
  return buf;
}

std::string Config::label() const {
  std::ostringstream os;
  os << variant << ' ' << precision;
  for (const auto& [name, value] : tunables) os << ' ' << name << '=' << value;
  return os.str();
}

std::string Config::params_text() const {
  std::string s;
  for (const auto& [name, value] : params)
    s += (s.empty() ? "" : " ") + name + "=" + shortest_decimal(value);
  return s;
}

int Config::tunable(const std::string& name) const {
  auto it = tunables.find(name);
  if (it == tunables.end())
    throw std::out_of_range("config '" + label() + "' has no tunable '" + name + "'");
  return it->second;
}

double Config::param(const std::string& name) const {
  auto it = params.find(name);
  if (it == params.end())
    throw std::out_of_range("config '" + label() + "' has no parameter '" + name + "'");
  return it->second;
}

}  // namespace flowtune
