// Command-line parsing shared by the sub-commands (options, lists, ranges): Boost
// program_options only, no workload, so the fuzz harness tests/fuzz/fuzz_cli.cpp builds it
// alone.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "cli/cli.hpp"
#include "cli/options.hpp"

namespace flowtune::cli {

void add_space_options(po::options_description& desc, SpaceArgs& a) {
  desc.add_options()("workload", po::value(&a.workload)->default_value(a.workload),
                     "workload to tune (`tune params` lists them)")(
      "variant", po::value(&a.variants)->composing(),
      "variant to include (repeatable; default: all of the board's target)")(
      "precision", po::value(&a.precisions)->composing(),
      "f32 | f16 | mixed (repeatable; default: all)")(
      "tunable", po::value(&a.tunables)->composing(),
      "restrict a tunable: NAME=V1,V2,... (repeatable)")(
      "param", po::value(&a.params)->composing(),
      "a parameter dimension: NAME=V1,V2,... or NAME=LO:HI:log|lin:COUNT (repeatable; `tune "
      "params` lists them)")("no-default-dimensions", po::bool_switch(&a.no_default_dimensions),
                             "parameters not given with --param take their default only (not the "
                             "workload's default dimensions)");
}

std::vector<int> parse_int_list(const std::string& option, const std::string& text) {
  std::vector<int> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    try {
      std::size_t used = 0;
      const int v = std::stoi(item, &used);
      if (used != item.size()) throw std::invalid_argument(item);
      out.push_back(v);
    } catch (const std::exception&) {
      throw UsageError("--" + option + ": '" + item +
                       "' is not an integer (expected a list like 10,25,50)");
    }
  }
  if (out.empty()) throw UsageError("--" + option + ": empty list");
  return out;
}

std::vector<double> parse_param_values(const std::string& name, const std::string& text,
                                       bool integer) {
  const auto number = [&](const std::string& item) {
    try {
      std::size_t used = 0;
      const double v = std::stod(item, &used);
      if (used != item.size()) throw std::invalid_argument(item);
      return v;
    } catch (const std::exception&) {
      throw UsageError("--param " + name + ": '" + item +
                       "' is not a number (expected V1,V2,... or LO:HI:log|lin:COUNT)");
    }
  };
  std::vector<double> out;
  if (text.find(':') != std::string::npos) {
    std::vector<std::string> parts;
    std::stringstream ss(text);
    for (std::string p; std::getline(ss, p, ':');) parts.push_back(p);
    if (parts.size() != 4 || (parts[2] != "log" && parts[2] != "lin"))
      throw UsageError("--param " + name + "=" + text +
                       ": a range is LO:HI:log|lin:COUNT, e.g. 0.05:0.5:log:8");
    const double lo = number(parts[0]), hi = number(parts[1]);
    const double count_value = number(parts[3]);
    if (count_value < 1 || count_value > 1000 || count_value != std::floor(count_value))
      throw UsageError("--param " + name + ": COUNT must be a whole number in [1, 1000]");
    const int count = static_cast<int>(count_value);
    if (parts[2] == "log" && !(lo > 0 && hi > 0))
      throw UsageError("--param " + name + ": a log range needs LO > 0 and HI > 0");
    for (int k = 0; k < count; ++k) {
      const double t = count == 1 ? 0.0 : double(k) / (count - 1);
      out.push_back(parts[2] == "log" ? lo * std::pow(hi / lo, t) : lo + (hi - lo) * t);
    }
    if (count > 1) out.back() = hi;  // exact end point
    for (double& v :
         out) {  // 12 significant digits: 0.1 * 8^(2/3) reads 0.4, not 0.39999999999999997
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.12g", v);
      v = std::stod(buf);
    }
  } else {
    std::stringstream ss(text);
    for (std::string item; std::getline(ss, item, ',');) {
      out.push_back(number(item));
      if (integer && out.back() != std::floor(out.back()))
        throw UsageError("--param " + name + ": '" + item + "' is not a whole number");
    }
  }
  if (out.empty()) throw UsageError("--param " + name + ": empty list");
  if (integer) {
    std::vector<double> rounded;
    for (double v : out) {
      const double r = std::round(v);
      if (std::find(rounded.begin(), rounded.end(), r) == rounded.end()) rounded.push_back(r);
    }
    out = rounded;
  }
  return out;
}

bool parse(const std::vector<std::string>& args, const po::options_description& desc,
           const po::positional_options_description& pos, po::variables_map& vm,
           const std::string& usage) {
  try {
    po::store(po::command_line_parser(args).options(desc).positional(pos).run(), vm);
    if (vm.count("help")) {
      std::cout << usage << "\n\n" << desc << '\n';
      return true;
    }
    po::notify(vm);
  } catch (const po::error_with_option_name& e) {
    // Boost 1.74's what() substitutes %option%-style tokens in a loop that never ends when
    // the user's text itself holds such a token (e.g. --board%canonical_option%): build
    // the message without it when any argument holds a '%'.
    const bool has_percent = std::any_of(args.begin(), args.end(), [](const std::string& a) {
      return a.find('%') != std::string::npos;
    });
    if (has_percent)
      throw UsageError("invalid option or value near '" + e.get_option_name() +
                       "' (an argument holds '%'; check the spelling)\nusage: " + usage);
    throw UsageError(std::string(e.what()) + "\nusage: " + usage);
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + "\nusage: " + usage);
  }
  return false;
}

Budget parse_budget(const std::string& option, const std::string& text) {
  Budget b;
  try {
    std::size_t used = 0;
    if (!text.empty() && text.back() == '%') {
      const double pct = std::stod(text.substr(0, text.size() - 1), &used);
      if (used + 1 != text.size() || !(pct > 0) || pct > 100) throw std::invalid_argument(text);
      b.fraction = pct / 100.0;
      return b;
    }
    const long long v = std::stoll(text, &used);
    if (used != text.size() || v < 1) throw std::invalid_argument(text);
    b.evaluations = std::size_t(v);
    return b;
  } catch (const std::exception&) {
    throw UsageError(option + ": '" + text + "' is neither a percentage of the space (10%) nor " +
                     "a number of evaluations >= 1");
  }
}

}  // namespace flowtune::cli
