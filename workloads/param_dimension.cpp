#include "workloads/param_dimension.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "variants/config.hpp"
#include "workloads/workload.hpp"

namespace flowtune {
namespace {

// 10^e as the exact double (|e| <= 22 is exact; the callers stay within that).
double power_of_ten(int e) {
  double p = 1;
  for (int k = 0; k < std::abs(e); ++k) p *= 10;
  return p;
}

// m * 10^e, correctly rounded: for e < 0 a division of two exact doubles, so 55 * 10^-2 is
// the double nearest 0.55 (the one strtod returns), never 0.55000000000000004.
double scaled(double m, int e) {
  return e >= 0 ? m * power_of_ten(e) : m / power_of_ten(-e);
}

// The number of decimals of step (0.05 -> 2, 0.5 -> 1, 2 -> 0), at most 12.
int decimals_of(double step) {
  for (int d = 0; d < 12; ++d) {
    const double s = step * power_of_ten(d);
    if (std::fabs(s - std::round(s)) <= 1e-9 * std::max(1.0, s)) return d;
  }
  return 12;
}

// lo and hi with the step's decimals, as `tune space` prints them ("0.50..0.90").
std::string fixed_text(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

void push_unique(std::vector<double>& out, double v) {
  if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
}

}  // namespace

double round_significant(double value, int digits) {
  if (value == 0 || !std::isfinite(value) || digits <= 0) return value;
  const int e = int(std::floor(std::log10(std::fabs(value)))) - (digits - 1);
  // 9.96 at 2 digits gives the mantissa 100 (three digits), still the value 10.
  const double m = std::round(e >= 0 ? value / power_of_ten(e) : value * power_of_ten(-e));
  return scaled(m, e);
}

double round_to_step(double value, double step) {
  if (!(step > 0) || !std::isfinite(value)) return value;
  const int d = decimals_of(step);
  return scaled(std::round(value * power_of_ten(d)), -d);
}

std::optional<std::string> ParamRange::invalid_reason() const {
  if (!std::isfinite(lo) || !std::isfinite(hi)) return "a range needs finite ends";
  if (lo > hi)
    return "a range needs LO <= HI (got " + shortest_decimal(lo) + ".." + shortest_decimal(hi) +
           ")";
  if (scale == Scale::log && !(lo > 0)) return "a log range needs LO > 0";
  if (count < 0 || count > 100000) return "a range's point count must be in [1, 100000]";
  if (count == 0 && scale == Scale::linear && !(step > 0)) return "a linear range needs a step > 0";
  if (count == 0 && scale == Scale::linear && (hi - lo) / step > 1e6)
    return "a range of more than 10^6 values";
  if (count == 0 && scale == Scale::log && (digits < 1 || digits > 4))
    return "a log range's resolution must be 1 to 4 significant digits";
  if (count > 0 && (digits < 1 || digits > 15)) return "significant digits must be in [1, 15]";
  return std::nullopt;
}

std::vector<double> ParamRange::values() const {
  if (auto why = invalid_reason()) throw std::invalid_argument(*why);
  std::vector<double> out;
  const auto add = [&](double v) {
    if (integer) v = std::round(v);
    push_unique(out, v);
  };
  if (count > 0) {
    for (int k = 0; k < count; ++k) {
      const double t = count == 1 ? 0.0 : double(k) / (count - 1);
      double v = scale == Scale::log ? lo * std::pow(hi / lo, t) : lo + (hi - lo) * t;
      if (count > 1 && k == count - 1) v = hi;  // exact end point
      add(round_significant(v, digits));
    }
  } else if (scale == Scale::linear) {
    const auto n = static_cast<long>(std::floor((hi - lo) / step + 1e-9));
    // The decimals of the step or of lo, whichever has more (0.52..0.9 step 0.05: 0.52, 0.57).
    const double resolution =
        decimals_of(lo) > decimals_of(step) ? scaled(1, -decimals_of(lo)) : step;
    for (long k = 0; k <= n; ++k) add(round_to_step(lo + double(k) * step, resolution));
  } else {
    // Every number m * 10^e with m of `digits` digits, decade by decade from lo's.
    const int first = int(std::floor(std::log10(lo))) - (digits - 1);
    const double m_lo = power_of_ten(digits - 1), m_hi = power_of_ten(digits);
    for (int e = first; scaled(m_lo, e) <= hi * (1 + 1e-12); ++e)
      for (double m = m_lo; m < m_hi; ++m) {
        const double v = scaled(m, e);
        if (v < lo * (1 - 1e-12) || v > hi * (1 + 1e-12)) continue;
        if (integer && v != std::floor(v)) continue;
        add(v);
      }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string ParamRange::text() const {
  if (count > 0)
    return shortest_decimal(lo) + ".." + shortest_decimal(hi) +
           (scale == Scale::log ? " log, " : ", ") + std::to_string(count) + " points";
  if (scale == Scale::log)
    return shortest_decimal(lo) + ".." + shortest_decimal(hi) + " log, " +
           (integer ? "whole numbers of " : "") + std::to_string(digits) + " significant digit" +
           (digits == 1 ? "" : "s");
  const int d = decimals_of(step);
  const std::string ends = fixed_text(lo, d) + ".." + fixed_text(hi, d);
  return integer && step == 1 ? ends : ends + " step " + shortest_decimal(step);
}

ParamDimension::ParamDimension(std::initializer_list<double> values)
    : ParamDimension(std::vector<double>(values)) {}

ParamDimension::ParamDimension(const std::vector<double>& values) {
  for (double v : values) add(Part{v, {}});
}

ParamDimension::ParamDimension(const ParamRange& range) {
  add(Part{std::nullopt, range});
}

ParamDimension ParamDimension::linear(double lo, double hi, double step) {
  ParamRange r;
  r.lo = lo;
  r.hi = hi;
  r.step = step;
  return ParamDimension(r);
}

ParamDimension ParamDimension::integers(double lo, double hi, double step) {
  ParamRange r;
  r.lo = lo;
  r.hi = hi;
  r.step = step;
  r.integer = true;
  return ParamDimension(r);
}

ParamDimension ParamDimension::log(double lo, double hi, int count, bool integer, int digits) {
  ParamRange r;
  r.lo = lo;
  r.hi = hi;
  r.scale = ParamRange::Scale::log;
  r.count = count;
  r.integer = integer;
  r.digits = digits;
  return ParamDimension(r);
}

void ParamDimension::add(const Part& part) {
  parts_.push_back(part);
  if (part.value) {
    push_unique(values_, *part.value);
    return;
  }
  for (double v : part.range.values()) push_unique(values_, v);
}

ParamDimension ParamDimension::operator|(const ParamDimension& other) const {
  ParamDimension out = *this;
  for (const Part& p : other.parts_) out.add(p);
  if (!out.fixed_) out.fixed_ = other.fixed_;
  return out;
}

ParamDimension ParamDimension::with_fixed_value(double value) const {
  ParamDimension out = *this;
  out.fixed_ = value;
  return out;
}

bool ParamDimension::is_list() const {
  return std::all_of(parts_.begin(), parts_.end(), [](const Part& p) { return bool(p.value); });
}

double ParamDimension::fixed_value(const ParamSpec& spec) const {
  if (fixed_) return *fixed_;
  if (values_.empty()) return spec.default_value;
  const auto [lo, hi] = std::minmax_element(values_.begin(), values_.end());
  if (spec.default_value >= *lo && spec.default_value <= *hi) return spec.default_value;
  return values_.front();
}

std::string ParamDimension::text(const ParamSpec& spec) const {
  std::string s;
  for (const Part& p : parts_)
    s += (s.empty() ? "" : ", ") + (p.value ? spec.value_text(*p.value) : p.range.text());
  if (!is_list())
    s += " (" + std::to_string(values_.size()) + (values_.size() == 1 ? " value)" : " values)");
  return s;
}

ParamDimension parse_param_dimension(const ParamSpec& spec, const std::string& text) {
  const bool integer = spec.type == ParamSpec::Type::integer;
  const auto fail = [&](const std::string& why) {
    return std::invalid_argument(spec.name + "=" + text + ": " + why);
  };
  const auto number = [&](const std::string& item) {
    try {
      std::size_t used = 0;
      const double v = std::stod(item, &used);
      if (used != item.size()) throw std::invalid_argument(item);
      return v;
    } catch (const std::exception&) {
      throw fail("'" + item +
                 "' is not a number (expected V1,V2,... or ranges LO:HI[:STEP], LO:HI:log[:N], "
                 "LO:HI:lin:N)");
    }
  };
  ParamDimension out;
  std::stringstream items(text);
  bool any = false;
  for (std::string item; std::getline(items, item, ',');) {
    any = true;
    if (item.find(':') == std::string::npos) {
      std::optional<double> v;
      if (spec.type == ParamSpec::Type::categorical) {
        v = spec.value_of(item);
        if (!v || spec.invalid_reason(*v))
          throw fail("'" + item + "' is not one of " + spec.range_text());
      } else {
        v = number(item);
        if (integer && *v != std::floor(*v)) throw fail("'" + item + "' is not a whole number");
      }
      out = out | ParamDimension({*v});
      continue;
    }
    if (spec.type == ParamSpec::Type::categorical)
      throw fail("a categorical parameter takes choices, not a range");
    std::vector<std::string> parts;
    std::stringstream ss(item);
    for (std::string p; std::getline(ss, p, ':');) parts.push_back(p);
    if (parts.size() < 2 || parts.size() > 4)
      throw fail("a range is LO:HI[:STEP], LO:HI:log[:N] or LO:HI:lin:N, e.g. 0.05:0.5:log:8");
    ParamRange r;
    r.lo = number(parts[0]);
    r.hi = number(parts[1]);
    r.integer = integer;
    const std::string kind = parts.size() >= 3 ? parts[2] : "";
    if (kind == "log" || kind == "lin") {
      r.scale = kind == "log" ? ParamRange::Scale::log : ParamRange::Scale::linear;
      if (parts.size() == 4) {
        const double n = number(parts[3]);
        if (n < 1 || n > 1000 || n != std::floor(n))
          throw fail("COUNT must be a whole number in [1, 1000]");
        r.count = int(n);
        r.digits = 12;  // 0.1 * 8^(2/3) reads 0.4, not 0.39999999999999997
      } else if (kind == "lin") {
        if (!integer) throw fail("a real LO:HI:lin range needs a COUNT (LO:HI:lin:N)");
        r.step = 1;
      }
    } else if (parts.size() == 4) {
      throw fail("'" + kind + "' is not log or lin (LO:HI:log:N or LO:HI:lin:N)");
    } else if (parts.size() == 3) {
      r.step = number(parts[2]);
      if (integer && r.step != std::floor(r.step))
        throw fail("the step of an integer range must be a whole number");
    } else {
      if (!integer) throw fail("a real range needs a step (LO:HI:STEP) or a scale (LO:HI:log)");
      r.step = 1;
    }
    if (auto why = r.invalid_reason()) throw fail(*why);
    out = out | ParamDimension(r);
  }
  if (!any || out.empty()) throw fail("empty list");
  for (double v : out)
    if (auto why = spec.invalid_reason(v)) throw std::invalid_argument(*why);
  return out;
}

}  // namespace flowtune
