// Which config `tune export` deploys: constrained selection over a board's measurements,
// and the tuned header of that choice written to a file. ARCHITECTURE.md, "select/".
#pragma once

#include <string>
#include <vector>

#include "db/repository.hpp"
#include "select/objectives.hpp"

namespace flowtune {

/// What select_for_export chose.
struct ExportSelection {
  db::MeasuredConfig config;
  Objective objective;
};

/// Selects the config of `board` for `objective` (select_config with the workload's front
/// objectives) among the measurements of `workload` ("" = any) on `dataset` ("" = the
/// board's dataset with the most measurements of that workload). Constraints (e.g. aepe <=
/// 0.25) restrict the candidates first. Throws std::runtime_error naming the DB when the
/// board has no measurements (of that workload, on that dataset), when workload is "" and the
/// dataset holds measurements of several workloads (naming them: a header of one is never
/// chosen silently), or when no config satisfies the constraints (with the best value of
/// each constrained figure measured); std::invalid_argument for an unknown objective.
ExportSelection select_for_export(const db::Repository& repo, const std::string& board,
                                  const std::string& objective, const std::string& dataset = "",
                                  const std::vector<Constraint>& constraints = {},
                                  const std::string& workload = "");

/// The dataset of `board` measured at frame size `size` ("1280x720", `tune --resolution`): the
/// one of its datasets whose key ends in "@<size>" (or holds "@<size>+", a footage key with
/// its reference) with the most measurements. Throws std::runtime_error naming the DB and the
/// sizes the board was measured at when there is none.
std::string dataset_at_resolution(const db::Repository& repo, const std::string& board,
                                  const std::string& size);

/// select_for_export, then its tuned_header_text written to out_path (parent folders
/// created). Same errors, and std::runtime_error naming out_path when it cannot be written.
void export_tuned_header(const db::Repository& repo, const std::string& board,
                         const std::string& objective, const std::string& out_path,
                         const std::string& dataset = "",
                         const std::vector<Constraint>& constraints = {},
                         const std::string& workload = "");

}  // namespace flowtune
