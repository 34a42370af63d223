#include "kernels/apsp/graph.hpp"

#include <stdexcept>

namespace flowtune::apsp {

DistMatrix::DistMatrix(int n_nodes) : n(n_nodes) {
  if (n_nodes < 0)
    throw std::invalid_argument("DistMatrix: negative size " + std::to_string(n_nodes));
  d.assign(std::size_t(n_nodes) * std::size_t(n_nodes), kInf);
  for (int i = 0; i < n_nodes; ++i) at(i, i) = 0;
}

void set_undirected_edge(DistMatrix& w, int i, int j, Dist weight) {
  if (i < 0 || j < 0 || i >= w.n || j >= w.n || i == j)
    throw std::invalid_argument("set_undirected_edge: bad edge (" + std::to_string(i) + ", " +
                                std::to_string(j) + ") for n = " + std::to_string(w.n));
  if (weight < 0 || weight >= kInf)
    throw std::invalid_argument("set_undirected_edge: weight " + std::to_string(weight) +
                                " outside [0, kInf)");
  w.at(i, j) = weight;
  w.at(j, i) = weight;
}

bool is_symmetric(const DistMatrix& w) {
  for (int i = 0; i < w.n; ++i)
    for (int j = 0; j < i; ++j)
      if (w.at(i, j) != w.at(j, i)) return false;
  return true;
}

void check_weights(const DistMatrix& w, const std::string& what) {
  if (w.n < 0 || w.d.size() != std::size_t(w.n) * std::size_t(w.n))
    throw std::invalid_argument(what + ": matrix of " + std::to_string(w.d.size()) +
                                " entries is not " + std::to_string(w.n) + " x " +
                                std::to_string(w.n));
  for (int i = 0; i < w.n; ++i)
    for (int j = 0; j < w.n; ++j) {
      const Dist v = w.at(i, j);
      if ((i == j && v != 0) || v < 0 || v > kInf)
        throw std::invalid_argument(what + ": bad weight " + std::to_string(v) + " at (" +
                                    std::to_string(i) + ", " + std::to_string(j) +
                                    ") (want 0 on the diagonal, else in [0, kInf])");
    }
}

int out_degree(const DistMatrix& w, int i) {
  int degree = 0;
  for (int j = 0; j < w.n; ++j)
    if (j != i && w.at(i, j) != kInf) ++degree;
  return degree;
}

}  // namespace flowtune::apsp
