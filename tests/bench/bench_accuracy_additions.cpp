// Accuracy additions to TV-L1 (median filtering of the flow, epsilon stopping on the GPU,
// structure-texture decomposition of the frames)
// measured alone and combined on the 8 Middlebury sequences: per config and sequence the AEPE
// and AAE against the ground truth (Baker et al. 2011) and the time per frame (wall clock
// around the synchronous compute(): frames in, flow out; median of ACC_REPEATS frames after
// one warm-up). Not a Google Benchmark: one CSV of raw rows that python3 -m benchmarks.summarise
// accuracy-additions turns into the table (training 4 / held-out 4, after Sun, Roth, Black 2010,
// table 1). Env:
//   ACC_TARGET    gpu (default) | cpu: the default of ACC_VARIANT and the CSV's first column
//   ACC_VARIANT   a registered variant (gpu default shared_fusion, block 32x8, resident_px
//                 1024; cpu default kokkos_global, the README's "defaults, measured") or
//                 `reference` (tvl1_reference, double, one thread)
//   ACC_CONFIGS   comma list of config names (default: all of the target's list, see configs())
//   ACC_SEQUENCES comma list (default the 8 sequences with ground truth)
//   ACC_DATA      Middlebury folder (default $FLOWTUNE_SHARED_DATA/middlebury, else
//                 ../shared/data/middlebury)
//   ACC_REPEATS   timed frames per sequence (default 3 on the GPU, 1 on the CPU)
//   ACC_CSV       output file (default accuracy_additions.csv)
//   ACC_GRID      instead of the named configs, grids of TV-L1 parameters (the accuracy front):
//                 "NAME=V1,V2;NAME=V1,...|NAME=...": each '|'-separated grid is the product of
//                 its dimensions over the schema defaults with every later addition at
//                 its absent value (median_window 0: the base of the committed fronts, not
//                 the default 5; ParamSpec::absent_value), the grids run in order, a point
//                 seen before is skipped; a categorical value may be its name (bilinear).
//                 A point is named by the values of every dimension of any grid, in the order
//                 they first appear ("iterations=10 n_warpings=1 ... warping_interp=bilinear")
//   ACC_SKIP_MS   with ACC_GRID: a point whose first sequence takes longer than this (ms,
//                 median) skips its other sequences (default 0 = never), so points far
//                 beyond the front's budgets cost one sequence
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/flo_io.hpp"
#include "kernels/metrics.hpp"
#include "kernels/png_io.hpp"
#include "kernels/reference_tvl1.hpp"
#include "variants/tvl1_params_of.hpp"
#include "variants/variant.hpp"
#include "workloads/workload.hpp"

