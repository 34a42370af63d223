// flowtune's deployment API: TV-L1 optical flow on the CPU (the kokkos_global variant) with
// a config tuned by `tune` and exported by `tune export` as a header (flowtune::tuned).
// The one public header of the CMake package `flowtune` (target flowtune::tvl1):
//
//   #include <flowtune/flowtune.hpp>
//   #include "tuned.h"  // from `tune export --board host -o tuned.h`
//   const auto config = flowtune::parse_tuned_config(flowtune::tuned::kConfigJson);
//   flowtune::write_flo("flow.flo", flowtune::compute_flow("f10.png", "f11.png", config));
#pragma once

#include <map>
#include <string>

#include "kernels/image.hpp"  // flowtune::Image (grayscale, [0, 255]), flowtune::FlowField

namespace flowtune {

/// One tuned point of the TV-L1 design space, as `tune export` writes it into the header's
/// `// flowtune-config: {...}` line and its flowtune::tuned::kConfigJson constant.
struct TunedConfig {
  std::string workload = "tvl1";          ///< "tvl1" (the only workload deployed here)
  std::string variant = "kokkos_global";  ///< e.g. "kokkos_global" (CPU), "global" (CUDA)
  std::string precision = "f32";          ///< "f32" | "f16" | "mixed"
  std::map<std::string, int> tunables;    ///< e.g. {"tile_x": 32, "tile_y": 4}
  std::map<std::string, double> params;   ///< every TV-L1 parameter, e.g. "iterations"
  int clock_mhz = 0;                      ///< GPU clock tuned at; 0 = not controlled
};

/// Parses the config JSON of a tuned header (flowtune::tuned::kConfigJson, or the text after
/// `// flowtune-config: `): an object with "workload", "variant", "precision" (strings),
/// "clock_mhz" (integer in [0, 100000]), "tunables" (integers) and "params" (numbers).
/// Nothing is checked against a variant here (compute_flow does). Throws
/// std::invalid_argument naming the problem for text that is not such an object.
TunedConfig parse_tuned_config(const std::string& json);

/// Reads the config of a tuned header file written by `tune export` (its
/// `// flowtune-config:` line, as `tune flow --tuned` does). Throws std::runtime_error
/// naming the file when it cannot be read, has no such line, or the line is malformed.
TunedConfig read_tuned_config(const std::string& header_path);

/// TV-L1 flow I0 -> I1 with `config`, exactly as `tune flow --tuned` computes it (the same
/// solver: pyramid, warpings, Kokkos iterations in float on the host, tiles from the
/// config's tile_x/tile_y). i0, i1: grayscale frames, intensities in [0, 255], of equal
/// width x height. Returns the flow (u right, v down, in pixels), width x height.
/// Throws std::invalid_argument when config is not a TV-L1 config of a variant in this
/// library (only the CPU variant "kokkos_global" is; the CUDA variants need the tuner's
/// NVRTC path), when its tunables or parameters are missing or invalid (the message names
/// the first), or when the frames differ in size or are empty.
FlowField compute_flow(const Image& i0, const Image& i1, const TunedConfig& config);

/// As above on two PNG files (read as grayscale with BT.601 luma, like `tune flow`).
/// Throws std::runtime_error "<path>: <problem>" for a missing, unreadable, corrupt or
/// oversized PNG (over 64 Mpx), frames of different sizes; else as above.
FlowField compute_flow(const std::string& i0_png, const std::string& i1_png,
                       const TunedConfig& config);

/// Reads a PNG as a grayscale Image in [0, 255] (kernels/png_io.hpp: BT.601 luma, any bit
/// depth). Throws std::runtime_error "<path>: <problem>" on any read error.
Image read_png_gray(const std::string& path);

/// Writes `flow` as a Middlebury .flo file (tag "PIEH", int32 width and height, then
/// float32 (u, v) pairs row-major, little-endian; kernels/flo_io.hpp). Throws
/// std::invalid_argument "<path>: ..." for an empty or inconsistent field and
/// std::runtime_error "<path>: ..." on write errors.
void write_flo(const std::string& path, const FlowField& flow);

}  // namespace flowtune
