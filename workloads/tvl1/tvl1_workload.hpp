// The TV-L1 optical-flow workload (Zach et al. 2007; Sanchez Perez et al., IPOL 2013;
// Romera et al. 2023): parameter schema, Middlebury inputs, AEPE/AAE metrics, variants.
#pragma once

#include "workloads/workload.hpp"

namespace flowtune {

/// The process-wide TV-L1 workload: name "tvl1", work unit "px" (pixels of a frame),
/// parameters tau, lambda, theta, zoom, n_scales, n_warpings, iterations, epsilon,
/// presmoothing_sigma, ... (tvl1_param_specs), metrics aepe (px) and aae_deg (deg) against the
/// ground truth, fl_all (%) on KITTI 2015, epe_noc (px) on MPI-Sintel, and ref_aepe (px) and
/// photometric (gray levels) against a reference flow; front over (time_ms, aepe), with
/// ref_aepe for aepe on inputs without ground truth; inputs: Middlebury, KITTI 2015, MPI-Sintel
/// folders and a user's footage (load_flow_dataset, workloads/tvl1/flow_dataset.hpp).
const Workload& tvl1_workload();

/// The parameter schema with defaults, ranges and sources (what `tune params --workload
/// tvl1` prints).
const std::vector<ParamSpec>& tvl1_param_specs();

}  // namespace flowtune
