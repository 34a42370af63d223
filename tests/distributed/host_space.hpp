// Test-only: the tuning space the distributed tests run `tune` over.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace flowtune::test {

/// The `tune` arguments of a host space of 24 points on one Middlebury sequence (kokkos_global:
/// 3 x 2 tile shapes, 2 iteration counts, 2 warping counts), with --json.
inline const std::vector<std::string> kSpace = {
    "--board",         "host",           "--variant",   "kokkos_global", "--tunable",
    "tile_x=8,16,32",  "--tunable",      "tile_y=4,8",  "--param",       "iterations=2,3",
    "--param",         "n_warpings=1,5", "--param",     "n_scales=1",    "--param",
    "median_window=0", "--sequences",    "RubberWhale", "--json"};
/// The number of points of kSpace.
inline constexpr std::size_t kSpaceSize = 24;

}  // namespace flowtune::test
