// The pictures stored with the measurements (table item_images: the colour-coded flow of one
// item, its ground truth, its endpoint error) as report.md files and index.html images.
#pragma once

#include <string>
#include <vector>

#include "reports/front_svgs.hpp"
#include "reports/report_model.hpp"

namespace flowtune::reports {

/// "flow_<measurement id>_<kind>.png": the file of picture `im` of measurement mc in the
/// report folder.
std::string item_image_name(const db::MeasuredConfig& mc, const db::ItemImage& im);

/// The PNG files (item_image_name) of the pictures of every config on model.fronts, each once.
std::vector<ReportFile> item_image_files(const ReportModel& model);

/// What a picture kind shows, for captions and alt texts: "flow", "ground truth",
/// "endpoint error", "reference flow" (footage without ground truth); other kinds as stored.
std::string item_image_title(const std::string& kind);

/// One line saying how to read the pictures of `images`: the colour wheel (hue = direction,
/// saturation = magnitude, saturated at the flows' scale), the error picture's grey ramp
/// (black 0 px, white at its scale) and the colour of pixels without ground truth.
std::string item_images_legend(const std::vector<db::ItemImage>& images);

}  // namespace flowtune::reports
