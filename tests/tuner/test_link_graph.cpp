// The link graph of the build follows ARCHITECTURE.md's layering: a flowtune_* library of
// folder A links (or takes objects from) libraries of A itself or of folders A may include,
// nothing else. The graph is the one CMake configured (cmake/FlowtuneLinkGraph.cmake writes
// it into the build folder, FLOWTUNE_TEST_LINK_GRAPH); the checker is tested on hand-made
// graphs with a known answer.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "tests/tuner/architecture_layers.hpp"

namespace {

using flowtune::test::Layers;
using flowtune::test::link_violations;
using flowtune::test::LinkGraph;

LinkGraph graph_of(const std::string& text) {
  std::istringstream in(text);
  return flowtune::test::parse_link_graph(in);
}

// Three layers of ARCHITECTURE.md's kind: tuner may include db and select, reports may
// include db and select, select may include db.
Layers small_layers() {
  std::istringstream in(
      "intro\n```layering\ndb:\nselect: db\nreports: db select\n"
      "tuner: db select\n```\nafter: ignored\n");
  return flowtune::test::parse_layers(in);
}

TEST(LinkGraph, ParsesTheLayeringBlockOnly) {
  const Layers layers = small_layers();
  ASSERT_EQ(layers.size(), 4u);
  EXPECT_TRUE(layers.at("db").empty());
  EXPECT_EQ(layers.at("tuner"), (std::set<std::string>{"db", "select"}));
  EXPECT_FALSE(layers.count("after"));
}

TEST(LinkGraph, ADocumentedGraphHasNoViolation) {
  const LinkGraph graph = graph_of(
      "flowtune_db db SQLite::SQLite3\n"
      "flowtune_select select flowtune_db flowtune_warnings\n"
      "flowtune_reports reports flowtune_db flowtune_select\n"
      "flowtune_tuner tuner flowtune_select flowtune_search_core\n"
      "flowtune_search_core tuner\n"
      "flowtune_warnings -\n");
  std::size_t checked = 0;
  EXPECT_TRUE(link_violations(small_layers(), graph, &checked).empty());
  // select -> db, reports -> db and select, tuner -> select and its own search_core; the
  // root's flowtune_warnings and SQLite are outside the layers.
  EXPECT_EQ(checked, 5u);
}

TEST(LinkGraph, ALinkAgainstTheLayersIsReportedWithBothEnds) {
  // The tuner linking the reports, and the store linking the tuner (upwards).
  const LinkGraph graph = graph_of(
      "flowtune_db db flowtune_tuner\n"
      "flowtune_select select flowtune_db\n"
      "flowtune_reports reports flowtune_select\n"
      "flowtune_tuner tuner flowtune_select flowtune_reports\n");
  const auto violations = link_violations(small_layers(), graph);
  ASSERT_EQ(violations.size(), 2u);
  EXPECT_EQ(violations[0], "flowtune_db (db/) links flowtune_tuner (tuner/)");
  EXPECT_EQ(violations[1], "flowtune_tuner (tuner/) links flowtune_reports (reports/)");
}

TEST(LinkGraph, LibrariesLinkOnlyTheirDocumentedLayers) {
  const Layers layers = flowtune::test::documented_layers(FLOWTUNE_TEST_SOURCE_DIR);
  ASSERT_GE(layers.size(), 10u) << "no ```layering block in ARCHITECTURE.md";
  std::ifstream in(FLOWTUNE_TEST_LINK_GRAPH);
  ASSERT_TRUE(in) << FLOWTUNE_TEST_LINK_GRAPH << ": no link graph (configure the build)";
  const LinkGraph graph = flowtune::test::parse_link_graph(in);
  ASSERT_TRUE(graph.count("flowtune_tuner") && graph.count("flowtune_cli"))
      << FLOWTUNE_TEST_LINK_GRAPH << " lacks flowtune_tuner or flowtune_cli";
  EXPECT_EQ(graph.at("flowtune_tuner").folder, "tuner");
  std::size_t checked = 0;
  for (const std::string& v : link_violations(layers, graph, &checked))
    ADD_FAILURE() << v << ", which ARCHITECTURE.md's layering does not allow";
  EXPECT_GT(checked, 20u);  // the graph holds the libraries' links
}

}  // namespace
