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
/// has no "." or ".." component, nor a component that as a glob pattern can match "." or
/// ".." (e.g. ".*"). Throws std::runtime_error("refusing path ...") otherwise: flowtune
/// touches only /sys paths a board profile names. The check is textual; symbolic links are
/// the business of resolved_path and expand_checked.
std::string checked_path(const std::string& profile_path, const std::string& root);

/// The canonical sysfs directory of root: root + "/sys" made absolute with its symbolic
/// links resolved (std::filesystem::weakly_canonical), e.g. "/sys" for root "" or
/// "/tmp/flowtune-sysfs-ab12cd/sys" for a test's fake tree.
std::string canonical_sys(const std::string& root);

/// The canonical form of checked_path(profile_path, root): symbolic links of its existing
/// leading part resolved (std::filesystem::weakly_canonical; a missing tail, e.g. the
/// devfreq dir of a board that is not this machine, is kept as written), required to be
/// canonical_sys(root) or under it and to contain no dangling symbolic link. Throws
/// std::runtime_error("refusing path '<profile_path>': resolves to '<resolved>', outside
/// <canonical_sys>") when a link leads out of the sysfs root, and the checked_path errors.
std::string resolved_path(const std::string& profile_path, const std::string& root);

/// The paths matching a glob pattern (POSIX glob, sorted); empty when none match.
/// Matches are not checked: see expand_checked for patterns from a board profile.
std::vector<std::string> expand(const std::string& pattern);

/// The glob matches of root + profile_pattern (checked_path first), each canonicalised
/// (symbolic links resolved, std::filesystem::canonical) and required to lie under
/// canonical_sys(root): the resolved paths, in the order of the sorted matches, duplicates
/// dropped; empty when nothing matches. Throws std::runtime_error("refusing path
/// '<profile_pattern>': match '<match>' resolves to '<resolved>', outside <canonical_sys>")
/// for a match that escapes (e.g. through a symbolic link), or the checked_path errors.
std::vector<std::string> expand_checked(const std::string& profile_pattern,
                                        const std::string& root);

/// The whole content of a small file; nullopt when it cannot be opened or read.
std::optional<std::string> read_text(const std::string& path);

/// The single integer a sysfs attribute holds (surrounding white space allowed); nullopt
/// when the file is missing, empty or holds anything else (garbage content).
std::optional<std::int64_t> read_int(const std::string& path);

/// The integers of a space-separated list attribute (e.g. devfreq available_frequencies);
/// nullopt when missing or when any token is not an integer.
std::optional<std::vector<std::int64_t>> read_int_list(const std::string& path);

/// Writes text to an existing attribute (open(2) with O_WRONLY | O_TRUNC | O_NOFOLLOW, no
/// O_CREAT, then write(2)): a path whose last component is a symbolic link is refused, so
/// that a link planted in a sysfs tree cannot redirect the write (resolve the directory
/// with resolved_path first for the other components). Throws std::runtime_error naming
/// the path and the errno text on failure ("refusing to write ...: it is a symbolic link"
/// for ELOOP).
void write_text(const std::string& path, const std::string& text);

}  // namespace sysfs
}  // namespace flowtune