namespace {

using namespace flowtune;

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

struct Named {
  std::string name;
  Tvl1Params p;
};

/// The schema defaults with every parameter added after the first schema at its absent value
/// (median_window 0, not its default 5): the defaults these configs and the committed rows
/// of results/accuracy-additions/*/2026-11-24/summary.md and the accuracy fronts are relative to.
ParamValues defaults_before_additions() {
  const Workload& w = find_workload("tvl1");
  ParamValues v = w.default_params();
  for (const ParamSpec& p : w.params())
    if (p.absent_value) v[p.name] = *p.absent_value;
  return v;
}

/// The configs: `defaults` = the schema defaults before the additions (IPOL 2013 with epsilon
/// 0.005: 5 warpings, up to 300 iterations, zoom 0.5, median off; the schema's default is
/// defaults+median5) and a fast GPU point (zoom 0.8, 3 warpings x 70 iterations, epsilon 0),
/// each alone and with the additions.
std::vector<Named> configs() {
  const Tvl1Params d = tvl1_params_of([] {
    Config c;
    c.params = defaults_before_additions();
    return c;
  }());
  auto with = [](Tvl1Params p, const std::function<void(Tvl1Params&)>& f) {
    f(p);
    return p;
  };
  Tvl1Params fast = d;
  fast.zoom = 0.8;
  fast.n_warpings = 3;
  fast.iterations = 70;
  fast.epsilon = 0;
  return {
      {"defaults", d},
      {"defaults_k10", with(d, [](Tvl1Params& p) { p.epsilon_check_every = 10; })},
      {"defaults_eps0", with(d, [](Tvl1Params& p) { p.epsilon = 0; })},
      {"defaults+median3", with(d, [](Tvl1Params& p) { p.median_window = 3; })},
      {"defaults+median5", with(d, [](Tvl1Params& p) { p.median_window = 5; })},
      {"defaults_k10+median5", with(d,
                                    [](Tvl1Params& p) {
                                      p.epsilon_check_every = 10;
                                      p.median_window = 5;
                                    })},
      {"zoom0.8_k10+median5", with(d,
                                   [](Tvl1Params& p) {
                                     p.zoom = 0.8;
                                     p.epsilon_check_every = 10;
                                     p.median_window = 5;
                                   })},
      {"defaults+texture", with(d, [](Tvl1Params& p) { p.texture_alpha = 0.95; })},
      {"defaults+median5+texture", with(d,
                                        [](Tvl1Params& p) {
                                          p.median_window = 5;
                                          p.texture_alpha = 0.95;
                                        })},
      {"defaults_k10+median5+texture", with(d,
                                            [](Tvl1Params& p) {
                                              p.epsilon_check_every = 10;
                                              p.median_window = 5;
                                              p.texture_alpha = 0.95;
                                            })},
      {"fast", fast},
      {"fast+texture", with(fast, [](Tvl1Params& p) { p.texture_alpha = 0.95; })},
      {"fast+median5+texture", with(fast,
                                    [](Tvl1Params& p) {
                                      p.median_window = 5;
                                      p.texture_alpha = 0.95;
                                    })},
      {"zoom0.8_k10+median5+texture", with(d,
                                           [](Tvl1Params& p) {
                                             p.zoom = 0.8;
                                             p.epsilon_check_every = 10;
                                             p.median_window = 5;
                                             p.texture_alpha = 0.95;
                                           })},
      {"fast+median3", with(fast, [](Tvl1Params& p) { p.median_window = 3; })},
      {"fast+median5", with(fast, [](Tvl1Params& p) { p.median_window = 5; })},
      {"fast+eps0.005_k10", with(fast,
                                 [](Tvl1Params& p) {
                                   p.epsilon = 0.005;
                                   p.epsilon_check_every = 10;
                                 })},
  };
}

/// The points of ACC_GRID (see the header), each named by its dimensions' values.
std::vector<Named> grid_configs(const std::string& spec) {
  const Workload& w = find_workload("tvl1");
  std::vector<std::vector<std::pair<std::string, std::vector<double>>>> grids;
  std::vector<std::string> order;  // every dimension, in order of first appearance
  std::stringstream gs(spec);
  for (std::string grid; std::getline(gs, grid, '|');) {
    grids.emplace_back();
    std::stringstream ds(grid);
    for (std::string dim; std::getline(ds, dim, ';');) {
      if (dim.empty()) continue;
      const auto eq = dim.find('=');
      const ParamSpec* p = eq == std::string::npos ? nullptr : w.find_param(dim.substr(0, eq));
      if (!p) throw std::runtime_error("ACC_GRID: '" + dim + "' is not NAME=V1,V2 of tvl1");
      std::vector<double> values;
      for (const std::string& item : split(dim.substr(eq + 1))) {
        const auto v = p->value_of(item);
        if (!v || p->invalid_reason(*v))
          throw std::runtime_error("ACC_GRID: " + p->name + "=" + item + " is not valid");
        values.push_back(*v);
      }
      grids.back().emplace_back(p->name, values);
      if (std::find(order.begin(), order.end(), p->name) == order.end()) order.push_back(p->name);
    }
  }
  std::vector<Named> out;
  std::vector<std::string> seen;
  for (const auto& g : grids) {
    std::vector<std::size_t> at(g.size(), 0);
    while (true) {
      Config c;
      c.params = defaults_before_additions();
      for (std::size_t k = 0; k < g.size(); ++k) c.params[g[k].first] = g[k].second[at[k]];
      std::string name;
      for (const std::string& d : order)
        name += (name.empty() ? "" : " ") + d + "=" + w.find_param(d)->value_text(c.params[d]);
      if (std::find(seen.begin(), seen.end(), name) == seen.end() && !w.check_params(c)) {
        seen.push_back(name);
        out.push_back({name, tvl1_params_of(c)});
      }
      std::size_t k = 0;
      while (k < g.size() && ++at[k] == g[k].second.size()) at[k++] = 0;
      if (k == g.size()) break;
    }
  }
  return out;
}

/// The config of ACC_VARIANT: block 32x8 and resident_px 1024 where the scheme has them,
/// other tunables at their first value; throws if that is not valid.
Config gpu_config(const std::string& variant, const Tvl1Params& p) {
  const Variant* v = find_variant(variant);
  if (!v) throw std::runtime_error("bench_accuracy_additions: no variant '" + variant + "'");
  Config c;
  c.workload = "tvl1";
  c.variant = variant;
  c.precision = "f32";
  c.params = param_values_of(p);
  for (const TunableDomain& d : v->tunables()) c.tunables[d.name] = d.values.front();
  if (c.tunables.count("block_x")) c.tunables["block_x"] = 32;
  if (c.tunables.count("block_y")) c.tunables["block_y"] = 8;
  if (c.tunables.count("resident_px")) c.tunables["resident_px"] = 1024;
  if (auto why = v->invalid_reason(c)) throw std::runtime_error(*why);
  return c;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

int main() {
  try {
    const std::string target = env_or("ACC_TARGET", "gpu");
    const std::string variant =
        env_or("ACC_VARIANT", target == "cpu" ? "kokkos_global" : "shared_fusion");
    const std::string data =
        env_or("ACC_DATA", env_or("FLOWTUNE_SHARED_DATA", "../shared/data") + "/middlebury");
    const int repeats = std::stoi(env_or("ACC_REPEATS", target == "cpu" ? "1" : "3"));
    const auto sequences = split(env_or(
        "ACC_SEQUENCES", "Dimetrodon,Grove3,RubberWhale,Urban3,Grove2,Hydrangea,Urban2,Venus"));
    const auto wanted = split(env_or("ACC_CONFIGS", ""));
    const std::string grid = env_or("ACC_GRID", "");
    const double skip_ms = std::stod(env_or("ACC_SKIP_MS", "0"));
    struct Frames {
      Image i0, i1;
      FlowField gt;
    };
    std::vector<Frames> frames;  // read once
    for (const std::string& s : sequences) {
      const std::string d = data + "/" + s + "/";
      frames.push_back({read_png_gray(d + "frame10.png"), read_png_gray(d + "frame11.png"),
                        read_flo(d + "flow10.flo")});
    }
    std::ofstream csv(env_or("ACC_CSV", "accuracy_additions.csv"));
    csv << "target,variant,config,sequence,aepe,aae_deg,ms_median,ms_min,ms_max,frames,params\n";
    for (const Named& n : grid.empty() ? configs() : grid_configs(grid)) {
      if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), n.name) == wanted.end())
        continue;
      std::unique_ptr<FlowSolver> solver;
      Config c;
      if (variant != "reference") {
        c = gpu_config(variant, n.p);
        const FlowVariant* fv = find_flow_variant(variant);
        if (!fv) throw std::runtime_error("not a TV-L1 variant: " + variant);
        solver = fv->make_solver(c);
      }
      for (std::size_t k = 0; k < sequences.size(); ++k) {
        const std::string& s = sequences[k];
        const Image& i0 = frames[k].i0;
        const Image& i1 = frames[k].i1;
        const FlowField& gt = frames[k].gt;
        auto run = [&] { return solver ? solver->compute(i0, i1) : tvl1_reference(i0, i1, n.p); };
        FlowField flow;
        if (solver) flow = run();  // warm-up (builds, allocates, captures the graph)
        std::vector<double> ms;
        for (int r = 0; r < repeats; ++r) {
          const auto t0 = std::chrono::steady_clock::now();
          flow = run();
          ms.push_back(
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                  .count());
        }
        const FlowError e = flow_error(flow, gt);
        char line[512];
        std::snprintf(line, sizeof line, "%s,%s,%s,%s,%.5f,%.4f,%.3f,%.3f,%.3f,%d,", target.c_str(),
                      variant.c_str(), n.name.c_str(), s.c_str(), e.aepe, e.aae_deg, median(ms),
                      *std::min_element(ms.begin(), ms.end()),
                      *std::max_element(ms.begin(), ms.end()), repeats);
        Config pc;
        pc.params = param_values_of(n.p);
        csv << line << '"' << pc.params_text() << '"' << '\n' << std::flush;
        std::cout << line << '\n' << std::flush;
        if (!grid.empty() && skip_ms > 0 && median(ms) > skip_ms) break;  // beyond the front
      }
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "bench_accuracy_additions: " << e.what() << '\n';
    return 1;
  }
}
