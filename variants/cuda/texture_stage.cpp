#include "variants/cuda/texture_stage.hpp"

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>

#include "kernels/cuda/frame/texture_kernels.hpp"

namespace flowtune::cuda {

TextureStage::TextureStage(const Tvl1Params& p, bool host_emulation, int iterations_per_launch)
    : p_(p), on_host_(host_emulation), iterations_per_launch_(iterations_per_launch) {
  frame::structure_texture_scratch_floats(1, 1, iterations_per_launch);  // checks the range
}

TextureStage::~TextureStage() {
  outgrown_.push_back(scratch_);
  for (float* p : outgrown_) {
    if (on_host_)
      std::free(p);
    else if (p)
      cudaFree(p);
  }
}

void TextureStage::run(float* f0, float* f1, int w, int h, const float* minmax, frame::Exec exec) {
  const std::size_t n = frame::structure_texture_scratch_floats(w, h, iterations_per_launch_);
  if (n > capacity_) {
    if (scratch_) outgrown_.push_back(scratch_);  // a graph of a smaller size may use it
    scratch_ = nullptr;
    if (on_host_) {
      scratch_ = static_cast<float*>(std::malloc(n * sizeof(float)));
      if (!scratch_) throw std::bad_alloc();
    } else {
      const cudaError_t e = cudaMalloc(reinterpret_cast<void**>(&scratch_), n * sizeof(float));
      if (e != cudaSuccess)
        throw std::runtime_error(std::string("texture_stage: cudaMalloc: ") +
                                 cudaGetErrorString(e));
    }
    capacity_ = n;
  }
  frame::structure_texture_pair(f0, f1, w, h, scratch_, minmax, float(p_.texture_alpha),
                                float(p_.rof_theta), p_.rof_iterations, iterations_per_launch_,
                                exec);
}

}  // namespace flowtune::cuda
