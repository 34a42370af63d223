#include "tuner/constraints.hpp"

#include <stdexcept>

#include "workloads/workload.hpp"

namespace flowtune {

int qfloat_bytes(const std::string& precision) {
  if (precision == "f32") return 8;
  if (precision == "f16" || precision == "mixed") return 4;
  throw std::invalid_argument("qfloat_bytes: unknown precision '" + precision +
                              "' (f32, f16, mixed)");
}

std::int64_t shared_pipeline_shared_bytes(int qfloat, int w, int depth) {
  if (qfloat <= 0 || w <= 0 || depth < 0)
    throw std::invalid_argument(
        "shared_pipeline_shared_bytes: need qfloat > 0, w > 0, depth >= 0; got " +
        std::to_string(qfloat) + ", " + std::to_string(w) + ", " + std::to_string(depth));
  return static_cast<std::int64_t>(qfloat) * 6 * w * (static_cast<std::int64_t>(depth) + 1);
}

ConstraintCheck check_constraints(const Board& board, const Variant& variant, const Config& config,
                                  ResourceSource source) {
  ConstraintCheck out;
  const std::string label = config.label();
  if (variant.workload() != config.workload) {
    out.prune_reason = label + ": variant " + variant.name() + " belongs to workload " +
                       variant.workload() + ", not " + config.workload;
    return out;
  }
  if (auto why = find_workload(config.workload).check_params(config)) {
    out.prune_reason = label + ": " + *why;
    return out;
  }
  return check_kernel_constraints(board, variant, config, source);
}

bool kernel_rules_allow(const Workload& workload, const Config& config) {
  const Variant* variant = find_workload_variant(workload, config.variant);
  if (!variant || !variant->checks_ignore_params()) return true;
  return !variant->invalid_reason(config);
}

ConstraintCheck check_kernel_constraints(const Board& board, const Variant& variant,
                                         const Config& config, ResourceSource source) {
  ConstraintCheck out;
  const std::string label = config.label();
  if (auto why = variant.invalid_reason(config)) {
    out.prune_reason = label + ": " + *why;
    return out;
  }
  if (variant.target() != board.target) {
    out.prune_reason = label + ": " + variant.target() + " variant " + variant.name() +
                       " cannot run on " + board.target + " board " + board.name;
    return out;
  }
  if (board.target != "cuda") return out;

  std::vector<KernelResources> resources;
  try {
    std::optional<std::vector<KernelResources>> tabled;
    if (source == ResourceSource::table_or_build)
      tabled = variant.table_resources(config, board.arch());
    resources = tabled ? std::move(*tabled) : variant.resources(config, board.arch());
  } catch (const std::exception& e) {
    out.prune_reason = label + ": build for " + board.arch() + " failed: " + e.what();
    return out;
  }
  auto it = config.tunables.find("optin");
  const bool optin = it != config.tunables.end() && it->second != 0;
  for (const auto& r : resources) {
    KernelOccupancy k{r, occupancy(board.limits, r, -1, optin)};
    out.kernels.push_back(k);
    if (!k.occupancy.error.empty() && !out.prune_reason) {
      std::string reason = label + ": " + k.occupancy.error + " on " + board.name;
      if (resources.size() > 1) reason += " (kernel " + r.kernel + ")";
      if (r.estimated) reason += " (resources estimated from an " + r.built_for + " build)";
      out.prune_reason = reason;
    }
  }
  return out;
}

void ResourceTally::add(const ConstraintCheck& check) {
  if (check.kernels.empty()) {
    if (check.prune_reason && check.prune_reason->find(": build for ") != std::string::npos)
      ++failed;
    return;
  }
  bool all_table = true, any_estimated = false;
  for (const KernelOccupancy& k : check.kernels) {
    all_table = all_table && k.resources.from_table;
    any_estimated = any_estimated || k.resources.estimated;
  }
  if (all_table)
    ++table;
  else if (any_estimated)
    ++estimated;
  else
    ++built;
}

std::string ResourceTally::text() const {
  const std::size_t n = table + built + estimated + failed;
  if (n == 0) return "";
  std::string s = "kernel resources of " + std::to_string(n) +
                  " kernel configs: " + std::to_string(table) +
                  " from the committed NVRTC 11.8 table (variants/cuda/kernel_resources.csv, "
                  "ptxas reports of native builds), " +
                  std::to_string(built) + " built here (NVRTC, not in the table)";
  if (estimated)
    s += ", " + std::to_string(estimated) +
         " estimated (built here for a stand-in arch: this NVRTC cannot target the board's)";
  if (failed) s += ", " + std::to_string(failed) + " failed to build (pruned)";
  return s;
}

std::optional<std::string> prune_reason(const Board& board, const Variant& variant,
                                        const Config& config) {
  return check_constraints(board, variant, config).prune_reason;
}

}  // namespace flowtune
