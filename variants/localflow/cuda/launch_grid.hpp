// The grid size of the local flow solvers' one-dimensional and per-axis launches.
#pragma once

namespace flowtune::localflow_cuda {

/// Blocks of `threads` threads that cover `n` items (n >= 0, threads > 0): ceil(n / threads).
inline unsigned blocks_for(long long n, int threads) {
  return unsigned((n + threads - 1) / threads);
}

}  // namespace flowtune::localflow_cuda
