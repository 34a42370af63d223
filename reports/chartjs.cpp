// Finding, reading and inlining Chart.js.
#include "reports/chartjs.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "reports/html_assets.hpp"
#include "reports/text_format.hpp"

namespace flowtune::reports {

namespace {

// Chart.js's licence, from Debian's /usr/share/doc/libjs-chart.js/copyright (Expat = MIT).
constexpr const char* kChartJsNotice =
    R"(Chart.js (https://www.chartjs.org), from Debian's libjs-chart.js.
Copyright: 2014-2021, Chart.js Contributors
License: Expat (MIT)
 Permission is hereby granted, free of charge, to any person
 obtaining a copy of this software and associated documentation files
 (the "Software"), to deal in the Software without restriction,
 including without limitation the rights to use, copy, modify, merge,
 publish, distribute, sublicense, and/or sell copies of the Software,
 and to permit persons to whom the Software is furnished to do so,
 subject to the following conditions:
 .
 The above copyright notice and this permission notice shall be
 included in all copies or substantial portions of the Software.
 .
 THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND,
 EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
 MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
 NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS
 BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN
 ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN
 CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
 SOFTWARE.)";

bool readable_file(const std::string& path) {
  std::error_code ec;
  return !path.empty() && std::filesystem::is_regular_file(path, ec) && std::ifstream(path).good();
}

}  // namespace

std::string find_chartjs() {
  if (const char* env = std::getenv("FLOWTUNE_CHARTJS"))
    return readable_file(env) ? std::string(env) : std::string();
  if (readable_file(html::kChartJsPath)) return html::kChartJsPath;
  for (const char* name : {"chart.umd.min.js", "chart.umd.js", "chart.min.js", "Chart.min.js"}) {
    const std::string path = std::string("/usr/share/javascript/chart.js/") + name;
    if (readable_file(path)) return path;
  }
  return "";
}

std::string read_chartjs(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return in ? s.str() : std::string();
}

std::string chartjs_script(const std::string& source) {
  return "<script>\n/*\n" + std::string(kChartJsNotice) + "\n*/\n" +
         detail::replace_all_icase(source, "</script", "<\\/script") + "\n</script>\n";
}

}  // namespace flowtune::reports
