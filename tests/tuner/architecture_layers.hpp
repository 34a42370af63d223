// The layers of ARCHITECTURE.md (its ```layering block) and the check of a link graph against
// them, shared by the include check (test_layering.cpp) and the link check
// (test_link_graph.cpp).
#pragma once

#include <filesystem>
#include <fstream>
#include <istream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace flowtune::test {

/// folder -> the folders it may include (itself excluded).
using Layers = std::map<std::string, std::set<std::string>>;

/// The ```layering block of an ARCHITECTURE.md text: one line `<folder>: <folder>...` per
/// top-level source folder. Empty when the text has no such block.
inline Layers parse_layers(std::istream& in) {
  Layers layers;
  bool in_block = false;
  for (std::string line; std::getline(in, line);) {
    if (line == "```layering") {
      in_block = true;
      continue;
    }
    if (in_block && line.rfind("```", 0) == 0) break;
    if (!in_block || line.empty()) continue;
    const auto colon = line.find(':');
    std::istringstream deps(line.substr(colon + 1));
    std::set<std::string>& allowed = layers[line.substr(0, colon)];
    for (std::string d; deps >> d;) allowed.insert(d);
  }
  return layers;
}

/// The layers of root/ARCHITECTURE.md (empty when the file or its block is absent).
inline Layers documented_layers(const std::filesystem::path& root) {
  std::ifstream in(root / "ARCHITECTURE.md");
  return parse_layers(in);
}

/// One library target of the build: the top-level folder that defines it ("-" for the root)
/// and the library targets it links or takes objects from.
struct LinkedLibrary {
  std::string folder;
  std::vector<std::string> links;
};

/// target name -> its folder and links.
using LinkGraph = std::map<std::string, LinkedLibrary>;

/// The link graph written at configure time by cmake/FlowtuneLinkGraph.cmake: one line
/// `<target> <folder> <dependency>...` per library target.
inline LinkGraph parse_link_graph(std::istream& in) {
  LinkGraph graph;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string target;
    LinkedLibrary library;
    if (!(words >> target >> library.folder)) continue;
    for (std::string d; words >> d;) library.links.push_back(d);
    graph[target] = library;
  }
  return graph;
}

/// Every link of `graph` from a library of a documented folder A to a library of another
/// documented folder B that A may not include, as "<target> (A/) links <dependency> (B/)".
/// Libraries of folders outside the layers (the root's flowtune_warnings, tests/) and links
/// to targets outside the graph (third-party libraries) are not checked. `checked` counts the
/// links between two documented folders.
inline std::vector<std::string> link_violations(const Layers& layers, const LinkGraph& graph,
                                                std::size_t* checked = nullptr) {
  std::vector<std::string> out;
  for (const auto& [target, library] : graph) {
    const auto allowed = layers.find(library.folder);
    if (allowed == layers.end()) continue;
    for (const std::string& dep : library.links) {
      const auto to = graph.find(dep);
      if (to == graph.end() || !layers.count(to->second.folder)) continue;
      if (checked) ++*checked;
      if (to->second.folder == library.folder || allowed->second.count(to->second.folder)) continue;
      out.push_back(target + " (" + library.folder + "/) links " + dep + " (" + to->second.folder +
                    "/)");
    }
  }
  return out;
}

}  // namespace flowtune::test
