#include "kernels/apsp/dijkstra.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <stdexcept>
#include <string>
#include <thread>

#include "kernels/cancellation.hpp"

namespace flowtune::apsp {

Adjacency adjacency_of(const DistMatrix& w) {
  check_weights(w, "adjacency_of");
  Adjacency adj(std::size_t(w.n));
  for (int i = 0; i < w.n; ++i)
    for (int j = 0; j < w.n; ++j)
      if (j != i && w.at(i, j) != kInf) adj[std::size_t(i)].emplace_back(j, w.at(i, j));
  return adj;
}

std::vector<Dist> dijkstra(const Adjacency& adj, int source) {
  const int n = int(adj.size());
  if (source < 0 || source >= n)
    throw std::invalid_argument("dijkstra: source " + std::to_string(source) + " outside [0, " +
                                std::to_string(n) + ")");
  std::vector<Dist> dist(std::size_t(n), kInf);
  using Entry = std::pair<Dist, int>;  // (tentative distance, node), smallest first
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
  dist[std::size_t(source)] = 0;
  heap.emplace(0, source);
  while (!heap.empty()) {
    const auto [du, u] = heap.top();
    heap.pop();
    if (du != dist[std::size_t(u)]) continue;  // a stale entry: u was settled closer
    for (const auto& [v, weight] : adj[std::size_t(u)]) {
      const Dist candidate = du + weight;
      if (candidate < dist[std::size_t(v)]) {
        dist[std::size_t(v)] = candidate;
        heap.emplace(candidate, v);
      }
    }
  }
  return dist;
}

DistMatrix repeated_dijkstra(const DistMatrix& w, int threads) {
  if (threads < 1)
    throw std::invalid_argument("repeated_dijkstra: threads " + std::to_string(threads) + " < 1");
  const Adjacency adj = adjacency_of(w);
  DistMatrix d(w.n);
  // Worker t solves sources t, t + threads, ...: disjoint rows of d, no synchronisation.
  auto solve_rows = [&](int first) {
    for (int s = first; s < w.n; s += threads) {
      if (cancellation_requested().load(std::memory_order_relaxed)) return;  // no throw in a thread
      const std::vector<Dist> row = dijkstra(adj, s);
      std::copy(row.begin(), row.end(), d.d.begin() + std::ptrdiff_t(s) * w.n);
    }
  };
  std::vector<std::thread> workers;
  for (int t = 1; t < std::min(threads, w.n); ++t) workers.emplace_back(solve_rows, t);
  solve_rows(0);
  for (auto& worker : workers) worker.join();
  throw_if_cancelled();
  return d;
}

}  // namespace flowtune::apsp
