// Host side of split-K on the persistent cluster kernel (pc_split_k.hpp): the plan, the rules, and
// the two launches (the slab pass, the reduce).
#include "kernels/sm90/pc_split_k.hpp"

#include <algorithm>
#include <cstdio>

#include "kernels/common/splitk_reduce.hpp"
#include "kernels/sm90/split_k.hpp"
#include "kernels/sm90/wgmma_ws_persistent_cluster.hpp"

namespace tcgemm {
namespace {

constexpr int64_t kTileM = 128, kTileN = 256, kTileK = 64;  // the _f32d instance's tile
constexpr int kMaxSplits = 64;

// The problem the slab pass runs: D is the stack of tight row-major f32 slabs, raw sums (alpha and
// beta are the reduce's).
GemmDesc slab_desc(const GemmDesc& g) {
  GemmDesc s = g;
  s.d = {DType::f32, Layout::row, g.n};
  s.c = s.d;
  s.alpha = 1.0f;
  s.beta = 0.0f;
  return s;
}

}  // namespace

PcSplitKPlan plan_pc_split_k(const GemmDesc& g, DType input, int sm_count) {
  PcSplitKPlan p;
  const PairGrid pg = pair_grid(g, kTileM, kTileN, kTileK);
  if (pg.pair_tiles <= 0 || pg.k_tiles < 2) return p;
  int splits = forced_split_k();
  if (splits <= 0) {
    const SplitKPlan ws = plan_split_k(g, input, sm_count);
    if (ws.variant == Sm90WsVariant{} && ws.splits >= 2)
      splits = ws.splits;
    else
      splits = static_cast<int>(std::max<int64_t>(2, (std::max(sm_count, 2) / 2) / pg.pair_tiles));
  }
  splits = std::clamp(splits, 2, std::min(kMaxSplits, pg.k_tiles));
  p.k_blocks_per_split = (pg.k_tiles + splits - 1) / splits;
  p.splits = (pg.k_tiles + p.k_blocks_per_split - 1) / p.k_blocks_per_split;
  if (p.splits < 2) return PcSplitKPlan{};
  p.slab_rows = (g.m + 63) / 64 * 64;
  p.clusters = pg.pair_tiles * p.splits;
  p.workspace_bytes = static_cast<std::size_t>(p.splits) * static_cast<std::size_t>(p.slab_rows) *
                      static_cast<std::size_t>(g.n) * sizeof(float);
  return p;
}

std::string describe(const PcSplitKPlan& p) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "128x256 pairs, %d K slices of %d k-blocks, %lld clusters, %.1f MB of f32 slabs",
                p.splits, p.k_blocks_per_split, static_cast<long long>(p.clusters), p.workspace_bytes / 1e6);
  return buf;
}

Status sm90_pc_splitk_supports(const GemmDesc& g, DType input) {
  if (input != DType::bf16 && input != DType::f16)
    return Status::unsupported("split-K on the persistent cluster kernel takes bf16 or f16 inputs");
  if (g.n % 4 != 0)
    return Status::unsupported("split-K on the persistent cluster kernel needs N % 4 == 0 (the f32 slabs' TMA store)");
  if (!splitk_reduce_dtype(g.d.dtype) || (g.beta != 0.0f && !splitk_reduce_dtype(g.c.dtype)))
    return Status::unsupported("split-K's reduce writes D (and reads C) in f32, f16 or bf16");
  if (Status s = sm90_wgmma_ws_pc_supports(slab_desc(g), input, PcDStore::tma, true); !s.ok()) return s;
  if (plan_pc_split_k(g, input, current_sm_count()).splits < 2)
    return Status::unsupported("K has fewer than 2 k-blocks: nothing to split");
  return Status::success();
}

std::size_t sm90_pc_splitk_workspace(const GemmDesc& g, DType input) {
  return plan_pc_split_k(g, input, current_sm_count()).workspace_bytes;
}

Status sm90_pc_splitk_launch(const GemmArgs& args, DType input) {
  const GemmDesc& g = args.desc;
  if (args.a == nullptr || args.b == nullptr || args.d == nullptr || (g.beta != 0.0f && args.c == nullptr))
    return Status::invalid("A, B and D (and C when beta != 0) must be non-null");
  const PcSplitKPlan plan = plan_pc_split_k(g, input, current_sm_count());
  if (plan.splits < 2) return Status::unsupported("K has fewer than 2 k-blocks: nothing to split");
  if (args.workspace == nullptr || args.workspace_bytes < plan.workspace_bytes)
    return Status(StatusCode::workspace_too_small,
                  "split-K on the cluster kernel needs " + std::to_string(plan.workspace_bytes) + " bytes of workspace (" +
                      std::to_string(plan.splits) + " f32 slabs of " + std::to_string(plan.slab_rows) + "x" +
                      std::to_string(g.n) + "); got " + std::to_string(args.workspace_bytes));
  if (reinterpret_cast<std::uintptr_t>(args.workspace) % 16 != 0)
    return Status(StatusCode::misaligned, "split-K: the workspace must be 16-byte aligned (the slabs' TMA store)");

  GemmArgs slab = args;
  slab.desc = slab_desc(g);
  slab.c = nullptr;
  slab.d = args.workspace;
  if (Status s = sm90_wgmma_ws_pc_slabs_launch(slab, input, PcSlabs{plan.splits, plan.k_blocks_per_split, plan.slab_rows});
      !s.ok())
    return s;

  // The slabs are row-major whatever D's layout, padded to slab_rows.
  SplitKReduceArgs r = split_k_reduce_args(args, static_cast<const float*>(args.workspace), plan.splits, true);
  r.slab_ld = g.n;  // packed rows (supports() takes N % 4 == 0), not split_slab_ld's
  r.slab_stride = plan.slab_rows * g.n;
  return splitk_reduce(r, args.stream);
}

}  // namespace tcgemm
