#include "tuner/tuned_header.hpp"

#include <fstream>
#include <stdexcept>

#include "db/repository.hpp"
#include "tuner/tune_run.hpp"

namespace flowtune {

Config read_tuned_header(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the tuned header");
  const std::string marker = "// flowtune-config: ";
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(marker, 0) != 0) continue;
    db::ConfigRow row;
    try {
      row = db::parse_config_json(line.substr(marker.size()));
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(path + ": malformed flowtune-config line (" + e.what() + ")");
    }
    return to_config(row);
  }
  throw std::runtime_error(path +
                           ": not a flowtune tuned header (no '// flowtune-config:' line; "
                           "export it again with this version of `tune export`)");
}

}  // namespace flowtune
