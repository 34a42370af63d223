#include "boards/closest_key.hpp"

#include <algorithm>
#include <vector>

namespace flowtune {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::optional<std::string> closest_key(const std::string& key, const std::set<std::string>& known) {
  if (known.count(key)) return std::nullopt;
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (const std::string& k : known) {
    const std::size_t d = edit_distance(key, k);
    if (d > 2 || 2 * d > key.size()) continue;
    if (!best || d < best_distance) {
      best = k;
      best_distance = d;
    }
  }
  return best;
}

}  // namespace flowtune
