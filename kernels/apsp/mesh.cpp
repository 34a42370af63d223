#include "kernels/apsp/mesh.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <utility>

namespace flowtune::apsp {
namespace {

using Vec3 = std::array<double, 3>;

Vec3 normalized(const Vec3& v) {
  const double len = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  return {v[0] / len, v[1] / len, v[2] / len};
}

std::uint64_t edge_key(int a, int b) {
  if (a > b) std::swap(a, b);
  return (std::uint64_t(std::uint32_t(a)) << 32) | std::uint32_t(b);
}

Vec3 centroid(const TriMesh& mesh, int f) {
  Vec3 c{0, 0, 0};
  for (int v : mesh.faces[std::size_t(f)])
    for (int a = 0; a < 3; ++a)
      c[std::size_t(a)] += mesh.vertices[std::size_t(v)][std::size_t(a)] / 3.0;
  return c;
}

}  // namespace

TriMesh icosphere(int k) {
  if (k < 0 || k > 8)
    throw std::invalid_argument("icosphere: subdivisions " + std::to_string(k) + " outside [0, 8]");
  const double t = (1.0 + std::sqrt(5.0)) / 2.0;
  TriMesh mesh;
  const Vec3 corners[12] = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0},
                            {0, -1, t}, {0, 1, t}, {0, -1, -t}, {0, 1, -t},
                            {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
  for (const Vec3& c : corners) mesh.vertices.push_back(normalized(c));
  mesh.faces = {{0, 11, 5},  {0, 5, 1},  {0, 1, 7},  {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
                {3, 8, 9},   {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  for (int level = 0; level < k; ++level) {
    std::map<std::uint64_t, int> midpoint;  // edge -> index of its new vertex
    auto mid = [&](int a, int b) {
      auto [it, inserted] = midpoint.emplace(edge_key(a, b), int(mesh.vertices.size()));
      if (inserted) {
        const Vec3& p = mesh.vertices[std::size_t(a)];
        const Vec3& q = mesh.vertices[std::size_t(b)];
        mesh.vertices.push_back(normalized({p[0] + q[0], p[1] + q[1], p[2] + q[2]}));
      }
      return it->second;
    };
    std::vector<std::array<int, 3>> finer;
    finer.reserve(mesh.faces.size() * 4);
    for (const auto& [a, b, c] : mesh.faces) {
      const int ab = mid(a, b), bc = mid(b, c), ca = mid(c, a);
      finer.push_back({a, ab, ca});
      finer.push_back({b, bc, ab});
      finer.push_back({c, ca, bc});
      finer.push_back({ab, bc, ca});
    }
    mesh.faces = std::move(finer);
  }
  return mesh;
}

TriMesh torus(int m, int n) {
  if (m < 3 || n < 3)
    throw std::invalid_argument("torus: grid " + std::to_string(m) + "x" + std::to_string(n) +
                                " too small (want m >= 3 and n >= 3)");
  const double pi = std::acos(-1.0), major = 2.0, minor = 1.0;
  TriMesh mesh;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      const double u = 2 * pi * i / m, v = 2 * pi * j / n;
      mesh.vertices.push_back({(major + minor * std::cos(v)) * std::cos(u),
                               (major + minor * std::cos(v)) * std::sin(u), minor * std::sin(v)});
    }
  auto vid = [&](int i, int j) { return ((i % m) * n) + (j % n); };
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      const int a = vid(i, j), b = vid(i + 1, j), c = vid(i + 1, j + 1), d = vid(i, j + 1);
      mesh.faces.push_back({a, b, c});
      mesh.faces.push_back({a, c, d});
    }
  return mesh;
}

Graph dual_graph(const TriMesh& mesh, const std::string& name) {
  const int n_faces = int(mesh.faces.size());
  std::map<std::uint64_t, std::vector<int>> faces_of_edge;
  for (int f = 0; f < n_faces; ++f) {
    const auto& tri = mesh.faces[std::size_t(f)];
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[2] == tri[0])
      throw std::invalid_argument("dual_graph(" + name + "): face " + std::to_string(f) +
                                  " repeats a vertex");
    for (int e = 0; e < 3; ++e)
      faces_of_edge[edge_key(tri[std::size_t(e)], tri[std::size_t((e + 1) % 3)])].push_back(f);
  }
  Graph g{name, DistMatrix(n_faces)};
  for (const auto& [key, faces] : faces_of_edge) {
    if (faces.size() != 2)
      throw std::invalid_argument("dual_graph(" + name + "): edge (" + std::to_string(key >> 32) +
                                  ", " + std::to_string(key & 0xffffffffu) + ") has " +
                                  std::to_string(faces.size()) + " faces, want 2");
    const Vec3 p = centroid(mesh, faces[0]), q = centroid(mesh, faces[1]);
    const double dist = std::sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) +
                                  (p[2] - q[2]) * (p[2] - q[2]));
    const auto weight = std::max<Dist>(1, Dist(std::lround(1000.0 * dist)));
    set_undirected_edge(g.weights, faces[0], faces[1], weight);
  }
  return g;
}

}  // namespace flowtune::apsp
