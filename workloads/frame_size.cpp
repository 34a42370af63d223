// Frame sizes parsed and printed (see frame_size.hpp).
#include "workloads/frame_size.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace flowtune {
namespace {

constexpr int kMinSide = 8, kMaxSide = 16384;

}  // namespace

Resolution parse_resolution(const std::string& text) {
  const std::size_t x = text.find_first_of("xX");
  const auto side = [&](const std::string& s) {
    if (s.empty() || s.size() > 5 ||
        !std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; }))
      throw std::invalid_argument("resolution '" + text +
                                  "': expected WIDTHxHEIGHT, e.g. 1280x720");
    const int n = std::stoi(s);
    if (n < kMinSide || n > kMaxSide)
      throw std::invalid_argument("resolution '" + text + "': each side must be in [" +
                                  std::to_string(kMinSide) + ", " + std::to_string(kMaxSide) + "]");
    return n;
  };
  if (x == std::string::npos)
    throw std::invalid_argument("resolution '" + text + "': expected WIDTHxHEIGHT, e.g. 1280x720");
  return {side(text.substr(0, x)), side(text.substr(x + 1))};
}

std::string resolution_text(const Resolution& r) {
  return std::to_string(r.width) + "x" + std::to_string(r.height);
}

}  // namespace flowtune
