// Prune reasons grouped by class; see select/prune_reasons.hpp.
#include "select/prune_reasons.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>

namespace flowtune {

namespace {

bool is_digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}
bool is_name_char(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}

std::string without_label(const std::string& label, const std::string& reason) {
  const std::string prefix = label + ": ";
  return !label.empty() && reason.rfind(prefix, 0) == 0 ? reason.substr(prefix.size()) : reason;
}

}  // namespace

std::string prune_reason_class(const std::string& label, const std::string& reason) {
  const std::string text = without_label(label, reason);
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const bool number_start = is_digit(text[i]) && (i == 0 || !is_name_char(text[i - 1])) &&
                              (i == 0 || !is_digit(text[i - 1]));
    if (!number_start) {
      out += text[i++];
      continue;
    }
    while (i < text.size() &&
           (is_digit(text[i]) || (text[i] == '.' && i + 1 < text.size() && is_digit(text[i + 1]))))
      ++i;
    out += 'N';
  }
  for (std::size_t at; (at = out.find(" (N bytes)")) != std::string::npos;) out.erase(at, 10);
  return out;
}

bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (is_digit(a[i]) && is_digit(b[j])) {
      char* end_a = nullptr;
      char* end_b = nullptr;
      const double x = std::strtod(a.c_str() + i, &end_a);
      const double y = std::strtod(b.c_str() + j, &end_b);
      if (x != y) return x < y;
      i = static_cast<std::size_t>(end_a - a.c_str());
      j = static_cast<std::size_t>(end_b - b.c_str());
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

std::vector<PruneClass> group_prune_reasons(
    const std::vector<std::pair<std::string, std::string>>& label_reasons) {
  std::map<std::string, PruneClass> by_class;
  std::map<std::string, std::set<std::string>> reasons;
  for (const auto& [label, reason] : label_reasons) {
    const std::string name = prune_reason_class(label, reason);
    PruneClass& c = by_class[name];
    c.name = name;
    ++c.configs;
    reasons[name].insert(without_label(label, reason));
  }
  std::vector<PruneClass> out;
  for (auto& [name, c] : by_class) {
    c.reasons.assign(reasons[name].begin(), reasons[name].end());
    std::sort(c.reasons.begin(), c.reasons.end(), natural_less);
    out.push_back(std::move(c));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const PruneClass& a, const PruneClass& b) { return a.configs > b.configs; });
  return out;
}

std::string prune_class_examples(const PruneClass& c, std::size_t max_shown) {
  std::string out;
  if (c.reasons.size() <= max_shown) {
    for (const std::string& r : c.reasons) out += (out.empty() ? "" : "; ") + r;
    return out;
  }
  return c.reasons.front() + " ... " + c.reasons.back() + " (" + std::to_string(c.reasons.size()) +
         " distinct)";
}

std::string pruned_kernel_configs_text(const std::vector<PruneClass>& classes) {
  if (classes.empty()) return "";
  std::string out = "pruned kernel configs, by reason (N stands for the config's figures):\n";
  for (const PruneClass& c : classes) {
    out += "  " + std::to_string(c.configs) + "  " + c.name + '\n';
    if (c.name.find('N') != std::string::npos || c.reasons.size() > 1)
      out += "      " + prune_class_examples(c) + '\n';
  }
  return out;
}

}  // namespace flowtune
