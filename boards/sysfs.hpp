// Small sysfs helpers shared by the sensors and clock control, with the test root prefix.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace flowtune {
namespace sysfs {

/// The prefix put in front of every /sys path a board profile names: the value of the
/// environment variable FLOWTUNE_SYSFS_ROOT (tests point it at a fake tree in a temp
/// dir), "" (the real /sys) when unset. Functions that take an explicit root use it instead.
std::string default_root();

/// root + profile_path after checking that profile_path is absolute, lies under /sys/ and
/// has no "." or ".." component. Throws std::runtime_error("refusing path ...") otherwise:
/// flowtune writes only to /sys paths a board profile names.
std::string checked_path(const std::string& profile_path, const std::string& root);

/// The paths matching a glob pattern (POSIX glob, sorted); empty when none match.
std::vector<std::string> expand(const std::string& pattern);

/// The whole content of a small file; nullopt when it cannot be opened or read.
std::optional<std::string> read_text(const std::string& path);

/// The single integer a sysfs attribute holds (surrounding white space allowed); nullopt
/// when the file is missing, empty or holds anything else (garbage content).
std::optional<std::int64_t> read_int(const std::string& path);

/// The integers of a space-separated list attribute (e.g. devfreq available_frequencies);
/// nullopt when missing or when any token is not an integer.
std::optional<std::vector<std::int64_t>> read_int_list(const std::string& path);

/// Writes text to an existing attribute; throws std::runtime_error naming the path and the
/// errno text on failure.
void write_text(const std::string& path, const std::string& text);

}  // namespace sysfs
}  // namespace flowtune
