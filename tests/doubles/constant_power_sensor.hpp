// A sensor double (boards/energy_sensor.hpp): a board drawing a constant power, read as an
// energy counter over the steady clock, so that a window of t ms holds exactly watts x t mJ
// (the oracle of the energy tests).
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "boards/energy_sensor.hpp"

namespace flowtune {

/// Energy of a window = watts x its duration (mJ = W x ms); min_window_ms as given. name():
/// "constant power (test double)".
class ConstantPowerSensor : public EnergySensor {
 public:
  ConstantPowerSensor(double watts, double min_window_ms)
      : watts_(watts), min_window_ms_(min_window_ms) {}
  std::string name() const override { return "constant power (test double)"; }
  void start() override { start_ = std::chrono::steady_clock::now(); }
  std::optional<double> stop_mj() override {
    if (!start_) return std::nullopt;
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - *start_)
            .count();
    start_.reset();
    return watts_ * ms;
  }
  double min_window_ms() const override { return min_window_ms_; }

 private:
  double watts_, min_window_ms_;
  std::optional<std::chrono::steady_clock::time_point> start_;
};

}  // namespace flowtune
