// Shared by the fuzz harnesses: the readers under test take paths, so each harness writes its
// input to one per-process temporary file, rewritten in place for every input.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace flowtune::fuzz {

/// The directory <tmp>/flowtune_fuzz_<pid>/ (<tmp>: $TMPDIR, else /dev/shm, else /tmp) (created on
/// first use, removed at exit when empty) and a file `name` in it.
inline std::string temp_path(const std::string& name) {
  static const std::string dir = [] {
    // Memory-backed /dev/shm when there is one: rewriting a file on a disk-backed /tmp costs
    // milliseconds per input, on tmpfs microseconds.
    const char* tmp = std::getenv("TMPDIR");
    struct stat st {};
    const std::string base = tmp && *tmp                                           ? tmp
                             : ::stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm"
                                                                                   : "/tmp";
    std::string d = base + "/flowtune_fuzz_" + std::to_string(::getpid());
    if (::mkdir(d.c_str(), 0700) != 0 && errno != EEXIST) std::abort();
    return d;
  }();
  return dir + "/" + name;
}

/// Writes data to path (truncating it); aborts if that fails, which is not a finding.
inline void write_file(const std::string& path, const std::uint8_t* data, std::size_t size) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
  if (std::fclose(f) != 0) std::abort();
}

/// Removes the temp file and its directory at exit (registered by the first harness call).
inline void remove_at_exit(const std::string& path) {
  static std::string to_remove;
  if (!to_remove.empty()) return;
  to_remove = path;
  std::atexit([] {
    std::remove(to_remove.c_str());
    const std::size_t slash = to_remove.rfind('/');
    if (slash != std::string::npos) ::rmdir(to_remove.substr(0, slash).c_str());
  });
}

}  // namespace flowtune::fuzz
