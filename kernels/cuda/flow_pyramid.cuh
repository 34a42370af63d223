// The pyramid kernel of the local flow workloads (block matching, Lucas-Kanade): one level
// of the box pyramid of kernels/localflow/pyramid.hpp, on the device.
#pragma once

#include "flow_core.cuh"

/// One pyramid level: out (ceil(w/2) x ceil(h/2)) from in (w x h) (ftflow::downsample_at).
/// Grid: ceil(out pixels / 256) blocks of ftflow::kFlowThreads (256) threads.
extern "C" __global__ void flow_downsample(const float* __restrict__ in, int w, int h,
                                           float* __restrict__ out) {
  const int ow = ftflow::half_size(w), oh = ftflow::half_size(h);
  const long long i = (long long)blockIdx.x * ftflow::kFlowThreads + threadIdx.x;
  if (i >= (long long)ow * oh) return;
  out[i] = ftflow::downsample_at(in, w, h, int(i % ow), int(i / ow));
}
