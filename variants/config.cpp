#include "variants/config.hpp"

#include <sstream>
#include <stdexcept>

namespace flowtune {

std::string Config::key() const {
  std::ostringstream os;
  os << variant << ' ' << precision;
  for (const auto& [name, value] : tunables) os << ' ' << name << '=' << value;
  os << " clock=" << clock_mhz << " it=" << params.iterations << " ws=" << params.n_warpings
     << " sc=" << params.n_scales << " zoom=" << params.zoom << " eps=" << params.epsilon
     << " tau=" << params.tau << " lambda=" << params.lambda << " theta=" << params.theta;
  return os.str();
}

std::string Config::label() const {
  std::ostringstream os;
  os << variant << ' ' << precision;
  for (const auto& [name, value] : tunables) os << ' ' << name << '=' << value;
  return os.str();
}

std::string Config::tunables_json() const {
  std::ostringstream os;
  os << '{';
  bool first = true;
  for (const auto& [name, value] : tunables) {
    os << (first ? "" : ",") << '"' << name << "\":" << value;
    first = false;
  }
  os << '}';
  return os.str();
}

int Config::tunable(const std::string& name) const {
  auto it = tunables.find(name);
  if (it == tunables.end())
    throw std::out_of_range("config '" + label() + "' has no tunable '" + name + "'");
  return it->second;
}

}  // namespace flowtune
