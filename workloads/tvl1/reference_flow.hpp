// The reference flow of a frame pair without ground truth: computed once per pair by a stated
// high-accuracy config, cached on disk, and the forward-backward visibility mask from it. The
// TV-L1 workload scores every config against it (ref_aepe) and by the photometric error over
// its visible pixels.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "variants/config.hpp"
#include "workloads/tvl1/sequences.hpp"

namespace flowtune {

/// The reference config: TV-L1 at the workload's default parameters (IPOL 2013's scheme: 5
/// warpings of up to 300 iterations with the stopping test at epsilon 0.005, and the 5 px
/// median after each warping; docs/parameters.md), in f32 on the fastest host variant
/// compiled in (simd_fused, else kokkos_global), each tunable at its default value (or its
/// first one). Throws std::runtime_error when no host TV-L1 variant is compiled in.
Config reference_config();

/// "simd_fused f32 (epsilon=0.005 iterations=300 ...)": the config as the run's header
/// states it.
std::string reference_config_text(const Config& config);

/// 16 hex digits that change when what the reference computes changes: FNV-1a 64 of the
/// variant, the precision and the parameters (not the tunables, which change only how).
std::string reference_config_hash(const Config& config);

/// The folder of cached reference flows: $FLOWTUNE_CACHE_DIR, else $XDG_CACHE_HOME/flowtune,
/// else ~/.cache/flowtune, each + "/reference-flow".
std::string reference_cache_dir();

/// What attach_reference_flows did.
struct ReferenceFlowStats {
  std::size_t computed = 0, cached = 0;
  std::string cache_dir;
};

/// Sets s.reference (the flow i0 -> i1 of `config`) and s.visible (forward_backward_visible of
/// it and the flow i1 -> i0, kernels/photometric.hpp) for every sequence. Each pair's two flows
/// are read from `cache_dir` when there, under a name hashing the config
/// (reference_config_hash) and the pixels of both frames, else computed and written there
/// (to a temporary file renamed into place, so that processes sharing the folder never read a
/// partial file). A cache file that cannot be read is computed again; a folder that cannot
/// be written leaves the flows uncached (counted as computed). on_compute, when given, is
/// called with "<pair name> (k of n)" before a pair's flows are computed. Throws
/// std::runtime_error naming the pair when the config cannot compute it.
ReferenceFlowStats attach_reference_flows(
    std::vector<Sequence>& sequences, const Config& config, const std::string& cache_dir,
    const std::function<void(const std::string&)>& on_compute = nullptr);

/// FNV-1a 64 over `bytes` from `seed` (the offset basis by default): the content hash of the
/// reference cache and of the footage dataset keys.
std::uint64_t fnv1a64(const void* bytes, std::size_t n, std::uint64_t seed = 0xcbf29ce484222325ULL);

/// `value` as 16 lowercase hex digits.
std::string hex64(std::uint64_t value);

}  // namespace flowtune
