#include "kernels/apsp/tiled_layout.hpp"

#include <stdexcept>
#include <string>

namespace flowtune::apsp {
namespace {

std::size_t sz(long long v) {
  return std::size_t(v);
}

}  // namespace

int tile_blocks(int n, int tile) {
  if (tile < 1 || n < 0)
    throw std::invalid_argument("tile_blocks: bad n = " + std::to_string(n) +
                                " or tile = " + std::to_string(tile));
  return (n + tile - 1) / tile;
}

std::vector<Dist> to_padded(const DistMatrix& w, int tile) {
  const long long p = (long long)tile_blocks(w.n, tile) * tile;
  std::vector<Dist> out(sz(p * p), kInf);
  for (long long i = 0; i < p; ++i) out[sz(i * p + i)] = 0;
  for (int i = 0; i < w.n; ++i)
    for (int j = 0; j < w.n; ++j) out[sz(i * p + j)] = w.at(i, j);
  return out;
}

DistMatrix from_padded(const std::vector<Dist>& padded, int n, int tile) {
  const long long p = (long long)tile_blocks(n, tile) * tile;
  if (padded.size() != sz(p * p))
    throw std::invalid_argument("from_padded: " + std::to_string(padded.size()) +
                                " entries, want " + std::to_string(p * p));
  DistMatrix d(n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) d.at(i, j) = padded[sz(i * p + j)];
  return d;
}

std::vector<Dist> to_lower_tiles(const DistMatrix& w, int tile) {
  const int nb = tile_blocks(w.n, tile);
  const long long t2 = (long long)tile * tile;
  std::vector<Dist> out(sz(lower_tile_index(nb, 0) * t2));
  for (int r = 0; r < nb; ++r)
    for (int c = 0; c <= r; ++c) {
      Dist* t = out.data() + lower_tile_index(r, c) * t2;
      for (int i = 0; i < tile; ++i)
        for (int j = 0; j < tile; ++j) {
          const int gi = r * tile + i, gj = c * tile + j;
          t[i * tile + j] = gi < w.n && gj < w.n ? w.at(gi, gj) : gi == gj ? 0 : kInf;
        }
    }
  return out;
}

DistMatrix from_lower_tiles(const std::vector<Dist>& tiles, int n, int tile) {
  const int nb = tile_blocks(n, tile);
  const long long t2 = (long long)tile * tile;
  if (tiles.size() != sz(lower_tile_index(nb, 0) * t2))
    throw std::invalid_argument("from_lower_tiles: " + std::to_string(tiles.size()) +
                                " entries, want " + std::to_string(lower_tile_index(nb, 0) * t2));
  DistMatrix d(n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const int bi = i / tile, bj = j / tile, li = i % tile, lj = j % tile;
      d.at(i, j) = bi >= bj ? tiles[sz(lower_tile_index(bi, bj) * t2 + li * tile + lj)]
                            : tiles[sz(lower_tile_index(bj, bi) * t2 + lj * tile + li)];
    }
  return d;
}

std::vector<StageLaunch> tiled_fw_schedule(int nb, bool lower_triangle) {
  std::vector<StageLaunch> out;
  const unsigned m = nb > 0 ? unsigned(nb - 1) : 0u;
  for (int kb = 0; kb < nb; ++kb) {
    out.push_back({1, kb, 1, 1});
    if (m == 0) continue;
    if (lower_triangle) {
      out.push_back({2, kb, m, 1});
      out.push_back({3, kb, m * (m + 1) / 2, 1});
    } else {
      out.push_back({2, kb, m, 2});
      out.push_back({3, kb, m, m});
    }
  }
  return out;
}

}  // namespace flowtune::apsp
