// Pieces shared by the report sections of this folder (tables of one front, one dataset).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "reports/report_model.hpp"

namespace flowtune::reports::sections {

/// Names of the objectives joined by " vs " ("time_ms vs aepe").
std::string axes_text(const std::vector<Objective>& objectives);

/// Parameters whose value differs between the configs (the others are the same everywhere).
std::set<std::string> varying_params(const std::vector<db::MeasuredConfig>& configs);

/// The parameters a table of `configs` shows: those that vary among them, or, when none
/// varies (e.g. a front of one config), every parameter of the first config, so that the
/// table always says what was chosen.
std::set<std::string> shown_params(const std::vector<db::MeasuredConfig>& configs);

/// A label per config of `configs` that tells it from the others: its label, and where
/// other configs carry the same label, the parameters (and clock) that differ among them
/// ("simd_fused f32 band_rows=16 iterations=50 n_warpings=5"); the measurement id as a last
/// resort. In the order of `configs`.
std::vector<std::string> distinct_labels(const std::vector<db::MeasuredConfig>& configs);

/// distinct_labels(within), the label of `mc` (found by measurement id); its own label when
/// it is not in `within`.
std::string distinct_label(const db::MeasuredConfig& mc,
                           const std::vector<db::MeasuredConfig>& within);

/// Markdown table of the configs of `front`: label, shown_params(front),
/// time ms, ns per work unit of w, energy mJ, each metric of w. Throws std::out_of_range
/// when a config lacks a varying parameter.
std::string front_table_md(const std::vector<db::MeasuredConfig>& front, const db::WorkloadRow& w);

/// Markdown "Per item" table of the configs of `front`: one row per config and item of its
/// measurement (a sequence, a graph) with the item's time ms and each metric of w; "" when
/// no measurement has items.
std::string per_item_md(const std::vector<db::MeasuredConfig>& front, const db::WorkloadRow& w);

/// HTML <details> of one config's per-item results (item, time ms, each metric of w); ""
/// without items.
std::string per_item_html(const db::MeasuredConfig& mc, const db::WorkloadRow& w);

/// Markdown "Flow of one item" of the configs of `front` that have pictures (table
/// item_images): a legend (item_images_legend), then per config its label, the item and its
/// pictures as images of the report folder (item_image_name); "" when none has pictures.
std::string item_images_md(const std::vector<db::MeasuredConfig>& front);

/// HTML <figure class="item-images"> of one config's pictures, each an <img
/// class="item-image"> with the PNG inline (data: URI), and a caption naming the item; ""
/// without pictures.
std::string item_images_html(const db::MeasuredConfig& mc);

/// HTML table of d.front: label, variant, precision, tunables, the parameters that vary
/// among d.measured, time ms, energy mJ (when d.has_energy), each metric of d.workload, and
/// per config its per-item results (per_item_html) and, when some config of the front has
/// pictures, a "flow (one item)" column (item_images_html) under the legend.
/// The row of pick_id (a measurement id; 0 = none) has class "pick" and a badge, and comes
/// first when it is not on the front; labels are distinct_labels over d.measured; with
/// energy, also power W.
std::string front_table_html(const DatasetFront& d, std::int64_t pick_id = 0);
/// The same table of the configs of `front` (another front of d, e.g. its
/// three_objective_front) instead of d.front.
std::string front_table_html(const DatasetFront& d, const std::vector<db::MeasuredConfig>& front,
                             std::int64_t pick_id);

/// Markdown "Best config per objective" of f: per front objective (and energy when
/// measured) the config select_config picks, or n/a with the reason.
std::string best_config_md(const DatasetFront& f);

/// Markdown "Best accuracy within a time budget, per precision" of f (reports/budget_table.hpp);
/// "" when there is no cell.
std::string budget_md(const DatasetFront& f);

/// Markdown section of one cross-algorithm front: the plot's image (svg_file), configs on the
/// front per workload, then one row per front config with its workload, label, parameters,
/// time and every shared objective.
std::string cross_front_md(const CrossFront& f, const std::string& svg_file);

}  // namespace flowtune::reports::sections
