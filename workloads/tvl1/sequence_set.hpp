// The Middlebury sequences as a workload input set, shared by every optical-flow workload
// (tvl1, bm, lk, features): one item per sequence, work = pixels per frame.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "workloads/tvl1/sequences.hpp"
#include "workloads/workload.hpp"

namespace flowtune {

/// Sequences as an InputSet; key() is dataset_key (e.g. "middlebury:Grove2,RubberWhale").
class SequenceSet final : public InputSet {
 public:
  explicit SequenceSet(std::vector<Sequence> sequences) : sequences_(std::move(sequences)) {}
  std::string key() const override { return dataset_key(sequences_); }
  std::size_t size() const override { return sequences_.size(); }
  std::string item_name(std::size_t i) const override { return sequences_.at(i).name; }
  double item_work(std::size_t i) const override { return double(sequences_.at(i).pixels()); }
  const Sequence& sequence(std::size_t i) const { return sequences_.at(i); }

 private:
  std::vector<Sequence> sequences_;
};

}  // namespace flowtune
