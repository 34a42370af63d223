// Frame pairs as a workload input set, shared by every optical-flow workload (tvl1, bm, lk,
// features): one item per pair, work = pixels per frame.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "workloads/tvl1/flow_dataset.hpp"
#include "workloads/tvl1/sequences.hpp"
#include "workloads/workload.hpp"

namespace flowtune {

/// One item's host output storage and its page locks, kept by a SequenceSet across the
/// runners that measure it (flow_runner.hpp): flow sized to the item, locks as FlowSolver::
/// page_lock returned them for (i0, i1, flow.u, flow.v), null where the solver locked nothing.
struct KeptItemOutput {
  FlowField flow;
  std::vector<std::shared_ptr<void>> locks;
};

/// Frame pairs as an InputSet; key() is dataset_key (e.g. "middlebury:Grove2,RubberWhale") or
/// the FlowDataset's key.
class SequenceSet final : public InputSet {
 public:
  explicit SequenceSet(std::vector<Sequence> sequences)
      : key_(dataset_key(sequences)),
        sequences_(std::move(sequences)),
        kept_(std::make_unique<Kept>(sequences_.size())) {}
  explicit SequenceSet(FlowDataset dataset)
      : key_(std::move(dataset.key)),
        description_(std::move(dataset.description)),
        sequences_(std::move(dataset.sequences)),
        kept_(std::make_unique<Kept>(sequences_.size())) {}
  std::string key() const override { return key_; }
  std::size_t size() const override { return sequences_.size(); }
  std::string item_name(std::size_t i) const override { return sequences_.at(i).name; }
  double item_work(std::size_t i) const override { return double(sequences_.at(i).pixels()); }
  bool has_ground_truth() const override {
    return !sequences_.empty() && sequences_.front().has_ground_truth();
  }
  std::string description() const override { return description_; }
  const Sequence& sequence(std::size_t i) const { return sequences_.at(i); }

  /// An output of item i kept by an earlier runner (most recently kept first), or a new empty
  /// one (no flow, no lock). Thread-safe; each output is handed to one runner at a time.
  /// Throws std::out_of_range for a bad item.
  std::unique_ptr<KeptItemOutput> take_output(std::size_t i) const;
  /// Keeps item i's output for the next runner: its storage and page locks then outlive the
  /// runner (no page locking, unlocking or allocation per measured point) and are released
  /// with this set. A null output is ignored. Thread-safe.
  void keep_output(std::size_t i, std::unique_ptr<KeptItemOutput> out) const;

 private:
  struct Kept {
    explicit Kept(std::size_t n) : items(n) {}
    std::mutex mutex;
    std::vector<std::vector<std::unique_ptr<KeptItemOutput>>> items;
  };
  std::string key_, description_;
  std::vector<Sequence> sequences_;
  std::unique_ptr<Kept> kept_;  ///< declared last: the locks go before the frames they pin
};

}  // namespace flowtune
