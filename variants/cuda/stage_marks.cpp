// The per-stage CUDA events of a profiled GPU frame (see stage_marks.hpp).
#include "variants/cuda/stage_marks.hpp"

#include "variants/cuda/frame_check.hpp"

namespace flowtune::cuda {

void StageMarks::mark(cudaStream_t s, const char* stage, int level) {
  if (!enabled) return;
  Mark m{stage, level, nullptr};
  check_frame(cudaEventCreate(&m.event), "cudaEventCreate");
  check_frame(cudaEventRecord(m.event, s), "cudaEventRecord");
  marks_.push_back(m);
}

void StageMarks::release() {
  for (auto& m : marks_)
    if (m.event) cudaEventDestroy(m.event);
  marks_.clear();
}

float StageMarks::elapsed_ms(std::size_t k) const {
  float ms = 0;
  check_frame(cudaEventElapsedTime(&ms, marks_[k - 1].event, marks_[k].event),
              "cudaEventElapsedTime");
  return ms;
}

}  // namespace flowtune::cuda
