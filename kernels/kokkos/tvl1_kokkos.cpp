#include "kernels/kokkos/tvl1_kokkos.hpp"

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/cancellation.hpp"
#include "kernels/kokkos/tvl1_kokkos_functors.hpp"

namespace flowtune {
namespace {

using kokkos_tvl1::ConstPlane2;
using kokkos_tvl1::Plane2;
using HostPlane = Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace,
                               Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
using ConstHostPlane = Kokkos::View<const float**, Kokkos::LayoutRight, Kokkos::HostSpace,
                                    Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
using Policy2 =
    Kokkos::MDRangePolicy<Kokkos::Rank<2, Kokkos::Iterate::Right, Kokkos::Iterate::Right>>;

[[noreturn]] void fail(const std::string& problem) {
  throw std::invalid_argument("tvl1_iterate_kokkos (kernels/kokkos/tvl1_kokkos.cpp): " + problem);
}

/// Allocates a device plane (uninitialised) and copies the host vector into it.
Plane2 to_device(const std::vector<float>& host, int width, int height, const char* label) {
  Plane2 plane(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)),
               std::size_t(height), std::size_t(width));
  Kokkos::deep_copy(plane, ConstHostPlane(host.data(), std::size_t(height), std::size_t(width)));
  return plane;
}

void to_host(const Plane2& plane, std::vector<float>& host, int width, int height) {
  Kokkos::deep_copy(HostPlane(host.data(), std::size_t(height), std::size_t(width)), plane);
}

}  // namespace

int tvl1_iterate_kokkos(const WarpingData<float>& w, Tvl1State<float>& s, const Tvl1Params& p,
                        int iterations, KokkosTiles tiles) {
  if (auto why = warping_shape_problem(w, s)) fail(*why);
  if (iterations < 0) fail("iterations " + std::to_string(iterations) + " < 0");
  if (tiles.tile_x < 1 || tiles.tile_y < 1)
    fail("tile " + std::to_string(tiles.tile_x) + "x" + std::to_string(tiles.tile_y) +
         " has a size < 1");
  if (!(p.theta > 0.0) || !(p.tau > 0.0)) fail("theta and tau must be > 0");

  const int width = w.width;
  const int height = w.height;
  const std::size_t n = std::size_t(width) * std::size_t(height);
  // Device views, allocated once for this call (all iterations of one warping).
  const ConstPlane2 grad_x = to_device(w.grad_x, width, height, "grad_x");
  const ConstPlane2 grad_y = to_device(w.grad_y, width, height, "grad_y");
  const ConstPlane2 rho_c = to_device(w.rho_c, width, height, "rho_c");
  const Plane2 u1 = to_device(s.u1, width, height, "u1");
  const Plane2 u2 = to_device(s.u2, width, height, "u2");
  const Plane2 p11 = to_device(s.p11, width, height, "p11");
  const Plane2 p12 = to_device(s.p12, width, height, "p12");
  const Plane2 p21 = to_device(s.p21, width, height, "p21");
  const Plane2 p22 = to_device(s.p22, width, height, "p22");

  const kokkos_tvl1::UpdateU update_u{grad_x,
                                      grad_y,
                                      rho_c,
                                      u1,
                                      u2,
                                      p11,
                                      p12,
                                      p21,
                                      p22,
                                      static_cast<float>(p.lambda * p.theta),
                                      static_cast<float>(p.theta)};
  const kokkos_tvl1::UpdateP update_p{
      u1, u2, p11, p12, p21, p22, static_cast<float>(p.tau / p.theta), width, height};
  // Execution policy separate from the functors: the tile sizes are the tunable.
  const Policy2 policy({0, 0}, {height, width}, {tiles.tile_y, tiles.tile_x});

  const bool use_epsilon = p.epsilon > 0.0;
  const double stop_below = p.epsilon * p.epsilon;
  int done = 0;
  while (done < iterations) {
    throw_if_cancelled();
    ++done;
    if (use_epsilon && done % p.epsilon_check_every == 0) {
      double change_sum = 0.0;
      Kokkos::parallel_reduce("tvl1_update_u", policy, kokkos_tvl1::UpdateUWithChange{update_u},
                              change_sum);
      Kokkos::parallel_for("tvl1_update_p", policy, update_p);
      if (change_sum / static_cast<double>(n) <= stop_below) break;
    } else {
      Kokkos::parallel_for("tvl1_update_u", policy, update_u);
      Kokkos::parallel_for("tvl1_update_p", policy, update_p);
    }
  }
  Kokkos::fence();

  to_host(u1, s.u1, width, height);
  to_host(u2, s.u2, width, height);
  to_host(p11, s.p11, width, height);
  to_host(p12, s.p12, width, height);
  to_host(p21, s.p21, width, height);
  to_host(p22, s.p22, width, height);
  return done;
}

}  // namespace flowtune
