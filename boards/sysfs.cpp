#include "boards/sysfs.hpp"

#include <fcntl.h>
#include <fnmatch.h>
#include <glob.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
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
  while (std::getline(parts, part, '/')) {
    if (part == "." || part == "..") refuse("contains a '" + part + "' component");
    // glob(3) matches a leading period only explicitly (FNM_PERIOD), so ".*" reaches ".."
    // while "?." and "[.]." do not.
    if (!part.empty() && (::fnmatch(part.c_str(), ".", FNM_PERIOD) == 0 ||
                          ::fnmatch(part.c_str(), "..", FNM_PERIOD) == 0))
      refuse("component '" + part + "' can match '.' or '..'");
  }
  return root + profile_path;
}

namespace {

namespace fs = std::filesystem;

/// p without trailing '/' (weakly_canonical keeps the one of a missing tail).
std::string strip_slashes(std::string p) {
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

/// weakly_canonical(absolute(p)); throws std::runtime_error naming what when it fails.
std::string canonical_of(const std::string& p, const std::string& what) {
  std::error_code ec;
  fs::path abs = fs::absolute(p, ec);
  fs::path out;
  if (!ec) out = fs::weakly_canonical(abs, ec);
  if (ec)
    throw std::runtime_error("refusing path '" + what + "': cannot resolve " + p + ": " +
                             ec.message());
  return strip_slashes(out.string());
}

bool under(const std::string& path, const std::string& dir) {
  return path == dir || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
                         (dir == "/" || path[dir.size()] == '/'));
}

}  // namespace

std::string canonical_sys(const std::string& root) {
  return canonical_of(root + "/sys", root + "/sys");
}

std::string resolved_path(const std::string& profile_path, const std::string& root) {
  std::string textual = checked_path(profile_path, root);
  std::string sys = canonical_sys(root);
  std::string resolved = canonical_of(textual, profile_path);
  if (!under(resolved, sys))
    throw std::runtime_error("refusing path '" + profile_path + "': resolves to '" + resolved +
                             "', outside " + sys +
                             " (flowtune only touches /sys paths named by a board profile)");
  // weakly_canonical resolves every link of the existing part, so a link left in the
  // result dangles: refuse it, its target could appear later outside the root.
  for (fs::path p = resolved; under(p.string(), sys) && p.string() != sys; p = p.parent_path()) {
    std::error_code ec;
    if (fs::is_symlink(fs::symlink_status(p, ec)))
      throw std::runtime_error("refusing path '" + profile_path + "': " + p.string() +
                               " is a dangling symbolic link");
  }
  return resolved;
}

std::vector<std::string> expand(const std::string& pattern) {
  glob_t g{};
  std::vector<std::string> out;
  if (::glob(pattern.c_str(), 0, nullptr, &g) == 0)
    for (std::size_t i = 0; i < g.gl_pathc; ++i) out.emplace_back(g.gl_pathv[i]);
  ::globfree(&g);
  return out;
}

std::vector<std::string> expand_checked(const std::string& profile_pattern,
                                        const std::string& root) {
  std::string sys = canonical_sys(root);
  std::vector<std::string> out;
  for (const auto& match : expand(checked_path(profile_pattern, root))) {
    std::error_code ec;
    fs::path resolved = fs::canonical(match, ec);  // a match exists (or is a dangling link)
    if (ec)
      throw std::runtime_error("refusing path '" + profile_pattern + "': cannot resolve match '" +
                               match + "': " + ec.message());
    std::string r = resolved.string();
    if (!under(r, sys))
      throw std::runtime_error("refusing path '" + profile_pattern + "': match '" + match +
                               "' resolves to '" + r + "', outside " + sys +
                               " (flowtune only touches /sys paths named by a board profile)");
    bool seen = false;
    for (const auto& o : out) seen = seen || o == r;
    if (!seen) out.push_back(r);
  }
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
  // O_NOFOLLOW: a symbolic link as the last component fails with ELOOP instead of
  // redirecting the write (sysfs attributes are regular files, never links).
  int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    int err = errno;
    if (err == ELOOP)
      throw std::runtime_error("refusing to write " + path +
                               ": it is a symbolic link (flowtune writes only to attributes "
                               "under the sysfs root, never through links)");
    throw std::runtime_error("cannot open " + path + " for writing: " + std::strerror(err));
  }
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
