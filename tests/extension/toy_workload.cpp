// A workload added in its own file with no edit to any shared file (ARCHITECTURE.md, "How to
// add a workload"): "toy" approximates 3 by an integer parameter x; its metric is the squared
// error (x - 3)^2, which a test checks against the hand-computed value. One CPU variant with
// a tunable that changes only how the work is done (unroll).
#include <chrono>
#include <thread>

#include "workloads/workload.hpp"

namespace flowtune {
namespace {

class OneItem final : public InputSet {
 public:
  std::string key() const override { return "toy:one"; }
  std::size_t size() const override { return 1; }
  std::string item_name(std::size_t) const override { return "one"; }
  double item_work(std::size_t) const override { return 1; }
};

class ToyRunner final : public Runner {
 public:
  explicit ToyRunner(double x) : x_(x) {}
  void run(std::size_t) override { std::this_thread::sleep_for(std::chrono::microseconds(50)); }
  std::map<std::string, double> score(std::size_t) override {
    return {{"sq_error", (x_ - 3) * (x_ - 3)}};
  }

 private:
  double x_;
};

class ToyVariant final : public Variant {
 public:
  std::string name() const override { return "toy_cpu"; }
  std::string workload() const override { return "toy"; }
  std::string target() const override { return "cpu"; }
  std::vector<std::string> precisions() const override { return {"f32"}; }
  std::vector<TunableDomain> tunables() const override { return {{"unroll", {1, 2}}}; }
};

class ToyWorkload final : public Workload {
 public:
  std::string name() const override { return "toy"; }
  std::string description() const override { return "test-only: approximate 3 by x"; }
  std::string work_unit() const override { return "run"; }
  const std::vector<ParamSpec>& params() const override {
    static const std::vector<ParamSpec> p = {
        {"x", ParamSpec::Type::integer, "", 1, 0, 10, false, false, "the guess", "none"}};
    return p;
  }
  const std::vector<MetricSpec>& metrics() const override {
    static const std::vector<MetricSpec> m = {{"sq_error", "", true, "(x - 3)^2"}};
    return m;
  }
  std::vector<std::string> front_objectives() const override { return {"time_ms", "sq_error"}; }
  std::vector<const Variant*> variants() const override {
    static const ToyVariant v;
    return {&v};
  }
  ParamDimensions default_dimensions(const std::string&) const override {
    return {{"x", {1, 2, 3, 4}}};
  }
  std::unique_ptr<InputSet> load_inputs(const InputOptions&) const override {
    return std::make_unique<OneItem>();
  }
  std::unique_ptr<Runner> make_runner(const Config& config, const InputSet&) const override {
    return std::make_unique<ToyRunner>(config.param("x"));
  }
};

const ToyWorkload kWorkload;
const bool kToyRegistered = register_workload(kWorkload);

}  // namespace
}  // namespace flowtune
