#include "select/text_file.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace flowtune {

std::string fixed_decimals(double value, int decimals) {
  if (std::isnan(value)) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

void write_text_file(const std::string& path, const std::string& text) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  if (ec) throw std::runtime_error(path + ": cannot create its folder (" + ec.message() + ")");
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    throw std::runtime_error(path + ": cannot open for writing (" + std::strerror(errno) + ")");
  }
  out << text;
  out.close();
  if (!out) throw std::runtime_error(path + ": cannot write (" + std::strerror(errno) + ")");
}

}  // namespace flowtune
