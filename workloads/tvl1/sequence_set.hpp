// Frame pairs as a workload input set, shared by every optical-flow workload (tvl1, bm, lk,
// features): one item per pair, work = pixels per frame.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "workloads/tvl1/flow_dataset.hpp"
#include "workloads/tvl1/sequences.hpp"
#include "workloads/workload.hpp"

namespace flowtune {

/// Frame pairs as an InputSet; key() is dataset_key (e.g. "middlebury:Grove2,RubberWhale") or
/// the FlowDataset's key.
class SequenceSet final : public InputSet {
 public:
  explicit SequenceSet(std::vector<Sequence> sequences)
      : key_(dataset_key(sequences)), sequences_(std::move(sequences)) {}
  explicit SequenceSet(FlowDataset dataset)
      : key_(std::move(dataset.key)),
        description_(std::move(dataset.description)),
        sequences_(std::move(dataset.sequences)) {}
  std::string key() const override { return key_; }
  std::size_t size() const override { return sequences_.size(); }
  std::string item_name(std::size_t i) const override { return sequences_.at(i).name; }
  double item_work(std::size_t i) const override { return double(sequences_.at(i).pixels()); }
  bool has_ground_truth() const override {
    return !sequences_.empty() && sequences_.front().has_ground_truth();
  }
  std::string description() const override { return description_; }
  const Sequence& sequence(std::size_t i) const { return sequences_.at(i); }

 private:
  std::string key_, description_;
  std::vector<Sequence> sequences_;
};

}  // namespace flowtune
