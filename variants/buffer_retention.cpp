// The process's cap on kept GPU buffers (see buffer_retention.hpp).
#include "variants/buffer_retention.hpp"

#include <atomic>

namespace flowtune {
namespace {
std::atomic<std::size_t> g_retention{0};
}  // namespace

void set_buffer_retention(std::size_t max_bytes) {
  g_retention.store(max_bytes);
}

std::size_t buffer_retention() {
  return g_retention.load();
}

}  // namespace flowtune
