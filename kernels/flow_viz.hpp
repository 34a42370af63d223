// Flow visualisation with the Middlebury colour wheel (Baker et al., IJCV 2011, fig. 2;
// flow-code flowToColor / computeColor.m by D. Scharstein and S. Baker).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/image.hpp"
#include "kernels/png_io.hpp"

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

/// The radius that flow_to_rgb normalises by: max_radius if > 0, else the largest radius of
/// the known vectors (1 if that is 0). In the flow's units (px).
double flow_viz_radius(const FlowField& flow, double max_radius = 0);

/// The `quantile` (in (0, 1]) of the radii of the known vectors, in px (1 if that is 0 or
/// no vector is known): a saturation scale that a few outliers do not wash out, as block
/// matching's mismatches do with flow_viz_radius (Baker et al. 2011 normalise by the
/// largest radius of ground truth, which has no outliers).
double flow_viz_quantile_radius(const FlowField& flow, double quantile = 0.99);

/// The label of the colour-wheel key: the flow magnitude at the wheel's rim (full
/// saturation), three significant digits and the unit, e.g. "4.62 px", "0.500 px", "123 px".
std::string flow_key_label(double radius_px);

/// flow_to_rgb(flow, max_radius) with the colour-wheel key in a white panel to the right of
/// the flow, so that no flow pixel is covered: the key is a disk of radius
/// R = max(8, min(width, height) / 8) whose pixel at offset (dx, dy) from its centre has
/// flow_color(dx / R, dy / R) (the colour of a vector of that direction and of magnitude
/// |(dx, dy)| / R times the normalising radius), inside a black ring, above
/// flow_key_label(flow_viz_radius(flow, max_radius)) in a 5 x 7 pixel font. The panel is
/// max(2 R + 10, label width + 8) wide; the image is at least 2 R + 21 px high (rows below a
/// shorter flow are white). Images under 24 px on a side get no key (the flow alone).
RgbImage flow_rgb_with_key(const FlowField& flow, double max_radius = 0);

/// Writes flow_to_rgb(flow, max_radius) as an 8-bit RGB PNG, or flow_rgb_with_key (the key
/// beside the flow) when `key`. Errors as write_png_rgb.
void write_flow_png(const std::string& path, const FlowField& flow, double max_radius = 0,
                    bool key = false);

}  // namespace flowtune
