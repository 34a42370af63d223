// Page-locked host memory (see page_lock.hpp).
#include "variants/cuda/page_lock.hpp"

#include <cuda_runtime_api.h>

#include <map>
#include <mutex>
#include <utility>

namespace flowtune::cuda {
namespace {

bool byte_is_page_locked(const void* p) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeHost;
}

/// The process's counted registrations, by (start, bytes).
struct Registry {
  std::mutex mutex;
  std::map<std::pair<const void*, std::size_t>, long> count;
};

Registry& registry() {
  static Registry* r = new Registry;  // never destroyed: handles may outlive static destruction
  return *r;
}

}  // namespace

bool is_page_locked(const void* p, std::size_t bytes) {
  if (!p || bytes == 0) return false;
  return byte_is_page_locked(p) && byte_is_page_locked(static_cast<const char*>(p) + (bytes - 1));
}

std::shared_ptr<void> lock_pages(const void* p, std::size_t bytes) {
  if (!p || bytes == 0) return nullptr;
  Registry& r = registry();
  const std::pair<const void*, std::size_t> key{p, bytes};
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.count.find(key);
  if (it == r.count.end()) {
    // cudaHostRegister takes a non-const pointer; it only pins the pages, never writes them.
    if (cudaHostRegister(const_cast<void*>(p), bytes, cudaHostRegisterPortable) != cudaSuccess) {
      cudaGetLastError();
      return nullptr;
    }
    it = r.count.emplace(key, 0).first;
  }
  ++it->second;
  return std::shared_ptr<void>(const_cast<void*>(p), [key](void*) {
    Registry& reg = registry();
    std::lock_guard<std::mutex> guard(reg.mutex);
    auto found = reg.count.find(key);
    if (found == reg.count.end() || --found->second > 0) return;
    reg.count.erase(found);
    if (cudaHostUnregister(const_cast<void*>(key.first)) != cudaSuccess) cudaGetLastError();
  });
}

}  // namespace flowtune::cuda
