// Closed triangle meshes and their dual graphs, the inputs of Marras et al. (sec. 4.1: the
// APSP runs on the dual graph of a mesh, one node per face, one arc per shared edge, so
// every node of a closed manifold mesh has exactly three neighbours).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "kernels/apsp/graph.hpp"

namespace flowtune::apsp {

/// An indexed triangle mesh: vertex positions (x, y, z) and faces as three vertex indices.
struct TriMesh {
  std::vector<std::array<double, 3>> vertices;
  std::vector<std::array<int, 3>> faces;
};

/// The icosahedron subdivided k times (each triangle into 4 at its edge midpoints, new
/// vertices projected onto the unit sphere): 20 * 4^k faces (k = 2: 320, 3: 1280, 4: 5120,
/// 5: 20480), 10 * 4^k + 2 vertices. Throws std::invalid_argument for k outside [0, 8].
TriMesh icosphere(int k);

/// A torus (major radius 2, minor radius 1, unit-free) sampled on an m x n grid of quads
/// (m around the main circle, n around the tube), each quad split along its diagonal into
/// 2 triangles: 2 * m * n faces. Throws std::invalid_argument unless m >= 3 and n >= 3 (so
/// the mesh is a proper closed manifold and no two faces share two edges).
TriMesh torus(int m, int n);

/// The dual graph of a closed manifold mesh: node f = face f, an undirected edge between
/// two faces that share a mesh edge, weight = round(1000 * distance between the faces'
/// centroids), at least 1 (Marras et al. use a geodesic/angular face distance, sec. 4.1; the
/// centroid distance is its geodesic part). Returns a Graph named `name`, N = faces.size().
/// Throws std::invalid_argument when an edge is not shared by exactly two faces (open or
/// non-manifold mesh) or a face has a repeated vertex.
Graph dual_graph(const TriMesh& mesh, const std::string& name);

}  // namespace flowtune::apsp
