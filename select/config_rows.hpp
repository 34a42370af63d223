// The one conversion between the engine's Config and the DB's rows (ARCHITECTURE.md,
// "select/"): the tuner records with it, reports and exports read back with it.
#pragma once

#include <string>

#include "db/repository.hpp"
#include "variants/config.hpp"
#include "workloads/workload.hpp"

namespace flowtune {

/// The DB row of `config` measured on `board`: every field copied, the label
/// (Config::label) and the key (db::config_key, the config's identity in the DB) filled in.
/// A parameter of a registered workload that holds its absent value (ParamSpec::absent_value,
/// e.g. median_window 0) is left out (Workload::without_absent_values), so the key of a config
/// does not change when such a parameter is added to the schema (old DBs resume); any other
/// value, the parameter's default included, is written. to_config returns the row's
/// parameters as stored; a missing one means its absent value (Workload::with_absent_values,
/// tvl1_params_of).
db::ConfigRow to_config_row(const std::string& board, const Config& config);

/// The inverse: the Config of a stored row (board, key and label dropped).
Config to_config(const db::ConfigRow& row);

/// The DB's description of a workload: its name, work unit, front objectives and metric
/// specs (name, unit, doc, direction).
db::WorkloadRow to_workload_row(const Workload& workload);

}  // namespace flowtune
