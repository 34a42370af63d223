// What one progress line says about a point: the dimensions that vary in the run's space
// (the run header lists the fixed values once), and the point's figures.
#pragma once

#include <set>
#include <string>

#include "db/rows.hpp"
#include "tuner/space.hpp"
#include "variants/config.hpp"

namespace flowtune {

/// The dimensions (ARCHITECTURE.md, Vocabulary) whose value differs between configs of a space.
struct VaryingDimensions {
  bool variant = false, precision = false, clock = false;
  std::set<std::string> tunables;  ///< names of the tunables that vary (or exist in some only)
  std::set<std::string> params;    ///< names of the parameters that vary
};

/// The dimensions of `space` whose value is not the same in every config: for a generated
/// space read from its layout (ConfigSpace::layout; no pass over the configs), for a listed
/// one by comparing each config with the first. A tunable present in some
/// configs only (variants with different tunables) varies. An empty space varies in nothing.
VaryingDimensions varying_dimensions(const ConfigSpace& space);

/// config's values of the varying dimensions, in this order: variant, precision, tunables
/// and parameters as name=value (each in name order, shortest decimals), clock as
/// "clock_mhz=N"; e.g. "kokkos_global iterations=100 n_warpings=5". When nothing varies
/// (a space of one config), config.variant.
std::string varying_text(const Config& config, const VaryingDimensions& varying);

/// The figures of a measurement for a progress line: "4.21 ms" (median time per execution,
/// 3 significant digits), then each metric "name value", then "energy N mJ" where measured;
/// e.g. "4.21 ms, aepe 0.312, aae_deg 3.1, energy 12.5 mJ".
std::string figures_text(const db::MeasurementRow& measurement);

/// A failure's message for a progress line: its first line, cut to max_chars characters
/// ("..." marks a cut); the DB keeps the whole message.
std::string short_message(const std::string& message, std::size_t max_chars = 80);

}  // namespace flowtune
