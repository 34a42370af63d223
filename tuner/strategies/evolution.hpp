// Variation operators shared by genetic_algorithm and nsga2 over a SearchSpace.
#pragma once

#include <random>

#include "tuner/search_space.hpp"

namespace flowtune::strategies {

/// Uniform crossover (each coordinate from either parent with probability 1/2), snapped to
/// the nearest point of the space (SearchSpace::nearest), then with probability
/// mutation_rate moved to a uniformly chosen neighbour.
std::size_t make_child(const SearchSpace& space, std::size_t a, std::size_t b, double mutation_rate,
                       std::mt19937_64& rng);

}  // namespace flowtune::strategies
