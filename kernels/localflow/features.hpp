// CPU reference of dense flow from features tracked in advance (Kim, Hwangbo and Kanade,
// sec. 4): Shi-Tomasi corners, a pyramidal KLT built from the Lucas-Kanade pieces
// (kernels/cuda/lk_core.cuh), then method 1 (direct interpolation) or method 2 (multiple
// hypotheses and testing); the per-pixel rules are in kernels/cuda/feat_core.cuh.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "kernels/cuda/feat_core.cuh"
#include "kernels/image.hpp"

namespace flowtune::localflow {

/// Parameters of the "features" workload (workloads/localflow/features_workload.cpp).
struct FeatParams {
  int method = 1;                ///< 1: direct interpolation, 2: multiple hypotheses
  int features = 400;            ///< most corners kept (strongest first)
  double sigma_space = 16;       ///< s_s, px
  double sigma_color = 8;        ///< s_c, intensity levels
  double sigma_flow = 1;         ///< s_f, px (method 2)
  double grid_step = 1;          ///< hypothesis grid step, px (method 2)
  int hypotheses = 8;            ///< hypotheses tested per pixel (method 2)
  double change_threshold = 16;  ///< change test, intensity levels
};

/// Fixed choices of the tracker (not parameters): corner window 5 x 5, corners at least
/// kCornerMinDistance px apart and of score >= 1% of the best (Shi and Tomasi's quality
/// level), KLT with kKltLevels levels, a kKltWindow-px box window and kKltIterations
/// iterations per level; at most kMaxHypothesesPerAxis labels per flow axis (the step grows
/// when the features' flows span more).
inline constexpr int kCornerRadius = 2, kCornerMinDistance = 8;
inline constexpr int kKltLevels = 4, kKltWindow = 9, kKltIterations = 10;
inline constexpr int kMaxHypothesesPerAxis = 48;
/// Weight below which a feature does not vote (method 2), relative to the pixel's best.
inline constexpr float kVoteCutoff = 1e-4f;

/// nullopt when p is valid, else the reason ("features=0 outside [1, 4096]").
std::optional<std::string> feat_params_invalid_reason(const FeatParams& p);

/// A corner of I0: integer position and Shi-Tomasi score.
struct Corner {
  int x = 0, y = 0;
  float score = 0;
};

/// The `max_corners` strongest corners of `frame` (score = smallest eigenvalue of the 5 x 5
/// box structure tensor, ftflow::shi_tomasi_score), taken greedily by decreasing score (ties:
/// row-major order), skipping those closer than kCornerMinDistance to a kept one and those
/// below 1% of the best score (or not positive).
std::vector<Corner> shi_tomasi_corners(const Image& frame, int max_corners);

/// The corners tracked from I0 to I1 by the pyramidal KLT (Bouguet 2000 with the LK pieces:
/// at each level the corner's integer position at that level, the flow doubled from the
/// coarser level, ftflow::lk_refine). Features tracked outside the frame are dropped.
std::vector<ftflow::Feature> track_corners(const Image& i0, const Image& i1,
                                           const std::vector<Corner>& corners);

/// Method 2's discretised flow space (Kim et al. sec. 4.2, fig. 1): the hypotheses (u0 + k
/// step, v0 + j step), k < nu, j < nv, cover the features' flows (u0, v0 on the grid of
/// p.grid_step; the step grows so that no axis exceeds kMaxHypothesesPerAxis labels), and the
/// per-feature flow likelihoods fu[i nu + k], fv[i nv + j] (ftflow::feat_hypotheses).
struct HypothesisSpace {
  float u0 = 0, v0 = 0, step = 1;
  int nu = 1, nv = 1;
  std::vector<float> fu, fv;
};
HypothesisSpace hypothesis_space(const std::vector<ftflow::Feature>& fs, const FeatParams& p);

/// Result of feature_flow: the dense flow and the pixels that failed the change test.
struct FeatureFlow {
  FlowField flow;
  std::size_t unclassified = 0;
  std::size_t n_features = 0;
};

/// The dense flow I0 -> I1 (same size, gray [0, 255]) from p.features tracked corners by
/// method p.method. Throws std::invalid_argument for frames of different sizes or invalid
/// parameters. With no trackable corner the flow is 0 (then tested like any flow).
FeatureFlow feature_flow(const Image& i0, const Image& i1, const FeatParams& p);

}  // namespace flowtune::localflow
