// A frame size a user deploys at (tune --resolution WxH, tune export --resolution): parsed
// here, generic; workloads/tvl1/resolution.hpp resamples frame pairs to it.
#pragma once

#include <string>

namespace flowtune {

/// A frame size, width x height in pixels; 0 x 0 = each pair's own size.
struct Resolution {
  int width = 0, height = 0;
  bool empty() const { return width == 0 && height == 0; }
};

/// Parses "WxH" (e.g. "1280x720"; 'x' or 'X'), both sides in [8, 16384]. Throws
/// std::invalid_argument naming the text for anything else.
Resolution parse_resolution(const std::string& text);

/// "1280x720".
std::string resolution_text(const Resolution& r);

}  // namespace flowtune
