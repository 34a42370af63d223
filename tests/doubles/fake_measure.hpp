// A test double of the measurement harness, linked only into the test binary
// tune_with_test_measurer (tests/doubles/CMakeLists.txt): a deterministic stand-in, so that
// tests of the distributed tuner (tests/distributed) check exactly-once measurement and the
// front without depending on machine noise. In that binary, FLOWTUNE_TEST_FAKE_MEASURE=
// SLEEP_MS installs it (set_config_measurer, tuner/measure.hpp) in the coordinator and every
// worker process. The production `tune` has no such switch.
#pragma once

#include <optional>

#include "db/repository.hpp"
#include "tuner/measure.hpp"
#include "workloads/workload.hpp"

namespace flowtune {

/// SLEEP_MS from FLOWTUNE_TEST_FAKE_MEASURE, or nullopt when unset. Throws
/// std::invalid_argument for a value that is not a number >= 0.
std::optional<double> fake_measure_sleep_ms();

/// A measurement that depends on the config key only: sleeps sleep_ms (polling the
/// cancellation flag every 10 ms: throws Cancelled), then returns time_ms = 1 + (h mod 1000)
/// / 100 (1 to 10.99 ms, min = max = median, 1 repeat) and each metric of the workload =
/// ((h >> 20) mod 1000) / 1000, with h the 64-bit FNV-1a hash of db::config_key, the same
/// per item. With FLOWTUNE_TEST_FAKE_MEASURE_LOG=PATH it appends "begin KEY" before the
/// sleep and "end KEY" after it (one write each, O_APPEND), so a test can count how often
/// each point was measured across processes. With FLOWTUNE_TEST_FAKE_MEASURE_HANG=PATH, the
/// first measurement of all processes that creates PATH writes its key there, after its
/// "begin" line, and hangs for good (deaf to cancellation).
db::MeasurementRow fake_measurement(const Workload& workload, const db::ConfigRow& config,
                                    const InputSet& inputs, double sleep_ms);

/// Adds the energy of m as the real harness reads it (measure_runner): per item one sensor
/// window of window_ms (slept, polling cancellation), holding window / m.time_ms_median
/// executions; energy_mj per execution, nj_per_unit per work unit, power_w the mean power.
/// Leaves energy NULL when a window cannot be read. In the test binary,
/// FLOWTUNE_TEST_FAKE_ENERGY_W=W installs a ConstantPowerSensor of W watts as every energy
/// sensor (set_energy_sensor_maker), "none" makes boards sensorless.
void add_fake_energy(db::MeasurementRow& m, const InputSet& inputs, EnergySensor& sensor,
                     double window_ms);

}  // namespace flowtune
