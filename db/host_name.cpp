#include "db/host_name.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>

namespace flowtune::db {
namespace {

std::string& host_name_override() {
  static std::string name;
  return name;
}

}  // namespace

std::string host_name() {
  if (!host_name_override().empty()) return host_name_override();
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || !name[0]) return "unknown";
  return name;
}

void set_host_name(const std::string& name) {
  host_name_override() = name;
}

bool is_this_host(const std::string& stored) {
  const std::string h = host_name();
  return stored == h || stored.rfind(h + " (", 0) == 0;
}

bool process_alive(long long pid) {
  return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

}  // namespace flowtune::db
