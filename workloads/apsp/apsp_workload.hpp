// The APSP workload (Marras et al., "Two examples of GPGPU acceleration of memory-intensive
// algorithms", sec. 4.1-4.2 and 5.2): all-pairs shortest paths on mesh dual graphs and random
// graphs, solved by the tiled Floyd-Warshall variants and checked exactly against repeated
// Dijkstra.
#pragma once

#include <memory>
#include <stdexcept>  // workload.hpp uses std::runtime_error without including it
#include <string>

#include "kernels/apsp/graph.hpp"
#include "variants/apsp/apsp_variant.hpp"
#include "workloads/workload.hpp"

namespace flowtune {

/// The workload "apsp": work unit "relaxation" (N^3 per solve), no algorithm parameters, one
/// metric "mismatches" (entries differing from the repeated-Dijkstra reference; any mismatch
/// makes score() throw CheckFailed), default front {"time_ms"}, items "icosphere:K",
/// "torus:MxN", "random:N" (workloads/apsp/apsp_items.hpp; default: icosphere:2,
/// torus:24x16, random:512), variants fw_cpu, dijkstra_cpu, fw_tiled, fw_tiled_sym.
const Workload& apsp_workload();

/// The correctness check of score(): throws CheckFailed("apsp: M mismatches on <item>, first
/// at (i,j): got x, expected y") when `got` differs from `expected` in M > 0 entries (or
/// "apsp: output of size a x a on <item>, expected n x n" on a size mismatch); returns 0
/// otherwise (the "mismatches" metric of a passing output).
double check_apsp_distances(const apsp::DistMatrix& got, const apsp::DistMatrix& expected,
                            const std::string& item);

/// The runner of make_runner for an explicit variant (make_runner looks config.variant up
/// among apsp_variants()); inputs must come from apsp_workload().load_inputs and outlive the
/// runner. Throws std::invalid_argument for foreign inputs or an invalid config, and what
/// variant.make_solver throws.
std::unique_ptr<Runner> make_apsp_runner(const ApspVariant& variant, const Config& config,
                                         const InputSet& inputs);

}  // namespace flowtune
