// The split-K planner's candidates one plan at a time, and the launch of a given plan: what gemm()'s
// autotuning (runtime/split_autotune.cpp) times and then hands to the tuned table.
#pragma once

#include <vector>

#include "kernels/sm90/split_k.hpp"

namespace tcgemm {

// For each TMA tile of the planner that supports g (the 1x2 pair excluded: a tuned plan cannot
// name it), the `per_tile` split counts its model prices lowest, lowest first within a tile; each
// plan as plan_split_k would return it for that tile and count (workspace included).
std::vector<SplitKPlan> split_k_tile_plans(const GemmDesc& g, DType input, int sm_count, int per_tile);

// Runs plan p on args (the planned entry's launch without the planning); args.workspace must hold
// p.workspace_bytes.
Status sm90_wgmma_ws_launch_plan(const GemmArgs& args, DType input, const SplitKPlan& p);

}  // namespace tcgemm
