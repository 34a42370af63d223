#include "tuner/tuned_header.hpp"

#include <fstream>
#include <stdexcept>

#include "db/repository.hpp"
#include "tuner/tune_run.hpp"

namespace flowtune {

Config read_tuned_header(const std::string& path, const std::string& board) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the tuned header");
  const std::string marker = "// flowtune-config: ";
  const std::string board_marker = "// flowtune-config[" + board + "]: ";
  std::string boards;  // of a multi-board header
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("// flowtune-config[", 0) == 0) {
      const auto end = line.find("]: ");
      if (end != std::string::npos)
        boards += (boards.empty() ? "" : ", ") + line.substr(19, end - 19);
      if (board.empty() || line.rfind(board_marker, 0) != 0) continue;
      line = marker + line.substr(board_marker.size());
    }
    if (line.rfind(marker, 0) != 0) continue;
    db::ConfigRow row;
    try {
      row = db::parse_config_json(line.substr(marker.size()));
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(path + ": malformed flowtune-config line (" + e.what() + ")");
    }
    return to_config(row);
  }
  if (!boards.empty())
    throw std::runtime_error(
        path + ": a header of several boards (" + boards + "); " +
        (board.empty() ? "choose one with --board" : "it has no board '" + board + "'"));
  throw std::runtime_error(path +
                           ": not a flowtune tuned header (no '// flowtune-config:' line; "
                           "export it again with this version of `tune export`)");
}

}  // namespace flowtune
