#include "kernels/kokkos/kokkos_runtime.hpp"

#include <Kokkos_Core.hpp>

namespace flowtune {

void ensure_kokkos_initialized() {
  static const bool initialized = [] {
    if (!Kokkos::is_initialized()) Kokkos::initialize();
    return true;
  }();
  (void)initialized;
}

}  // namespace flowtune
