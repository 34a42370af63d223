// The frame solver's per-size cache (see frame_size_cache.hpp).
#include "variants/cuda/frame_size_cache.hpp"

#include <algorithm>
#include <utility>

namespace flowtune::cuda {

FrameSizeCache::~FrameSizeCache() {
  for (auto& e : cache_)
    if (e->graph) cudaGraphExecDestroy(e->graph);
  cache_.clear();
}

void FrameSizeCache::select(int width, int height, cudaEvent_t done) {
  ++tick_;
  if (cur_ && cur_->b.width == width && cur_->b.height == height) {
    cur_->last_use = tick_;
    return;
  }
  for (auto& e : cache_)
    if (e->b.width == width && e->b.height == height) {
      cur_ = e.get();
      cur_->last_use = tick_;
      return;
    }
  if (int(cache_.size()) >= capacity_) {
    auto lru = std::min_element(cache_.begin(), cache_.end(), [](const auto& x, const auto& y) {
      return x->last_use < y->last_use;
    });
    if (done) check_frame(cudaEventSynchronize(done), "cudaEventSynchronize (eviction)");
    if ((*lru)->graph) cudaGraphExecDestroy((*lru)->graph);
    if (lru->get() == cur_) cur_ = nullptr;
    cache_.erase(lru);
    ++stats_.evictions;
  }
  auto e = std::make_unique<SizeEntry>();
  allocate_frame_buffers(e->b, width, height, params_, storage_, host_emulation_);
  e->last_use = tick_;
  cur_ = e.get();
  cache_.push_back(std::move(e));
  ++stats_.buffer_allocations;
}

FrameCacheStats FrameSizeCache::stats() const {
  FrameCacheStats s = stats_;
  s.cached_sizes = int(cache_.size());
  return s;
}

}  // namespace flowtune::cuda
