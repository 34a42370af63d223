// The variants of the APSP workload (Marras et al., sec. 4.1 and 5.2): the interface every
// APSP adaptor implements (ApspVariant builds an ApspSolver for a config) and the group of
// them (apsp_variants(): the APSP variants of the registry, each registered by its own file).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernels/apsp/graph.hpp"
#include "variants/variant.hpp"

namespace flowtune {

/// Solves APSP on one graph. Synchronous: when solve returns, all device work has finished
/// (host wall time is the solve's time, uploads and downloads included).
class ApspSolver {
 public:
  virtual ~ApspSolver() = default;
  /// Input: g.weights, N x N d^0 (check_weights rules: zero diagonal, weights >= 0, kInf for
  /// no edge). Returns the N x N shortest-path distances, kInf where no path exists, exactly
  /// equal to apsp::floyd_warshall(g.weights). Throws std::invalid_argument for an input the
  /// variant cannot take (fw_tiled_sym: an asymmetric graph), std::runtime_error for a device
  /// failure.
  virtual apsp::DistMatrix solve(const apsp::Graph& g) = 0;
};

/// The only precision of the APSP variants: 32-bit signed integer distances (apsp::Dist).
inline const char* const kApspPrecision = "i32";

/// An APSP variant: workload "apsp", precision "i32" only.
class ApspVariant : public Variant {
 public:
  std::string workload() const override { return "apsp"; }
  std::vector<std::string> precisions() const override { return {kApspPrecision}; }
  /// The common rules (precision "i32"; exactly the tunables of tunables(), each > 0), then
  /// the variant's own (rule_invalid_reason). nullopt when valid.
  std::optional<std::string> invalid_reason(const Config& config) const override;
  /// Builds a solver for config; throws std::invalid_argument for an invalid config,
  /// std::runtime_error when the build fails (no GPU, NVRTC error).
  virtual std::unique_ptr<ApspSolver> make_solver(const Config& config) const = 0;

 protected:
  /// The variant's own rule, called with a config that passed the common ones.
  virtual std::optional<std::string> rule_invalid_reason(const Config& config) const {
    (void)config;
    return std::nullopt;
  }
};

/// Every APSP variant compiled into this binary, in listing order (the ApspVariants of
/// all_variants()): fw_cpu, dijkstra_cpu always; fw_tiled and fw_tiled_sym when built with
/// CUDA (FLOWTUNE_HAVE_CUDA).
std::vector<const Variant*> apsp_variants();
/// The APSP variant called name, or nullptr (also when name is another workload's).
const ApspVariant* find_apsp_variant(const std::string& name);

/// The host adaptors (variants/apsp/cpu_variants.cpp).
const ApspVariant& fw_cpu_variant();
const ApspVariant& dijkstra_cpu_variant();

}  // namespace flowtune
