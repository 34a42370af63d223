// Several frame pairs in flight through several solvers (see frame_throughput.hpp).
#include "variants/frame_throughput.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace flowtune {

ThroughputResult measure_throughput(const std::vector<std::unique_ptr<FlowSolver>>& solvers,
                                    const std::vector<std::pair<Image, Image>>& pairs, int frames,
                                    const std::function<void(int, const FlowField&)>& on_flow) {
  if (solvers.empty()) throw std::invalid_argument("measure_throughput: no solvers");
  if (pairs.empty()) throw std::invalid_argument("measure_throughput: no frame pairs");
  if (frames < 1) throw std::invalid_argument("measure_throughput: frames must be >= 1");
  for (const auto& s : solvers)
    if (!s) throw std::invalid_argument("measure_throughput: null solver");
  for (const auto& s : solvers) s->compute(pairs[0].first, pairs[0].second);  // warm-up

  using clock = std::chrono::steady_clock;
  std::atomic<int> next{0};
  std::mutex lock;
  std::exception_ptr error;
  std::vector<double> latency_ms;
  ThroughputResult r;
  r.in_flight = int(solvers.size());
  r.frames_by_solver.assign(solvers.size(), 0);
  const auto start = clock::now();
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < solvers.size(); ++t)
    threads.emplace_back([&, t] {
      try {
        FlowField flow;  // one output per thread, reused (compute_into)
        for (int k = next++; k < frames; k = next++) {
          const auto& [i0, i1] = pairs[std::size_t(k) % pairs.size()];
          const auto t0 = clock::now();
          solvers[t]->compute_into(i0, i1, flow);
          const double ms = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
          std::lock_guard<std::mutex> g(lock);
          latency_ms.push_back(ms);
          ++r.frames_by_solver[t];
          if (on_flow) on_flow(k, flow);
        }
      } catch (...) {
        std::lock_guard<std::mutex> g(lock);
        if (!error) error = std::current_exception();
        next = frames;  // the others stop at their next frame
      }
    });
  for (auto& th : threads) th.join();
  if (error) std::rethrow_exception(error);
  r.seconds = std::chrono::duration<double>(clock::now() - start).count();
  r.frames = int(latency_ms.size());
  r.frames_per_second = r.seconds > 0 ? r.frames / r.seconds : 0;
  std::sort(latency_ms.begin(), latency_ms.end());
  r.median_latency_ms = latency_ms[latency_ms.size() / 2];
  return r;
}

}  // namespace flowtune
