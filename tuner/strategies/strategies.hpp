// Factories of the adaptive strategies (tuner/strategy.hpp documents each by name).
#pragma once

#include <memory>

#include "tuner/strategy.hpp"

namespace flowtune::strategies {

std::unique_ptr<Strategy> make_greedy_ils(const SearchSpace& space, const StrategyOptions& options);
std::unique_ptr<Strategy> make_model_guided(const SearchSpace& space,
                                            const StrategyOptions& options);
std::unique_ptr<Strategy> make_simulated_annealing(const SearchSpace& space,
                                                   const StrategyOptions& options);
std::unique_ptr<Strategy> make_genetic_algorithm(const SearchSpace& space,
                                                 const StrategyOptions& options);
std::unique_ptr<Strategy> make_tpe(const SearchSpace& space, const StrategyOptions& options);
std::unique_ptr<Strategy> make_kernel_staged(const SearchSpace& space,
                                             const StrategyOptions& options);
std::unique_ptr<Strategy> make_nsga2(const SearchSpace& space, const StrategyOptions& options);

}  // namespace flowtune::strategies
