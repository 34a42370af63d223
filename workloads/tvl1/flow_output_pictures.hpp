// The report's pictures of a flow workload's output (Runner::pictures): flow_pictures encoded
// as PNG. Shared by the TV-L1 and the local flow workloads.
#pragma once

#include <vector>

#include "kernels/flow_pictures.hpp"
#include "kernels/png_io.hpp"
#include "workloads/workload.hpp"

namespace flowtune {

/// flow_pictures(flow, truth, max_side) (kernels/flow_pictures.hpp), each encoded as an 8-bit
/// RGB PNG. Throws what flow_pictures and encode_png_rgb throw.
inline std::vector<OutputPicture> flow_output_pictures(const FlowField& flow,
                                                       const FlowField& truth, int max_side) {
  std::vector<OutputPicture> out;
  for (const FlowPicture& p : flow_pictures(flow, truth, max_side))
    out.push_back({p.kind, p.image.width, p.image.height, p.scale_px,
                   encode_png_rgb(p.image.width, p.image.height, p.image.rgb)});
  return out;
}

}  // namespace flowtune
