#include "tuner/strategies/evolution.hpp"

namespace flowtune::strategies {

std::size_t make_child(const SearchSpace& space, std::size_t a, std::size_t b, double mutation_rate,
                       std::mt19937_64& rng) {
  const std::vector<int>& ca = space.coords(a);
  const std::vector<int>& cb = space.coords(b);
  std::vector<int> child(ca.size());
  std::bernoulli_distribution coin(0.5);
  for (std::size_t d = 0; d < ca.size(); ++d) child[d] = coin(rng) ? ca[d] : cb[d];
  long p = space.find(child);
  if (p < 0) p = space.nearest(child);
  std::size_t out = std::size_t(p);
  if (std::bernoulli_distribution(mutation_rate)(rng)) {
    const auto& nb = space.neighbours(out);
    if (!nb.empty()) out = nb[std::uniform_int_distribution<std::size_t>(0, nb.size() - 1)(rng)];
  }
  return out;
}

}  // namespace flowtune::strategies
