// The CSV files of `tune report` (runs, measurements, pruned, failures, pareto), each
// rendered from the report model of one board. Fields go through detail::csv_field.
#pragma once

#include <string>
#include <vector>

#include "reports/report_model.hpp"

namespace flowtune::reports {

/// runs.csv: one row per run of the reported board (id order) with its workload,
/// environment, status, dataset and its numbers of measured, pruned and failed configs.
std::string runs_csv(const ReportModel& model);

/// measurements.csv: one row per measured config of the reported board (measurement order):
/// ids, config columns, one column per parameter (union, sorted), times, energy, one column
/// per metric (union, sorted), resources_json, on_front (1 when on a front of model.fronts),
/// then per item (first-seen order) its time and each metric.
std::string measurements_csv(const ReportModel& model);

/// pruned.csv: run_id, config columns, one column per parameter, reason.
std::string pruned_csv(const ReportModel& model);

/// failures.csv: run_id, config columns, one column per parameter, dataset, failure_class,
/// message, failed_at.
std::string failures_csv(const ReportModel& model);

/// pareto.csv: per front of model.fronts its configs by rank (front "<objectives>" and, with
/// energy, "time_energy" and the three-objective "time_ms_energy_mj_<metric>"), then the
/// cross-algorithm fronts (front "cross_<objectives>").
std::string pareto_csv(const ReportModel& model);

namespace detail {

/// Header of the config columns shared by the CSV files (config_key ... params_json).
extern const std::vector<std::string> kConfigHeader;

/// Union of the parameter names of the configs, sorted.
std::vector<std::string> param_names(const std::vector<const db::ConfigRow*>& configs);

/// The kConfigHeader fields of c, then its value of each of `params` ("" when absent).
std::vector<std::string> config_fields(const db::ConfigRow& c,
                                       const std::vector<std::string>& params);

/// Appends b to a.
void append(std::vector<std::string>& a, const std::vector<std::string>& b);

/// The shortest text of *v; "" for nullopt.
std::string optional_double(const std::optional<double>& v);

}  // namespace detail

}  // namespace flowtune::reports
