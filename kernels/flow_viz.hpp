// Flow visualisation with the Middlebury colour wheel (Baker et al., IJCV 2011, fig. 2;
// flow-code flowToColor / computeColor.m by D. Scharstein and S. Baker).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/image.hpp"

namespace flowtune {

/// The Middlebury colour wheel: 55 RGB colours, hue segments red->yellow 15, yellow->green 6,
/// green->cyan 4, cyan->blue 11, blue->magenta 13, magenta->red 6; entry k of a segment of
/// length L ramps one channel as floor(255 * k / L).
const std::vector<std::array<std::uint8_t, 3>>& middlebury_color_wheel();

/// Colour of one flow vector already divided by the normalising radius (computeColor):
/// angle atan2(-v, -u) selects the wheel position (linear blend of the two nearest colours),
/// radius r <= 1 desaturates towards white as 1 - r (1 - colour), r > 1 is dimmed by 0.75.
std::array<std::uint8_t, 3> flow_color(double u, double v);

/// RGB image (width * height * 3 bytes, row-major) of `flow`: each vector divided by
/// max_radius (if max_radius <= 0: by the largest radius of the known vectors, 1 if that is
/// 0), coloured with flow_color; unknown vectors (!is_known_flow) are black.
std::vector<std::uint8_t> flow_to_rgb(const FlowField& flow, double max_radius = 0);

/// Writes flow_to_rgb(flow, max_radius) as an 8-bit RGB PNG. Errors as write_png_rgb.
void write_flow_png(const std::string& path, const FlowField& flow, double max_radius = 0);

}  // namespace flowtune
