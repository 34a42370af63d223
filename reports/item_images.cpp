#include "reports/item_images.hpp"

#include <cctype>
#include <set>

#include "reports/text_format.hpp"

namespace flowtune::reports {

std::string item_image_name(const db::MeasuredConfig& mc, const db::ItemImage& im) {
  std::string kind;
  for (char c : im.kind) kind += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return "flow_" + std::to_string(mc.measurement_id) + "_" + kind + ".png";
}

std::vector<ReportFile> item_image_files(const ReportModel& model) {
  std::vector<ReportFile> out;
  std::set<std::string> seen;
  for (const DatasetFront& f : model.fronts)
    for (const db::MeasuredConfig& mc : f.front)
      for (const db::ItemImage& im : mc.measurement.images) {
        const std::string name = item_image_name(mc, im);
        if (seen.insert(name).second)
          out.push_back({name, std::string(im.png.begin(), im.png.end())});
      }
  return out;
}

std::string item_image_title(const std::string& kind) {
  if (kind == "ground_truth") return "ground truth";
  if (kind == "reference") return "reference flow";  // inputs without ground truth
  if (kind == "endpoint_error") return "endpoint error";
  return kind;
}

std::string item_images_legend(const std::vector<db::ItemImage>& images) {
  double flow_scale = 0, error_scale = 0;
  for (const db::ItemImage& im : images) {
    if (im.kind == "endpoint_error") {
      error_scale = im.scale;
    } else {
      flow_scale = im.scale;
    }
  }
  std::string s =
      "Flow colours: the Middlebury colour wheel (Baker et al. 2011, fig. 2): hue = direction, "
      "saturation = magnitude";
  if (flow_scale > 0)
    s += ", saturated at " + detail::fixed(flow_scale, 2) + " px (the ground truth's largest)";
  s += "; black: no ground truth.";
  if (error_scale > 0)
    s += " Endpoint error: black 0 px, white >= " + detail::fixed(error_scale, 2) +
         " px; dark blue: no ground truth.";
  return s;
}

}  // namespace flowtune::reports
