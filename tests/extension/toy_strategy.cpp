// A strategy added in its own file with no edit to any shared file (ARCHITECTURE.md, "How to
// add a strategy"): reverse_order proposes the points from the last to the first.
#include "tuner/strategy.hpp"

namespace flowtune {
namespace {

class ReverseOrder final : public Strategy {
 public:
  using Strategy::Strategy;
  std::string name() const override { return "reverse_order"; }

 protected:
  std::optional<std::size_t> propose() override {
    while (next_ > 0 && seen(next_ - 1)) --next_;
    if (next_ == 0) return std::nullopt;
    return --next_;
  }
  void observe(const Observation&) override {}

 private:
  std::size_t next_ = space_.size();
};

const bool kReverseOrder = register_strategy(
    "reverse_order", [](const SearchSpace& space, const StrategyOptions& options) {
      return std::unique_ptr<Strategy>(std::make_unique<ReverseOrder>(space, options));
    });

}  // namespace
}  // namespace flowtune
