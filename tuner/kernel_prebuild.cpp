// The prebuilt kernel cache's builds (see kernel_prebuild.hpp).
#include "tuner/kernel_prebuild.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "boards/board.hpp"
#include "tuner/constraints.hpp"
#include "tuner/tune_session.hpp"
#include "workloads/workload.hpp"

namespace flowtune {
static_assert(kPrebuildStartPoints == kPrefetchPoints, "a prebuild takes the run's own start");
namespace {

// The dimension along which neighbour q of p differs (they differ in exactly one), or -1.
int differing_dimension(const SearchSpace& space, std::size_t p, std::size_t q) {
  const std::vector<int> a = space.coords(p), b = space.coords(q);
  for (std::size_t d = 0; d < a.size(); ++d)
    if (a[d] != b[d]) return int(d);
  return -1;
}

}  // namespace

PrebuildScope parse_prebuild_scope(const std::string& text) {
  if (text == "start") return PrebuildScope::start;
  if (text == "space") return PrebuildScope::space;
  throw std::invalid_argument("--prebuild-scope: start or space, got '" + text + "'");
}

std::string prebuilt_kernel_folder(const std::string& arch, const std::string& compiler_version) {
  return arch + "-nvrtc" + compiler_version;
}

KernelPrebuild prebuild_kernels(const TuneOptions& options, const std::string& root,
                                PrebuildScope scope, std::size_t start_points, unsigned threads,
                                std::ostream& log) {
  KernelPrebuild out;
  out.scope = scope;
  const Board board = load_board(options.board);
  if (board.target != "cuda")
    throw std::invalid_argument("--prebuild-kernels: board " + board.name +
                                " runs no GPU kernels (target " + board.target +
                                "): nothing to prebuild");
  out.arch = board.arch();
  for (const Variant* v : find_workload(options.space.workload).variants())
    if (out.compiler_version.empty()) out.compiler_version = v->compiler_version();
  if (out.compiler_version.empty())
    throw std::invalid_argument("--prebuild-kernels: no variant of workload " +
                                options.space.workload +
                                " builds kernels at run time: nothing to prebuild");
  out.folder =
      (std::filesystem::path(root) / prebuilt_kernel_folder(out.arch, out.compiler_version))
          .string();
  std::error_code ec;
  std::filesystem::create_directories(out.folder, ec);
  if (ec)
    throw std::runtime_error("--prebuild-kernels: cannot make " + out.folder + ": " + ec.message());
  // The scratch store of the session, and the cache folders, for this call only.
  const std::filesystem::path scratch =
      std::filesystem::temp_directory_path() / ("flowtune-prebuild-" + std::to_string(::getpid()));
  std::filesystem::create_directories(scratch, ec);
  struct Restore {
    std::filesystem::path scratch;
    ~Restore() {
      set_kernel_cache_folders(std::nullopt);
      std::error_code e;
      std::filesystem::remove_all(scratch, e);
    }
  } restore{scratch};
  set_kernel_cache_folders(KernelCacheFolders{out.folder, {}});
  TuneOptions session_options = options;
  session_options.db_path = (scratch / "prebuild.db").string();
  session_options.workers = 0;  // nothing is measured here: no GPU check
  // Counted from before the session: its build threads start on the run's first points.
  const KernelBuildCounts before = kernel_build_counters().get();
  const std::unique_ptr<TuneSession> s = open_session(session_options, log);
  out.board = s->board.name;

  // The kernel sets to build, one point each.
  std::vector<std::size_t> points;
  std::map<std::string, std::size_t> sets;  // label -> index into points
  const auto add = [&](std::size_t p) {
    if (sets.emplace(s->space[p].label(), points.size()).second) points.push_back(p);
  };
  const SearchSpace& space = *s->search_space;
  out.space_sets = space.kernel_sets();
  if (scope == PrebuildScope::space) {
    // Every kernel set of the space (SearchSpace::kernel_sets, one point each: a space of 10^9
    // points has thousands of kernel sets) that the variant's rules allow: the others are
    // never built on the board.
    for (std::size_t k = 0; k < out.space_sets; ++k) {
      const std::size_t p = space.kernel_set_member(k, 0);
      if (kernel_rules_allow(*s->workload, s->space[p])) add(p);
    }
    log << "prebuild for " << out.board << " (" << out.arch << "): " << points.size()
        << " kernel sets, every one of the space's " << out.space_sets
        << " that the variants' rules allow\n";
  } else {
    // The start's kernel sets, then their one-tunable-step neighbours.
    const std::vector<std::size_t> start = s->strategy->upcoming(start_points);
    out.start_points = start.size();
    for (std::size_t p : start) add(p);
    out.start_sets = points.size();
    for (std::size_t k = 0; k < out.start_sets; ++k) {
      const std::size_t p = points[k];
      for (std::size_t q : space.neighbours(p)) {
        const int d = differing_dimension(space, p, q);
        // Only kernel sets the variant's rules allow: the others are never built on the board.
        if (d >= 0 && space.dimensions()[std::size_t(d)].kind == DimensionKind::tunable &&
            kernel_rules_allow(*s->workload, s->space[q]))
          add(q);
      }
    }
    log << "prebuild for " << out.board << " (" << out.arch << "): " << points.size()
        << " kernel sets, " << out.start_sets << " of the strategy's first " << out.start_points
        << " points and " << points.size() - out.start_sets << " one tunable step from them\n";
  }

  // Builds on `threads` threads; each kernel set's outcome in its slot.
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::string> failure(points.size());
  std::vector<char> ok(points.size(), 0);
  std::atomic<std::size_t> next{0}, done{0};
  std::mutex log_mutex;
  const std::size_t every = std::max<std::size_t>(1, points.size() / 10);
  const auto work = [&] {
    for (std::size_t i = next++; i < points.size(); i = next++) {
      const Config c = s->space[points[i]];
      try {
        const Variant* v = find_workload_variant(*s->workload, c.variant);
        if (!v) throw std::invalid_argument("no variant '" + c.variant + "'");
        v->build_kernels(c, out.arch);
        ok[i] = 1;
      } catch (const std::exception& e) {
        failure[i] = e.what();
      }
      const std::size_t n = ++done;
      if (n % every == 0 || n == points.size()) {
        const double t =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::lock_guard<std::mutex> lock(log_mutex);
        log << "prebuild: " << n << "/" << points.size() << " kernel sets ("
            << 100 * n / points.size() << "%), " << std::fixed;
        log.precision(1);
        log << t << " s, ETA " << t / double(n) * double(points.size() - n) << " s\n";
        log.unsetf(std::ios::floatfield);
        log.precision(6);
      }
    }
  };
  const unsigned n_threads = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < n_threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  out.builds = kernel_build_counters().get() - before;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::string label = s->space[points[i]].label();
    if (ok[i])
      out.built.push_back(label);
    else
      out.not_built.emplace_back(label, failure[i].substr(0, failure[i].find('\n')));
  }
  out.manifest = (std::filesystem::path(out.folder) / ("manifest-" + out.board + ".tsv")).string();
  std::ofstream file(out.manifest);
  file << kernel_prebuild_manifest(out);
  if (!file.flush()) throw std::runtime_error("--prebuild-kernels: cannot write " + out.manifest);
  return out;
}

std::string kernel_prebuild_manifest(const KernelPrebuild& p) {
  std::ostringstream out;
  out << "# prebuilt kernels for board " << p.board << " (" << p.arch << "), NVRTC "
      << p.compiler_version << ": " << p.built.size() << " kernel sets built, "
      << p.not_built.size() << " not built; ";
  if (p.scope == PrebuildScope::space)
    out << "scope space: every one of the space's " << p.space_sets
        << " kernel sets that the variants' rules allow\n";
  else
    out << "scope start: " << p.start_sets << " of the strategy's first " << p.start_points
        << " points, the rest one tunable step from them\n";
  for (const std::string& label : p.built) out << "built\t" << label << '\n';
  for (const auto& [label, why] : p.not_built) out << "not built\t" << label << '\t' << why << '\n';
  return out.str();
}

}  // namespace flowtune
