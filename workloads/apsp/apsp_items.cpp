#include "workloads/apsp/apsp_items.hpp"

#include <regex>
#include <stdexcept>

#include "kernels/apsp/mesh.hpp"
#include "kernels/apsp/random_graph.hpp"

namespace flowtune::apsp {
namespace {

[[noreturn]] void bad_item(const std::string& item, const std::string& why) {
  throw std::runtime_error("apsp: bad item '" + item + "': " + why +
                           " (want icosphere:K with K in [0, 5], torus:MxN with M, N >= 3, "
                           "or random:N, N <= " +
                           std::to_string(kMaxItemNodes) + " nodes)");
}

int parse_int(const std::string& item, const std::string& text) {
  if (text.size() > 6) bad_item(item, "number " + text + " too large");
  return std::stoi(text);
}

}  // namespace

Graph make_item_graph(const std::string& item) {
  static const std::regex icosphere_re(R"(icosphere:(\d+))");
  static const std::regex torus_re(R"(torus:(\d+)x(\d+))");
  static const std::regex random_re(R"(random:(\d+))");
  std::smatch m;
  if (std::regex_match(item, m, icosphere_re)) {
    const int k = parse_int(item, m[1].str());
    if (k > 5) bad_item(item, "more than 5 subdivisions");
    return dual_graph(icosphere(k), item);
  }
  if (std::regex_match(item, m, torus_re)) {
    const int rows = parse_int(item, m[1].str()), cols = parse_int(item, m[2].str());
    if (rows < 3 || cols < 3) bad_item(item, "grid smaller than 3x3");
    if (2LL * rows * cols > kMaxItemNodes) bad_item(item, "too many faces");
    return dual_graph(torus(rows, cols), item);
  }
  if (std::regex_match(item, m, random_re)) {
    const int n = parse_int(item, m[1].str());
    if (n < 1 || n > kMaxItemNodes) bad_item(item, "size out of range");
    return random_graph(n, kRandomItemSeed, RandomGraphOptions{}, item);
  }
  bad_item(item, "unknown form");
}

std::vector<std::string> default_items() {
  return {"icosphere:2", "torus:24x16", "random:512"};
}

}  // namespace flowtune::apsp
