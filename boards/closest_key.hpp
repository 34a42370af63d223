// "Did you mean": the known key nearest to a misspelled one, for the board files' errors.
#pragma once

#include <optional>
#include <set>
#include <string>

namespace flowtune {

/// The Levenshtein distance of a and b (insertions, deletions, substitutions; each costs 1).
std::size_t edit_distance(const std::string& a, const std::string& b);

/// The key of `known` nearest to `key` by edit_distance, when it is a plausible misspelling:
/// at most 2 edits and at most half of key's characters; ties go to the first in order;
/// nullopt when none qualifies (or key itself is known).
std::optional<std::string> closest_key(const std::string& key, const std::set<std::string>& known);

}  // namespace flowtune
