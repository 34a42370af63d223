// Per-warping data and the primal/dual state of the TV-L1 inner iterations.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace flowtune {

/// What one warping hands to the inner iterations (numerics contract, ARCHITECTURE.md):
/// grad_x/grad_y = (grad I1)(x + u0) and rho_c = I1(x + u0) - grad . u0 - I0, all
/// width x height row-major. Real is double (reference) or float (variants).
template <typename Real>
struct WarpingData {
  int width = 0;
  int height = 0;
  std::vector<Real> grad_x, grad_y, rho_c;

  WarpingData() = default;
  WarpingData(int w, int h)
      : width(w),
        height(h),
        grad_x(std::size_t(w) * h),
        grad_y(std::size_t(w) * h),
        rho_c(std::size_t(w) * h) {}
};

/// Primal flow (u1, u2) and dual variables p1 = (p11, p12) for u1, p2 = (p21, p22) for u2,
/// width x height row-major each. Flow in pixels.
template <typename Real>
struct Tvl1State {
  int width = 0;
  int height = 0;
  std::vector<Real> u1, u2, p11, p12, p21, p22;

  Tvl1State() = default;
  Tvl1State(int w, int h)
      : width(w),
        height(h),
        u1(std::size_t(w) * h),
        u2(std::size_t(w) * h),
        p11(std::size_t(w) * h),
        p12(std::size_t(w) * h),
        p21(std::size_t(w) * h),
        p22(std::size_t(w) * h) {}
};

/// What is wrong with the shapes of one warping's data w and state s for the inner iterations,
/// or nullopt when they fit: an empty warping, a state of another width x height, or a plane
/// (grad_x, grad_y, rho_c, u1, u2, p11, p12, p21, p22) whose element count is not width *
/// height. The message names the plane and both counts; callers prefix their own name.
template <typename Real>
std::optional<std::string> warping_shape_problem(const WarpingData<Real>& w,
                                                 const Tvl1State<Real>& s) {
  if (w.width < 1 || w.height < 1) return std::string("empty warping data");
  if (s.width != w.width || s.height != w.height)
    return "state is " + std::to_string(s.width) + "x" + std::to_string(s.height) +
           " but warping data is " + std::to_string(w.width) + "x" + std::to_string(w.height);
  const std::size_t n = std::size_t(w.width) * std::size_t(w.height);
  const std::pair<const std::vector<Real>*, const char*> planes[] = {
      {&w.grad_x, "grad_x"}, {&w.grad_y, "grad_y"}, {&w.rho_c, "rho_c"},
      {&s.u1, "u1"},         {&s.u2, "u2"},         {&s.p11, "p11"},
      {&s.p12, "p12"},       {&s.p21, "p21"},       {&s.p22, "p22"}};
  for (const auto& [plane, name] : planes)
    if (plane->size() != n)
      return std::string(name) + " has " + std::to_string(plane->size()) + " elements, expected " +
             std::to_string(n);
  return std::nullopt;
}

}  // namespace flowtune
