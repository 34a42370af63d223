// Frame pairs resampled to the resolution a user deploys at (tune --resolution WxH): the best
// config changes with the frame size, so tuning happens at the size the camera delivers.
#pragma once

#include <string>

#include "workloads/frame_size.hpp"
#include "workloads/tvl1/flow_dataset.hpp"

namespace flowtune {

/// Resamples one pair to r (pixel centres aligned: output pixel x samples the input at
/// (x + 0.5) * in_w / out_w - 0.5, same along y):
/// - frames: bicubic (Keys a = -1/2, kernels/image_ops.hpp) after a Gaussian pre-filter of
///   sigma 0.6 sqrt(1 / s^2 - 1) per axis when shrinking by s < 1 (IPOL zoom_out's filter),
///   so a downscaled frame is not aliased; intensities stay in [0, 255] (clamped);
/// - ground truth: the nearest input vector, u scaled by out_w / in_w and v by out_h / in_h;
///   unknown vectors stay unknown (a bicubic mix of known and unknown would invent motion);
/// - Sintel's not-occluded mask: nearest.
/// A reference flow already attached is dropped (it is computed at the new size after).
/// Throws std::invalid_argument for an empty r.
void resample_sequence(Sequence& s, const Resolution& r);

/// resample_sequence on every pair of d; d.key gains "@WxH" (measurements at another size are
/// another dataset) and d.description says so. Nothing happens for an empty r or pairs already
/// of that size (the key still gains "@WxH" only when a pair was resampled).
void resample_dataset(FlowDataset& d, const Resolution& r);

}  // namespace flowtune
