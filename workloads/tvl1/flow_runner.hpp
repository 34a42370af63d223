// The TV-L1 workload's runner: one flow solver over a sequence set, timed by the tuner.
#pragma once

#include <memory>

#include "variants/variant.hpp"
#include "workloads/tvl1/sequence_set.hpp"
#include "workloads/workload.hpp"

namespace flowtune {

/// A Runner of `solver` over `inputs` (which must outlive it). run(i) computes item i's flow
/// with compute_into into a flow kept per item, so that after an item's first run the timed
/// call allocates nothing. Before an item's first run its flow is sized and its two frames and
/// flow planes are page-locked through FlowSolver::page_lock (a GPU solver then uploads and
/// downloads them by DMA: what is timed is a frame of a caller with page-locked buffers, as a
/// camera pipeline capturing into page-locked memory). The runner takes each item's output
/// (flow storage and locks) from `inputs` and gives it back when destroyed
/// (SequenceSet::take_output / keep_output): the next runner on the same inputs neither
/// allocates nor page-locks again, and the locks live as long as `inputs`.
/// score(i): where the pair has ground truth, aepe (px) and aae_deg (deg) of the last flow
/// against it (Baker et al. 2011, eq. 2 and 1), with fl_all (%, KITTI 2015's outlier rate) on
/// KITTI and epe_noc (px, the non-occluded pixels) on MPI-Sintel; where it has a reference flow
/// (reference_flow.hpp), ref_aepe (px, the AEPE against it) and photometric (gray levels,
/// photometric_error over the reference's visible pixels, kernels/photometric.hpp). Throws
/// CheckFailed naming the sequence when they cannot be computed, std::logic_error before the
/// item's first run. pictures(i): flow_output_pictures against the ground truth; without one,
/// the flow and the reference flow (kind "reference").
/// warm_start (the warm_start parameter): an item with a previous pair in its stream
/// (Sequence::previous) that this runner has run starts from that pair's last flow
/// (FlowSolver::compute_from, into the item's kept flow) instead of 0; other items, a stream's
/// first pair among them, start from 0. The tuner runs items in order, so after its first pass
/// every pair of a stream starts from its predecessor's warm flow, and a repeated run of an
/// item (timing) starts from the same flow each time.
std::unique_ptr<Runner> make_flow_runner(std::unique_ptr<FlowSolver> solver,
                                         const SequenceSet& inputs, bool warm_start = false);

}  // namespace flowtune
