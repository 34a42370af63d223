// Process-wide Kokkos initialisation for the Kokkos host kernels.
#pragma once

namespace flowtune {

/// Initialises Kokkos once per process (default execution space; Serial with Debian's
/// Kokkos 3.4). Safe to call from any thread before the first Kokkos kernel.
/// Kokkos is finalised at exit by Kokkos itself (no explicit finalize is needed for Serial).
void ensure_kokkos_initialized();

}  // namespace flowtune
