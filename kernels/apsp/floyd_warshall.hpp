// CPU Floyd-Warshall: the plain O(N^3) algorithm and the tiled three-stage version of
// Marras et al. sec. 4.1 (after Katz & Kider 2008) on the host, the CPU variant fw_cpu.
#pragma once

#include "kernels/apsp/graph.hpp"

namespace flowtune::apsp {

/// All-pairs shortest paths of the N x N input w (d^0: zero diagonal, kInf = no edge,
/// weights >= 0), plain Floyd-Warshall: for k, i, j: d(i,j) = min(d(i,j), d(i,k) + d(k,j)).
/// O(N^3) time, N^2 memory (the result). Unreachable pairs stay kInf. Throws
/// std::invalid_argument when w is not a valid input (check_weights).
DistMatrix floyd_warshall(const DistMatrix& w);

/// The same distances by the blocked (tiled) algorithm with tile x tile blocks, Marras et al.
/// sec. 4.1, fig. 1: for every diagonal block kb, stage 1 relaxes the primary block kb,kb
/// through itself, stage 2 the blocks of row kb and of column kb through the primary block,
/// stage 3 every other block (i, j) through blocks (i, kb) and (kb, j). N need not be a
/// multiple of tile (the last blocks are partial). Throws std::invalid_argument for tile < 1
/// or an invalid w.
DistMatrix floyd_warshall_blocked(const DistMatrix& w, int tile);

}  // namespace flowtune::apsp
