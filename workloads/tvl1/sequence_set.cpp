// The outputs a SequenceSet keeps across runners (see sequence_set.hpp).
#include "workloads/tvl1/sequence_set.hpp"

namespace flowtune {

std::unique_ptr<KeptItemOutput> SequenceSet::take_output(std::size_t i) const {
  std::lock_guard<std::mutex> lock(kept_->mutex);
  auto& outputs = kept_->items.at(i);
  if (outputs.empty()) return std::make_unique<KeptItemOutput>();
  std::unique_ptr<KeptItemOutput> out = std::move(outputs.back());
  outputs.pop_back();
  return out;
}

void SequenceSet::keep_output(std::size_t i, std::unique_ptr<KeptItemOutput> out) const {
  if (!out) return;
  std::lock_guard<std::mutex> lock(kept_->mutex);
  kept_->items.at(i).push_back(std::move(out));
}

}  // namespace flowtune
