// The per-stage CUDA events of a profiled GPU frame (cuda::profile_frame): while enabled, the
// stage sequence (frame_stages.hpp) records an event after each stage it enqueued, so the
// time between two consecutive events is that stage's device time.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <vector>

namespace flowtune::cuda {

/// The events of one profiled frame, in stream order. Not thread-safe (the solver's).
class StageMarks {
 public:
  StageMarks() = default;
  ~StageMarks() { release(); }
  StageMarks(const StageMarks&) = delete;
  StageMarks& operator=(const StageMarks&) = delete;

  /// Whether mark() records (only during profile_frame's direct frame).
  bool enabled = false;

  /// While enabled: an event recorded on `s` after the stage that just ended there; `stage`
  /// names it (StageTime::stage), `level` its pyramid level (-1 outside the pyramid loop).
  /// Throws std::runtime_error naming cuda_frame_solver and the call on a CUDA error.
  void mark(cudaStream_t s, const char* stage, int level);
  /// Destroys the recorded events and forgets them.
  void release();

  std::size_t size() const { return marks_.size(); }
  const std::string& stage(std::size_t k) const { return marks_[k].stage; }
  int level(std::size_t k) const { return marks_[k].level; }
  /// Device time (ms) between marks k - 1 and k (k >= 1; both events complete).
  float elapsed_ms(std::size_t k) const;

 private:
  struct Mark {
    std::string stage;
    int level;
    cudaEvent_t event;
  };
  std::vector<Mark> marks_;
};

}  // namespace flowtune::cuda
