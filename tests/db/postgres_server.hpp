// A throw-away PostgreSQL server for tests: initdb in a temporary folder, started by pg_ctl
// on a free loopback port, stopped (immediate) and removed by the destructor. Uses Debian's
// server binaries (/usr/lib/postgresql/<version>/bin, package postgresql); as root it runs
// them as the user postgres (initdb refuses root). When no server can be had, available()
// is false and why_not() says why (the tests then skip).
#pragma once

#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace flowtune::test {

class PostgresServer {
 public:
  explicit PostgresServer(const std::filesystem::path& dir) : dir_(dir) {
    namespace fs = std::filesystem;
    for (const char* version : {"15", "16", "17", "14", "13"}) {
      const fs::path bin = fs::path("/usr/lib/postgresql") / version / "bin";
      if (fs::exists(bin / "initdb") && fs::exists(bin / "pg_ctl")) {
        bin_ = bin;
        break;
      }
    }
    if (bin_.empty()) {
      why_not_ =
          "no PostgreSQL server binaries in /usr/lib/postgresql/*/bin (scripts/setup "
          "installs the Debian package postgresql)";
      return;
    }
    fs::create_directories(dir_);
    if (::geteuid() == 0) {
      const passwd* pw = ::getpwnam("postgres");
      if (!pw) {
        why_not_ = "running as root and there is no user postgres to run the server";
        return;
      }
      as_ = "runuser -u postgres -- ";
      if (::chown(dir_.c_str(), pw->pw_uid, pw->pw_gid) != 0) {
        why_not_ = "cannot give " + dir_.string() + " to the user postgres";
        return;
      }
    }
    port_ = free_port();
    const std::string data = (dir_ / "data").string();
    if (!sh(as_ + (bin_ / "initdb").string() + " -D " + data +
            " -A trust -U flowtune --no-sync -E UTF8 > " + (dir_ / "initdb.log").string() +
            " 2>&1")) {
      why_not_ = "initdb failed (see " + (dir_ / "initdb.log").string() + ")";
      return;
    }
    if (!start()) {
      why_not_ = "pg_ctl start failed (see " + (dir_ / "server.log").string() + ")";
      return;
    }
  }
  ~PostgresServer() {
    if (started_) stop_immediately();
  }

  /// Starts the server (again) on its port; true once it accepts connections.
  bool start() {
    started_ = sh(as_ + (bin_ / "pg_ctl").string() + " -D " + (dir_ / "data").string() +
                  " -o \"-p " + std::to_string(port_) + " -k " + dir_.string() +
                  " -c listen_addresses=127.0.0.1 -F\" -l " + (dir_ / "server.log").string() +
                  " -w start > /dev/null");
    return started_;
  }
  /// `pg_ctl stop -m immediate`: every server process quits at once, without a clean
  /// shutdown (as a crash; the next start recovers from the WAL).
  void stop_immediately() {
    sh(as_ + (bin_ / "pg_ctl").string() + " -D " + (dir_ / "data").string() +
       " -m immediate -w stop > /dev/null 2>&1");
    started_ = false;
  }
  PostgresServer(const PostgresServer&) = delete;
  PostgresServer& operator=(const PostgresServer&) = delete;

  bool available() const { return started_; }
  const std::string& why_not() const { return why_not_; }
  int port() const { return port_; }

  /// Creates database name; returns its URL, postgresql://flowtune@127.0.0.1:PORT/name.
  std::string create_database(const std::string& name) const {
    sh((bin_ / "createdb").string() + " -h 127.0.0.1 -p " + std::to_string(port_) +
       " -U flowtune " + name);
    return "postgresql://flowtune@127.0.0.1:" + std::to_string(port_) + "/" + name;
  }

 private:
  static bool sh(const std::string& command) { return std::system(command.c_str()) == 0; }
  // A loopback port free now (the kernel's choice for port 0).
  static int free_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
      port = ntohs(a.sin_port);
    ::close(fd);
    return port;
  }

  std::filesystem::path dir_, bin_;
  std::string as_, why_not_;
  int port_ = 0;
  bool started_ = false;
};

}  // namespace flowtune::test
