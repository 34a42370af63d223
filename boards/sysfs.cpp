#include "boards/sysfs.hpp"

#include <fcntl.h>
#include <glob.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace flowtune {
namespace sysfs {

std::string default_root() {
  const char* env = std::getenv("FLOWTUNE_SYSFS_ROOT");
  return env ? std::string(env) : std::string();
}

std::string checked_path(const std::string& profile_path, const std::string& root) {
  auto refuse = [&](const std::string& why) {
    throw std::runtime_error("refusing path '" + profile_path + "': " + why +
                             " (flowtune only touches /sys paths named by a board profile)");
  };
  if (profile_path.rfind("/sys/", 0) != 0) refuse("not under /sys/");
  std::istringstream parts(profile_path);
  std::string part;
  while (std::getline(parts, part, '/'))
    if (part == "." || part == "..") refuse("contains a '" + part + "' component");
  return root + profile_path;
}

std::vector<std::string> expand(const std::string& pattern) {
  glob_t g{};
  std::vector<std::string> out;
  if (::glob(pattern.c_str(), 0, nullptr, &g) == 0)
    for (std::size_t i = 0; i < g.gl_pathc; ++i) out.emplace_back(g.gl_pathv[i]);
  ::globfree(&g);
  return out;
}

std::optional<std::string> read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream os;
  os << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return os.str();
}

namespace {
std::optional<std::int64_t> parse_int(const std::string& token) {
  if (token.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(token.c_str(), &end, 10);
  if (errno != 0 || end != token.c_str() + token.size()) return std::nullopt;
  return static_cast<std::int64_t>(v);
}
}  // namespace

std::optional<std::int64_t> read_int(const std::string& path) {
  auto text = read_text(path);
  if (!text) return std::nullopt;
  std::istringstream is(*text);
  std::string token, extra;
  if (!(is >> token) || (is >> extra)) return std::nullopt;
  return parse_int(token);
}

std::optional<std::vector<std::int64_t>> read_int_list(const std::string& path) {
  auto text = read_text(path);
  if (!text) return std::nullopt;
  std::istringstream is(*text);
  std::vector<std::int64_t> out;
  std::string token;
  while (is >> token) {
    auto v = parse_int(token);
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  if (out.empty()) return std::nullopt;
  return out;
}

void write_text(const std::string& path, const std::string& text) {
  // O_TRUNC without O_CREAT: replaces the content of an existing attribute (sysfs ignores
  // the truncation; a fake tree in a test gets the whole new value) and never creates one.
  int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0)
    throw std::runtime_error("cannot open " + path + " for writing: " + std::strerror(errno));
  ssize_t n = ::write(fd, text.data(), text.size());
  int err = errno;
  bool ok = n == static_cast<ssize_t>(text.size());
  if (::close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (!ok)
    throw std::runtime_error("cannot write '" + text + "' to " + path + ": " + std::strerror(err));
}

}  // namespace sysfs
}  // namespace flowtune
