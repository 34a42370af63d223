#include "variants/cuda/texture_stage.hpp"

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>

#include "kernels/cuda/frame/texture_kernels.hpp"

namespace flowtune::cuda {

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
  const std::size_t n = std::size_t(w) * h;
  if (n > capacity_) {
    if (scratch_) outgrown_.push_back(scratch_);  // a graph of a smaller size may use it
    scratch_ = nullptr;
    if (on_host_) {
      scratch_ = static_cast<float*>(std::malloc(6 * n * sizeof(float)));
      if (!scratch_) throw std::bad_alloc();
    } else {
      const cudaError_t e = cudaMalloc(reinterpret_cast<void**>(&scratch_), 6 * n * sizeof(float));
      if (e != cudaSuccess)
        throw std::runtime_error(std::string("texture_stage: cudaMalloc: ") +
                                 cudaGetErrorString(e));
    }
    capacity_ = n;
  }
  frame::structure_texture_pair(f0, f1, w, h, scratch_, scratch_ + 4 * n, minmax,
                                float(p_.texture_alpha), float(p_.rof_theta), p_.rof_iterations,
                                exec);
}

}  // namespace flowtune::cuda
