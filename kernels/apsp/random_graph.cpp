#include "kernels/apsp/random_graph.hpp"

#include <random>
#include <stdexcept>

namespace flowtune::apsp {

Graph random_graph(int n, std::uint64_t seed, const RandomGraphOptions& options,
                   const std::string& name) {
  if (n < 0) throw std::invalid_argument("random_graph: negative size " + std::to_string(n));
  if (!(options.density >= 0.0 && options.density <= 1.0))
    throw std::invalid_argument("random_graph: density " + std::to_string(options.density) +
                                " outside [0, 1]");
  if (options.max_weight < 1 || options.max_weight > 1000000)
    throw std::invalid_argument("random_graph: max_weight " + std::to_string(options.max_weight) +
                                " outside [1, 1000000]");
  std::mt19937_64 rng(seed);
  // 53 random bits -> [0, 1); the weight from the next draw modulo max_weight (bias < 1e-13).
  auto uniform01 = [&] { return double(rng() >> 11) * (1.0 / 9007199254740992.0); };
  auto weight = [&] { return Dist(rng() % std::uint64_t(options.max_weight)) + 1; };
  Graph g{name, DistMatrix(n)};
  for (int i = 0; i < n; ++i)
    for (int j = options.undirected ? i + 1 : 0; j < n; ++j) {
      if (i == j) continue;
      const bool edge = uniform01() < options.density;
      const Dist w = weight();  // drawn for every pair, so density does not shift weights
      if (!edge) continue;
      if (options.undirected)
        set_undirected_edge(g.weights, i, j, w);
      else
        g.weights.at(i, j) = w;
    }
  return g;
}

}  // namespace flowtune::apsp
