#include "reports/svg_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "reports/text_format.hpp"

namespace flowtune::reports {

namespace {

constexpr double kWidth = 720, kHeight = 480;
constexpr double kLeft = 84, kRight = 24, kTop = 48, kBottom = 64;

// 1, 2, 5 or 10 times a power of ten, nearest to `range` (rounded).
double nice_step(double raw) {
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / magnitude;
  const double nice = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
  return nice * magnitude;
}

std::string tick_label(double value, double step) {
  const int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9)));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, std::fabs(value) < step * 1e-9 ? 0.0 : value);
  return buf;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

}  // namespace

std::vector<double> nice_ticks(double lo, double hi, int target) {
  if (!std::isfinite(lo) || !std::isfinite(hi) || hi < lo || target < 1) {
    throw std::invalid_argument("nice_ticks: invalid range");
  }
  if (hi == lo) {
    const double pad = lo == 0 ? 1.0 : std::fabs(lo) * 0.1;
    lo -= pad;
    hi += pad;
  }
  const double step = nice_step((hi - lo) / target);
  const double first = std::floor(lo / step) * step;
  const double last = std::ceil(hi / step) * step;
  std::vector<double> ticks;
  for (double t = first; t <= last + step * 0.5; t += step) {
    ticks.push_back(std::round(t / step) * step);
  }
  return ticks;
}

std::string scatter_svg(const std::vector<double>& x, const std::vector<double>& y,
                        const std::vector<std::size_t>& front, const std::string& title,
                        const std::string& x_label, const std::string& y_label) {
  if (x.size() != y.size()) throw std::invalid_argument("scatter_svg: x and y differ in size");
  std::vector<std::size_t> shown;
  double x_lo = std::numeric_limits<double>::infinity(), x_hi = -x_lo, y_lo = x_lo, y_hi = -x_lo;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(y[i])) continue;
    shown.push_back(i);
    x_lo = std::min(x_lo, x[i]);
    x_hi = std::max(x_hi, x[i]);
    y_lo = std::min(y_lo, y[i]);
    y_hi = std::max(y_hi, y[i]);
  }

  const double pw = kWidth - kLeft - kRight, ph = kHeight - kTop - kBottom;
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << kHeight
    << "\" viewBox=\"0 0 " << kWidth << " " << kHeight
    << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    << "<text x=\"" << num(kWidth / 2) << "\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">"
    << detail::xml_escape(title) << "</text>\n";
  if (shown.empty()) {
    s << "<text x=\"" << num(kWidth / 2) << "\" y=\"" << num(kHeight / 2)
      << "\" text-anchor=\"middle\">no data</text>\n</svg>\n";
    return s.str();
  }

  const std::vector<double> xt = nice_ticks(x_lo, x_hi), yt = nice_ticks(y_lo, y_hi);
  const double x0 = xt.front(), x1 = xt.back(), y0 = yt.front(), y1 = yt.back();
  const auto px = [&](double v) { return kLeft + (v - x0) / (x1 - x0) * pw; };
  const auto py = [&](double v) { return kTop + ph - (v - y0) / (y1 - y0) * ph; };
  const double x_step = xt.size() > 1 ? xt[1] - xt[0] : 1,
               y_step = yt.size() > 1 ? yt[1] - yt[0] : 1;

  // Grid, ticks and tick labels.
  for (double t : xt) {
    s << "<line x1=\"" << num(px(t)) << "\" y1=\"" << num(kTop) << "\" x2=\"" << num(px(t))
      << "\" y2=\"" << num(kTop + ph + 5) << "\" stroke=\"#e0e0e0\"/>\n"
      << "<text x=\"" << num(px(t)) << "\" y=\"" << num(kTop + ph + 20)
      << "\" text-anchor=\"middle\">" << tick_label(t, x_step) << "</text>\n";
  }
  for (double t : yt) {
    s << "<line x1=\"" << num(kLeft - 5) << "\" y1=\"" << num(py(t)) << "\" x2=\""
      << num(kLeft + pw) << "\" y2=\"" << num(py(t)) << "\" stroke=\"#e0e0e0\"/>\n"
      << "<text x=\"" << num(kLeft - 8) << "\" y=\"" << num(py(t) + 4) << "\" text-anchor=\"end\">"
      << tick_label(t, y_step) << "</text>\n";
  }
  // Axes and their labels.
  s << "<rect x=\"" << num(kLeft) << "\" y=\"" << num(kTop) << "\" width=\"" << num(pw)
    << "\" height=\"" << num(ph) << "\" fill=\"none\" stroke=\"black\"/>\n"
    << "<text x=\"" << num(kLeft + pw / 2) << "\" y=\"" << num(kHeight - 16)
    << "\" text-anchor=\"middle\">" << detail::xml_escape(x_label) << "</text>\n"
    << "<text transform=\"translate(20," << num(kTop + ph / 2)
    << ") rotate(-90)\" text-anchor=\"middle\">" << detail::xml_escape(y_label) << "</text>\n";

  // All points grey, then the front red on top with its attainment staircase.
  for (std::size_t i : shown) {
    s << "<circle cx=\"" << num(px(x[i])) << "\" cy=\"" << num(py(y[i]))
      << "\" r=\"3\" fill=\"#9e9e9e\"/>\n";
  }
  std::vector<std::size_t> red;
  for (std::size_t i : front) {
    if (i < x.size() && std::isfinite(x[i]) && std::isfinite(y[i])) red.push_back(i);
  }
  std::sort(red.begin(), red.end(),
            [&](std::size_t a, std::size_t b) { return x[a] != x[b] ? x[a] < x[b] : y[a] > y[b]; });
  if (red.size() > 1) {
    s << "<polyline fill=\"none\" stroke=\"#d32f2f\" stroke-width=\"1.5\" points=\"";
    for (std::size_t k = 0; k < red.size(); ++k) {
      if (k > 0) s << num(px(x[red[k]])) << "," << num(py(y[red[k - 1]])) << " ";
      s << num(px(x[red[k]])) << "," << num(py(y[red[k]])) << " ";
    }
    s << "\"/>\n";
  }
  for (std::size_t i : red) {
    s << "<circle cx=\"" << num(px(x[i])) << "\" cy=\"" << num(py(y[i]))
      << "\" r=\"4\" fill=\"#d32f2f\"/>\n";
  }
  // Legend.
  const double lx = kLeft + pw - 170, ly = kTop + 14;
  s << "<circle cx=\"" << num(lx) << "\" cy=\"" << num(ly) << "\" r=\"3\" fill=\"#9e9e9e\"/>"
    << "<text x=\"" << num(lx + 10) << "\" y=\"" << num(ly + 4) << "\">all configs ("
    << shown.size() << ")</text>\n"
    << "<circle cx=\"" << num(lx) << "\" cy=\"" << num(ly + 18) << "\" r=\"4\" fill=\"#d32f2f\"/>"
    << "<text x=\"" << num(lx + 10) << "\" y=\"" << num(ly + 22) << "\">Pareto front ("
    << red.size() << ")</text>\n"
    << "</svg>\n";
  return s.str();
}

}  // namespace flowtune::reports
