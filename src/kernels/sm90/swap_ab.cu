#include "kernels/sm90/swap_ab.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "analysis/path_rules.hpp"
#include "core/diag_flag.hpp"
#include "kernels/common/launch_attributes.hpp"
#include "kernels/common/splitk_reduce.hpp"
#include "kernels/sm90/split_k.hpp"

namespace tcgemm {
namespace {

Layout flip(Layout l) { return l == Layout::row ? Layout::column : Layout::row; }

MatrixDesc transposed(const MatrixDesc& m, StoredExtent e) {
  MatrixDesc t = m;
  t.layout = flip(m.layout);
  t.ld = effective_ld(m, e);  // the same memory: the ld does not change, only what it strides
  return t;
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

bool swap_cluster_split_disabled() {
  static const bool off = diag_flag("TCGEMM_DIAG_NO_CLUSTER_SPLIT");
  return off;
}

bool swap_cluster_split_wide() {
  static const bool on = diag_flag("TCGEMM_DIAG_CLUSTER_SPLIT_WIDE");
  return on;
}

GemmDesc swapped_desc(const GemmDesc& g) {
  GemmDesc s = g;
  s.m = g.n;
  s.n = g.m;
  s.a = transposed(g.b, extent_b(g));
  s.b = transposed(g.a, extent_a(g));
  s.c = transposed(g.c, extent_c(g));
  s.d = transposed(g.d, extent_c(g));
  return s;
}

GemmArgs swapped_args(const GemmArgs& a) {
  GemmArgs s = a;
  s.desc = swapped_desc(a.desc);
  s.a = a.b;
  s.b = a.a;
  return s;
}

int swap_ab_tile_n(int64_t m) { return m <= 16 ? 16 : m <= 32 ? 32 : m <= 64 ? 64 : 128; }

Sm90WsVariant swap_ab_variant(int64_t m) {
  const int n = swap_ab_tile_n(m);
  return sm90_wgmma_ws_narrow_variant(n, n <= 32 ? 1 : 2);
}

int swap_cluster_capacity(Sm90WsVariant v, int splits, int sm_count) {
  if (splits < 2 || splits > kMaxClusterSplits) return splits < 2 ? std::max(sm_count, 1) : 0;
  if (current_device_sm_count() == sm_count) {
    const Sm90WsShape shape = sm90_wgmma_ws_shape(DType::bf16, v);
    const void* fn = sm90_wgmma_ws_function(DType::bf16, false, v);
    if (fn != nullptr) {
      if (Result<int> r = resident_clusters(fn, static_cast<unsigned>(splits), shape.threads, shape.smem_bytes); r.ok())
        return r.value();
    }
  }
  return static_cast<int>(modeled_resident_clusters(splits, sm_count));
}

SwapAbPlan plan_swap_ab(const GemmDesc& g, int sm_count, Sm90WsVariant v) {
  SwapAbPlan p;
  p.variant = v;
  const Sm90WsShape shape = sm90_wgmma_ws_shape(g.a.dtype, p.variant);
  const int64_t k_blocks = ceil_div(g.k, shape.tile_k);
  const int64_t tiles = ceil_div(g.n, shape.tile_m) * ceil_div(g.m, shape.tile_n);
  const int64_t sms = std::max(sm_count, 1);
  // The kernel sums splits in a cluster on every TMA-loaded tile up to kMaxClusterSumWidth wide; the
  // planner takes it on its own where it was measured to win, the 16/32-wide tiles (runs 190-192),
  // and on the one-consumer 64-wide tile built like them, but not on the 64/128-wide two-consumer tiles
  // unless TCGEMM_DIAG_CLUSTER_SPLIT_WIDE=1 (for A/B runs). Forced counts use it wherever the kernel has it.
  const bool cluster_capable = v.tile_n <= kMaxClusterSumWidth && !v.thread_loads && !v.row_classes && !v.in_copy &&
                               !swap_cluster_split_disabled();
  const bool cluster_ok = cluster_capable && (v.tile_n <= 32 || v.consumers == 1 || swap_cluster_split_wide());
  int64_t best = 1;
  bool best_in_cluster = false;
  if (forced_split_k() > 0) {
    best = forced_split_k();
    best_in_cluster = cluster_capable;  // settled below by the split count that comes out
  } else if (2 * tiles >= sms) {
    // NOTES: tiles on at least half the SMs already hold HBM at its rate, so splits only add
    // slabs and a reduce: 64x12288x4096 (96 tiles) 35.4 us unsplit against 42.6-47.0 with 2-4
    // splits (the model's pick was 4), 16x12288x4096 (192 tiles) 33.8 against 38.4-42.5 (run 59).
    best = 1;
    // Past one round, a last round at most half full runs its tiles in two splits on twice the SMs.
    if (cluster_ok) {
      p.tail_first = swap_tail_first(tiles, k_blocks, sms, swap_cluster_capacity(v, 2, sm_count));
      if (p.tail_first > 0) p.tail_splits = 2;
    }
  } else if (cluster_ok) {
    // The most splits whose clusters fit one round (path_rules.hpp); no slabs, no reduce.
    best = swap_cluster_splits(tiles, k_blocks, sms,
                               [&](int c) { return static_cast<int64_t>(swap_cluster_capacity(v, c, sm_count)); });
    best_in_cluster = best > 1;
  } else {
    // Time in units of one CTA streaming all of K: waves * K/s, plus the slab traffic (written and
    // read back as f32: 8 bytes per M*N element and split against the 2 bytes per B element of a
    // tile row's stream), spread over all SMs. Each split keeps >= 4 k-blocks so the ring fills.
    const double slab_per_split = 8.0 * static_cast<double>(g.m) * static_cast<double>(g.n) /
                                  (2.0 * static_cast<double>(shape.tile_m) * static_cast<double>(g.k) * sms);
    double best_time = 0;
    const int64_t cap = std::max<int64_t>(1, std::min<int64_t>(64, k_blocks / 4));
    for (int64_t s = 1; s <= cap; ++s) {
      const double waves = static_cast<double>(ceil_div(tiles * s, sms));
      const double t = waves / static_cast<double>(s) + (s > 1 ? slab_per_split * static_cast<double>(s) : 0.0);
      if (s == 1 || t < best_time * 0.98) {  // a split must win by 2% to pay for its reduce launch
        best = s;
        best_time = t;
      }
    }
  }
  best = std::clamp<int64_t>(best, 1, std::min<int64_t>(k_blocks, 65535));
  p.k_blocks_per_split = static_cast<int>(ceil_div(k_blocks, best));
  p.splits = static_cast<int>(ceil_div(k_blocks, p.k_blocks_per_split));  // none left empty
  p.in_cluster = best_in_cluster && p.splits > 1 && p.splits <= kMaxClusterSplits;
  if (p.splits > 1 && !p.in_cluster) {
    const GemmDesc swapped = swapped_desc(g);  // the slabs are the swapped problem's (D^T)
    p.workspace_bytes = split_slabs_bytes(swapped.m, swapped.n, swapped.d.layout == Layout::row, p.splits);
  }
  return p;
}

Status sm90_swap_ab_supports(const GemmDesc& g, DType input, Sm90WsVariant v) {
  if (g.m > 128) return Status::unsupported("swap-A/B serves M <= 128 (M is " + std::to_string(g.m) + ")");
  if (swap_ab_tile_n(g.m) != v.tile_n)
    return Status::unsupported("M = " + std::to_string(g.m) + " takes the " + std::to_string(swap_ab_tile_n(g.m)) +
                               "-wide swap tile, not the " + std::to_string(v.tile_n) + "-wide one");
  if (g.a.layout != Layout::row)
    return Status::unsupported("swap-A/B needs a row-major (K-major) A: it becomes B^T, which the narrow tiles "
                               "read K-major");
  return sm90_wgmma_ws_supports(swapped_desc(g), input, v);
}

std::size_t sm90_swap_ab_workspace(const GemmDesc& g, Sm90WsVariant v) {
  return plan_swap_ab(g, current_sm_count(), v).workspace_bytes;
}

int sm90_swap_ab_splits(const GemmDesc& g, Sm90WsVariant v) { return plan_swap_ab(g, current_sm_count(), v).splits; }

std::string sm90_swap_ab_describe(const GemmDesc& g, Sm90WsVariant v) {
  const SwapAbPlan p = plan_swap_ab(g, current_sm_count(), v);
  const Sm90WsShape s = sm90_wgmma_ws_shape(g.a.dtype, v);
  std::string out = "D^T = B^T A^T on " + std::to_string(s.tile_m) + "x" + std::to_string(s.tile_n) + " tiles";
  if (p.splits <= 1 && p.tail_splits > 1) {
    const int64_t tiles = ceil_div(g.n, s.tile_m) * ceil_div(g.m, s.tile_n);
    return out + ", K unsplit but for the last round's " + std::to_string(tiles - p.tail_first) + " tiles (of " +
           std::to_string(tiles) + "): " + std::to_string(p.tail_splits) + " splits each, summed in clusters of " +
           std::to_string(p.tail_splits) + " (no workspace)";
  }
  if (p.splits <= 1) return out + ", K unsplit";
  out += ", K in " + std::to_string(p.splits) + " splits of " + std::to_string(p.k_blocks_per_split) + " k-blocks";
  if (p.in_cluster) return out + ", summed in clusters of " + std::to_string(p.splits) + " (no workspace, no reduce launch)";
  return out + ", summed by a reduce over " + std::to_string(p.workspace_bytes) + " B of f32 slabs";
}

namespace {

// Runs a plan of plan_swap_ab on the kernel's own problem `k` (the swapped one, or the caller's
// for the unswapped narrow tiles).
Status launch_narrow_plan(const GemmArgs& k, DType input, const SwapAbPlan& plan) {
  if (plan.splits <= 1 && plan.tail_splits > 1) {
    const int k_blocks = static_cast<int>(ceil_div(k.desc.k, sm90_wgmma_ws_shape(input, plan.variant).tile_k));
    Sm90ClusterSplit cs;
    cs.tail_first = plan.tail_first;
    cs.tail_splits = plan.tail_splits;
    cs.tail_k_blocks_per_split = static_cast<int>(ceil_div(k_blocks, plan.tail_splits));
    return sm90_wgmma_ws_launch_cluster_split(k, input, plan.variant, cs);
  }
  if (plan.splits <= 1) return sm90_wgmma_ws_launch(k, input, true, plan.variant);
  if (plan.in_cluster) {
    Sm90ClusterSplit cs;
    cs.splits = plan.splits;
    cs.k_blocks_per_split = plan.k_blocks_per_split;
    return sm90_wgmma_ws_launch_cluster_split(k, input, plan.variant, cs);
  }
  return sm90_wgmma_ws_run_split_k(k, input, plan.variant, plan.splits, plan.k_blocks_per_split);
}

}  // namespace

Status sm90_swap_ab_launch(const GemmArgs& args, DType input, Sm90WsVariant v) {
  return launch_narrow_plan(swapped_args(args), input, plan_swap_ab(args.desc, current_sm_count(), v));
}

// Unswapped, the plan is the swapped problem's own: plan_swap_ab counts rows along its argument's n
// and width along its m, so the transposed description gives 64-row tiles of M and narrow N.
// A column-major A goes in 64x64 MN-major boxes (the instance the swapped tiles run for a row-major
// B); before run 215 it fell back to the 128-row split-K tile (64x4096x4096: 0.78x, run 214).
Status sm90_narrow_supports(const GemmDesc& g, DType input, Sm90WsVariant v) {
  if (g.b.layout != Layout::column)
    return Status::unsupported("the unswapped narrow tiles read a K-major B (column-major); A may be either");
  return sm90_wgmma_ws_supports(g, input, v);
}

std::size_t sm90_narrow_workspace(const GemmDesc& g, Sm90WsVariant v) {
  return plan_swap_ab(swapped_desc(g), current_sm_count(), v).workspace_bytes;
}

int sm90_narrow_splits(const GemmDesc& g, Sm90WsVariant v) {
  return plan_swap_ab(swapped_desc(g), current_sm_count(), v).splits;
}

Status sm90_narrow_launch(const GemmArgs& args, DType input, Sm90WsVariant v) {
  return launch_narrow_plan(args, input, plan_swap_ab(swapped_desc(args.desc), current_sm_count(), v));
}

}  // namespace tcgemm
