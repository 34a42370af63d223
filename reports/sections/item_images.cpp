// The pictures of a front's configs (the colour-coded flow of one item next to its ground
// truth and its endpoint error), in Markdown and in HTML.
#include "reports/item_images.hpp"

#include <sstream>

#include "db/base64.hpp"
#include "reports/sections/parts.hpp"
#include "reports/text_format.hpp"

namespace flowtune::reports::sections {

std::string item_images_md(const std::vector<db::MeasuredConfig>& front) {
  using detail::md_cell;
  const db::MeasuredConfig* first = nullptr;
  for (const auto& mc : front)
    if (!first && !mc.measurement.images.empty()) first = &mc;
  if (!first) return "";
  std::ostringstream s;
  s << "\n#### Flow of one item (the front's configs)\n\n"
    << item_images_legend(first->measurement.images)
    << "\n\n| label | item | pictures |\n|---|---|---|\n";
  for (const auto& mc : front) {
    if (mc.measurement.images.empty()) continue;
    s << "| " << md_cell(mc.config.label) << " | " << md_cell(mc.measurement.images.front().item)
      << " |";
    for (const db::ItemImage& im : mc.measurement.images)
      s << " ![" << item_image_title(im.kind) << "](" << item_image_name(mc, im) << ")";
    s << " |\n";
  }
  return s.str();
}

std::string item_images_html(const db::MeasuredConfig& mc) {
  using detail::xml_escape;
  const std::vector<db::ItemImage>& images = mc.measurement.images;
  if (images.empty()) return "";
  std::ostringstream s;
  s << "<figure class=\"item-images\">";
  std::string titles;
  for (const db::ItemImage& im : images) {
    const std::string title = item_image_title(im.kind);
    titles += (titles.empty() ? "" : " | ") + title;
    s << "<img class=\"item-image\" data-kind=\"" << xml_escape(im.kind) << "\" width=\""
      << im.width << "\" height=\"" << im.height << "\" alt=\"" << xml_escape(title)
      << "\" title=\"" << xml_escape(im.item + ": " + title) << "\" src=\"data:image/png;base64,"
      << db::base64_encode(im.png) << "\">";
  }
  s << "<figcaption>" << xml_escape(images.front().item + ": " + titles)
    << "</figcaption></figure>";
  return s.str();
}

}  // namespace flowtune::reports::sections
