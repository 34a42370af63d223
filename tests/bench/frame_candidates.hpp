// The small tunable sweep the GPU frame benchmarks share (bench_tvl1_frame,
// bench_frame_timeline): which tunables of a CUDA variant are worth a frame measurement.
#pragma once

#include <string>
#include <vector>

#include "kernels/tvl1_params.hpp"
#include "variants/config.hpp"
#include "variants/cuda/cuda_variant.hpp"
#include "variants/tvl1_params_of.hpp"
#include "variants/variant.hpp"

namespace flowtune::bench {

/// A frame benchmark's sweep candidates (at most max_count, in domain order), with `params`: valid
/// configs with block_x in {32, 64} and 128..512 threads per block (tunables outside block_x /
/// block_y: their first value); for the pipelines (tunable w) 128 threads (w = 128 in one part or
/// 256 in two), depth in {5, 8}, skew 1 and 2, strip_h in {16, 32}, with optin exactly where the
/// ring needs more than 48 KiB.
inline std::vector<Config> frame_candidates(const Variant& v, const std::string& precision,
                                            const Tvl1Params& params, std::size_t max_count) {
  std::vector<Config> out;
  const auto domains = v.tunables();
  std::vector<std::size_t> idx(domains.size(), 0);
  while (true) {
    Config c;
    c.variant = v.name();
    c.precision = precision;
    c.params = param_values_of(params);
    for (std::size_t k = 0; k < domains.size(); ++k)
      c.tunables[domains[k].name] = domains[k].values[idx[k]];
    bool keep = false;
    if (c.tunables.count("w")) {
      const int w = c.tunables["w"], depth = c.tunables["depth"], h = c.tunables["strip_h"];
      const int parts = c.tunables["parts"];
      keep = ((w == 128 && parts == 1) || (w == 256 && parts == 2)) && (depth == 5 || depth == 8) &&
             (h == 16 || h == 32);
      if (c.tunables.count("optin"))
        keep = keep && c.tunables["optin"] == (cuda::pipeline_ring_bytes(c) > 48 * 1024 ? 1 : 0);
    } else {
      bool first_elsewhere = true;  // tunables other than block_x / block_y: first value only
      for (std::size_t k = 0; k < domains.size(); ++k)
        if (domains[k].name != "block_x" && domains[k].name != "block_y" && idx[k] != 0)
          first_elsewhere = false;
      const int bx = c.tunables.count("block_x") ? c.tunables["block_x"] : 32;
      const int by = c.tunables.count("block_y") ? c.tunables["block_y"] : 4;
      keep = first_elsewhere && (bx == 32 || bx == 64) && bx * by >= 128 && bx * by <= 512;
    }
    if (keep && !v.invalid_reason(c)) out.push_back(c);
    std::size_t k = 0;
    while (k < idx.size() && ++idx[k] == domains[k].values.size()) idx[k++] = 0;
    if (k == idx.size()) break;
  }
  if (out.size() > max_count) out.resize(max_count);
  return out;
}

}  // namespace flowtune::bench
