// Pruned configs grouped by the rule or limit that pruned them, for `tune space` and the
// reports. A prune reason (tuner/constraints.cpp) is "<label>: <why>", and <why> embeds the
// config's own figures ("needs 108 KiB shared memory > 99 KiB per block on nano"), so the
// reason text alone groups nothing; its class does.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace flowtune {

/// The class of a prune reason: without the "<label>: " prefix, every number that is not part
/// of a name (sm_75, tile_x stay) written "N", and " (N bytes)" dropped, e.g. "needs N KiB
/// shared memory > N KiB per block on nano". Reasons of one rule or limit share their class.
std::string prune_reason_class(const std::string& label, const std::string& reason);

/// Natural order: digit runs compare as numbers ("49.5 KiB" < "108 KiB"), the rest as text.
bool natural_less(const std::string& a, const std::string& b);

/// One class of prune reasons: how many configs, and their reasons (without the label
/// prefix), distinct and in natural order.
struct PruneClass {
  std::string name;
  std::size_t configs = 0;
  std::vector<std::string> reasons;
};

/// The classes of (label, reason) pairs, most configs first, then by name.
std::vector<PruneClass> group_prune_reasons(
    const std::vector<std::pair<std::string, std::string>>& label_reasons);

/// "108 KiB ... 49.5 KiB" style summary of a class: its reasons when at most `max_shown`,
/// else the first and the last (natural order) joined by " ... " with the count of distinct.
std::string prune_class_examples(const PruneClass& c, std::size_t max_shown = 3);

/// The pruned kernel configs of `tune space` and `tune predict`, one line per class ("  N  name")
/// with its examples below where the class has figures (N) or several reasons; "" when none.
std::string pruned_kernel_configs_text(const std::vector<PruneClass>& classes);

}  // namespace flowtune
