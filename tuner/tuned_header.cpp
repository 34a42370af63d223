#include "tuner/tuned_header.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace flowtune {

Config read_tuned_header(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the tuned header");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();

  std::map<std::string, std::string> constants;  // kName -> value text (quotes stripped)
  const std::regex constexpr_re(R"(constexpr\s+[\w\s\*]+?\s(k\w+)\s*=\s*([^;]+);)");
  for (std::sregex_iterator it(text.begin(), text.end(), constexpr_re), end; it != end; ++it) {
    std::string value = (*it)[2].str();
    value.erase(std::remove(value.begin(), value.end(), '"'), value.end());
    constants[(*it)[1].str()] = value;
  }
  auto need = [&](const char* name) {
    auto it = constants.find(name);
    if (it == constants.end()) throw std::runtime_error(path + ": tuned header has no " + name);
    return it->second;
  };
  Config c;
  c.variant = need("kVariant");
  c.precision = need("kPrecision");
  auto number = [&](const char* name, double fallback) {
    auto it = constants.find(name);
    try {
      return it == constants.end() ? fallback : std::stod(it->second);
    } catch (const std::exception&) {
      throw std::runtime_error(path + ": " + name + " is not a number: '" + it->second + "'");
    }
  };
  c.params.iterations = int(number("kIterations", c.params.iterations));
  c.params.n_scales = int(number("kNScales", c.params.n_scales));
  c.params.n_warpings = int(number("kNWarpings", c.params.n_warpings));
  c.params.zoom = number("kZoom", c.params.zoom);
  c.params.tau = number("kTau", c.params.tau);
  c.params.lambda = number("kLambda", c.params.lambda);
  c.params.theta = number("kTheta", c.params.theta);
  c.params.epsilon = number("kEpsilon", c.params.epsilon);
  c.clock_mhz = int(number("kClockMhz", 0));

  const std::regex define_re(R"(#define\s+FLOWTUNE_TUNED_(\w+)\s+(-?\d+)\s*\n)");
  for (std::sregex_iterator it(text.begin(), text.end(), define_re), end; it != end; ++it) {
    std::string name = (*it)[1].str();
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
    c.tunables[name] = std::stoi((*it)[2].str());
  }
  return c;
}

}  // namespace flowtune
