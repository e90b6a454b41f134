#include "kernels/sm90/split_k.hpp"
#include "kernels/sm90/split_plans.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "analysis/split_model.hpp"
#include "core/diag_flag.hpp"
#include "kernels/common/launch_attributes.hpp"
#include "kernels/common/splitk_reduce.hpp"
#include "kernels/common/tile_counters.hpp"
#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "tcgemm/tuning.hpp"

namespace tcgemm {
namespace {

std::atomic<int> g_forced_splits{0};

int64_t k_blocks_of(const GemmDesc& g, Sm90WsVariant v) {
  const int64_t tk = std::max(sm90_wgmma_ws_shape(DType::bf16, v).tile_k, 1);
  return (g.k + tk - 1) / tk;
}

}  // namespace

void set_forced_split_k(int splits) { g_forced_splits.store(std::max(splits, 0)); }
int forced_split_k() { return g_forced_splits.load(); }

int current_sm_count() {
  const int sms = current_device_sm_count();
  return sms > 0 ? sms : 132;
}

int choose_splits(const GemmDesc& g, int sm_count, Sm90WsVariant v) {
  const Sm90WsShape s = sm90_wgmma_ws_shape(DType::bf16, v);
  const int64_t k_blocks = k_blocks_of(g, v);
  if (s.tile_m == 0 || k_blocks <= 1 || g.m < 1 || g.n < 1) return 1;  // tile_m 0: not compiled
  int64_t splits = forced_split_k();
  if (splits <= 0) {
    const int64_t tiles = ((g.m + s.tile_m - 1) / s.tile_m) * ((g.n + s.tile_n - 1) / s.tile_n);
    // NOTES: floor, not round: one CTA fits per SM, so tiles*splits past the SM count starts a
    // second, mostly empty wave (48 tiles: 3 splits = 144 CTAs = 2 waves of K/3, slower than 2
    // splits = 1 wave of K/2).
    const int64_t want = std::max(sm_count, 1) / tiles;
    const int64_t cap = std::max<int64_t>(1, std::min<int64_t>(64, k_blocks / 2));
    splits = std::clamp<int64_t>(want, 1, cap);
  }
  splits = std::min<int64_t>({splits, k_blocks, 65535});
  // Equal whole-block splits; with ceil(k_blocks / splits) blocks each, fewer splits may suffice.
  const int64_t per_split = (k_blocks + splits - 1) / splits;
  return static_cast<int>((k_blocks + per_split - 1) / per_split);
}

int split_k_blocks_per_split(const GemmDesc& g, int splits, Sm90WsVariant v) {
  const int64_t k_blocks = k_blocks_of(g, v);
  return static_cast<int>((k_blocks + splits - 1) / std::max(splits, 1));
}

Status sm90_wgmma_ws_splitk_supports(const GemmDesc& g, DType input, Sm90WsVariant v) {
  return sm90_wgmma_ws_supports(g, input, v);
}

std::size_t sm90_wgmma_ws_splitk_workspace(const GemmDesc& g, Sm90WsVariant v) {
  const int splits = choose_splits(g, current_sm_count(), v);
  if (splits <= 1) return 0;
  return split_slabs_bytes(g.m, g.n, g.d.layout == Layout::row, splits);
}

Status sm90_wgmma_ws_splitk_launch(const GemmArgs& args, DType input, Sm90WsVariant v) {
  const int splits = choose_splits(args.desc, current_sm_count(), v);
  if (splits <= 1) return sm90_wgmma_ws_launch(args, input, true, v);
  return sm90_wgmma_ws_run_split_k(args, input, v, splits, split_k_blocks_per_split(args.desc, splits, v));
}

Status sm90_wgmma_ws_run_split_k(const GemmArgs& args, DType input, Sm90WsVariant v, int splits,
                                 int k_blocks_per_split, const InCopy* copy, Sm90Multicast mc) {
  const GemmDesc& g = args.desc;
  const bool row = g.d.layout == Layout::row;
  const std::size_t need = split_slabs_bytes(g.m, g.n, row, splits);
  if (args.workspace == nullptr || args.workspace_bytes < need)
    return Status(StatusCode::workspace_too_small,
                  "split-K with " + std::to_string(splits) + " splits needs " + std::to_string(need) +
                      " bytes of workspace (splits f32 slabs of " + std::to_string(row ? g.m : g.n) + " lines of " +
                      std::to_string(split_slab_ld(g.m, g.n, row)) + "); got " + std::to_string(args.workspace_bytes));
  if (reinterpret_cast<uintptr_t>(args.workspace) % 16 != 0)
    return Status(StatusCode::misaligned, "split-K: the workspace must be 16-byte aligned (f32 slabs, float4 reads)");
  if (args.d == nullptr || (g.beta != 0.0f && args.c == nullptr))
    return Status::invalid("D (and C when beta != 0) must be non-null");
  float* partials = static_cast<float*>(args.workspace);
  // The reduce folded into the split pass (slab_fold.cuh), where its tiles' splits fit one round:
  // no second launch. Off unless TCGEMM_DIAG_FOLD=1 asks for it (diagnosis): runs 229-230 measured
  // it 3-10% slower than the separate reduce at 256x256x65536, 333x777x4099 and 128x8192x28672 and
  // level at 512x1024x32768 (bench/NOTES.md, session 34): under PDL the reduce's launch is already
  // hidden, and its blocks fill every SM where the fold has one CTA a SM. Its counters are the
  // upper words of the stream's buffer; in-kernel copies meet at words [0, splits), and a folding
  // grid has at most an SM count of CTAs, so they never meet.
  static_assert(kTileCounterWords - kFoldCounterWords >= 1024, "in-kernel copies keep the lower words");
  static const bool fold_on = diag_flag("TCGEMM_DIAG_FOLD");
  uint32_t* fold = nullptr;
  if (fold_on && mc.m * mc.n == 1 && sm90_wgmma_ws_can_fold(g, v, splits, current_sm_count())) {
    Result<uint32_t*> counters = tile_counters(args.stream);
    if (counters.ok()) fold = counters.value() + (kTileCounterWords - kFoldCounterWords);
  }
  if (Status st = sm90_wgmma_ws_launch_partials(args, input, k_blocks_per_split, splits, partials, v, copy, mc, fold);
      !st.ok())
    return st;
  if (fold != nullptr) return Status::success();
  // Diagnosis only (D is left unwritten): TCGEMM_DIAG_SKIP_REDUCE=1 times the split pass without its
  // reduce, to price the reduce on a real timeline (PDL, slabs in L2) rather than under ncu.
  static const bool skip_reduce = diag_flag("TCGEMM_DIAG_SKIP_REDUCE");
  if (skip_reduce) return Status::success();
  return splitk_reduce(split_k_reduce_args(args, partials, splits, g.d.layout == Layout::row), args.stream);
}

SplitKReduceArgs split_k_reduce_args(const GemmArgs& args, const float* partials, int splits, bool row_major_slabs) {
  const GemmDesc& g = args.desc;
  const int64_t ldc = effective_ld(g.c, extent_c(g));
  const int64_t ldd = effective_ld(g.d, extent_c(g));
  SplitKReduceArgs r;
  r.partials = partials;
  r.splits = splits;
  r.m = g.m;
  r.n = g.n;
  r.row_major = row_major_slabs;
  r.slab_ld = split_slab_ld(g.m, g.n, row_major_slabs);
  r.slab_stride = (row_major_slabs ? g.m : g.n) * r.slab_ld;
  r.alpha = g.alpha;
  r.beta = g.beta;
  r.c = args.c;
  r.c_dtype = g.c.dtype;
  r.c_row_stride = g.c.layout == Layout::row ? ldc : 1;
  r.c_col_stride = g.c.layout == Layout::row ? 1 : ldc;
  r.d = args.d;
  r.d_dtype = g.d.dtype;
  r.d_row_stride = g.d.layout == Layout::row ? ldd : 1;
  r.d_col_stride = g.d.layout == Layout::row ? 1 : ldd;
  return r;
}

}  // namespace tcgemm

namespace tcgemm {
namespace {

// The two-k-block stages load K-major A and B only; an MN-major A keeps the one-k-block 64x64.
Sm90WsVariant for_problem(Sm90WsVariant v, const GemmDesc& g, DType input) {
  if (v == kSm90Ws64x64TwoKBlocks && !sm90_wgmma_ws_supports(g, input, v).ok()) return sm90_wgmma_ws_narrow_variant(64, 1);
  return v;
}

// The plan of a priced split pass p of tile v (no multicast, not tuned).
SplitKPlan plan_of(const SplitPassPlan& p, Sm90WsVariant v, const GemmDesc& g) {
  SplitKPlan r;
  r.variant = v;
  r.splits = p.splits;
  r.k_blocks_per_split = p.k_blocks_per_split;
  r.ctas = static_cast<int>(p.ctas);
  r.predicted_us = p.us;
  r.terms = p.terms;
  r.workspace_bytes = p.splits > 1 ? split_slabs_bytes(g.m, g.n, g.d.layout == Layout::row, p.splits) : 0;
  return r;
}

std::vector<Sm90WsVariant> split_k_candidates(WsLoads loads) {
  if (loads == WsLoads::threads || loads == WsLoads::row_classes) {
    Sm90WsVariant v128 = sm90_wgmma_ws_narrow_variant(128), v64 = sm90_wgmma_ws_narrow_variant(64);
    v128.thread_loads = v64.thread_loads = loads == WsLoads::threads;
    v128.row_classes = v64.row_classes = loads == WsLoads::row_classes;
    return {v128, v64};
  }
  // 64x64 with one consumer (the swap tiles' instance): half the bytes a SM takes in per output
  // element of 128x64's, for one round with SMs to spare. NOTES: run 157, 200x1500x3001 on the
  // copies: 19.8 us unsplit against 20.6 for 128x64 unsplit and 21.7 for the plan then (cuBLAS 34.6);
  // run 158: the 26 suite shapes whose plan it took, 1.069x cuBLAS (geomean) against 1.004x without.
  // Its stages hold two k-blocks (run 276: 418 -> 312 cycles a k-block).
  // Diagnosis only: TCGEMM_DIAG_NO_TILE64X64=1 plans without it, to time the plans it replaced;
  // TCGEMM_DIAG_TILE64X64_S14=1 plans it with the 14 one-k-block stages it had before.
  static const bool no_64x64 = diag_flag("TCGEMM_DIAG_NO_TILE64X64");
  static const bool s14 = diag_flag("TCGEMM_DIAG_TILE64X64_S14");
  if (no_64x64 || loads == WsLoads::in_copy)
    return {Sm90WsVariant{}, sm90_wgmma_ws_narrow_variant(128), sm90_wgmma_ws_narrow_variant(64)};
  return {Sm90WsVariant{}, sm90_wgmma_ws_narrow_variant(128), sm90_wgmma_ws_narrow_variant(64),
          s14 ? sm90_wgmma_ws_narrow_variant(64, 1) : kSm90Ws64x64TwoKBlocks};
}

}  // namespace

namespace {

// The planner's model of variant v (analysis/split_model.hpp); tile_m 0 where v is not compiled.
SplitPassTile pass_tile(DType input, Sm90WsVariant v) {
  const Sm90WsShape s = sm90_wgmma_ws_shape(input, v);
  SplitPassTile t{s.tile_m, s.tile_n, s.tile_k, split_tile_efficiency(v.tile_n), 0.0, v.thread_loads, 0.0};
  if (v.row_classes) {
    t.load_kblock_seconds = s.tile_n >= 128 ? kRowClassKBlockSeconds : kRowClassNarrowKBlockSeconds;
    t.extra_fill_us = kRowClassFillUs;
  }
  return t;
}

}  // namespace

double split_k_model_us(const GemmDesc& g, DType input, Sm90WsVariant v, int splits, int sm_count) {
  const SplitPassTile t = pass_tile(input, v);
  if (t.tile_m == 0) return 1e30;
  return split_pass_model_us(g.m, g.n, g.k, input == DType::tf32 ? 4.0 : 2.0, input == DType::tf32 ? 495e12 : 989e12, t,
                             splits, sm_count);
}

namespace {

bool same_matrix(const MatrixDesc& x, const MatrixDesc& y) {
  return x.dtype == y.dtype && x.layout == y.layout && x.ld == y.ld && x.pointer_alignment == y.pointer_alignment;
}

bool same_problem(const GemmDesc& x, const GemmDesc& y) {
  return x.m == y.m && x.n == y.n && x.k == y.k && same_matrix(x.a, y.a) && same_matrix(x.b, y.b) &&
         same_matrix(x.c, y.c) && same_matrix(x.d, y.d) && x.accumulate == y.accumulate && x.alpha == y.alpha &&
         x.beta == y.beta;
}

SplitKPlan make_plan(const GemmDesc& g, DType input, int sm_count, WsLoads loads);

}  // namespace

// supports(), workspace_bytes() and launch() each ask for the plan of the same problem; a search
// costs ~2 us of host time (measured on the build machine), as much as a small GEMM's launch.
SplitKPlan plan_split_k(const GemmDesc& g, DType input, int sm_count, WsLoads loads) {
  struct Last {
    bool valid = false;
    GemmDesc g;
    DType input = DType::bf16;
    int sms = 0, forced = 0;
    uint64_t tuned = 0;  // the tuned table's generation the plan was made under
    SplitKPlan plan;
  };
  thread_local Last last[4];  // by WsLoads
  Last& l = last[static_cast<int>(loads)];
  const int forced = forced_split_k();
  const uint64_t tuned = tuned_split_plans_generation();
  if (l.valid && l.input == input && l.sms == sm_count && l.forced == forced && l.tuned == tuned && same_problem(l.g, g))
    return l.plan;
  l = Last{true, g, input, sm_count, forced, tuned, make_plan(g, input, sm_count, loads)};
  return l.plan;
}

namespace {

SplitKPlan make_plan(const GemmDesc& g, DType input, int sm_count, WsLoads loads) {
  std::vector<Sm90WsVariant> candidates = split_k_candidates(loads);
  SplitPassTile tiles[5];
  bool allowed[5] = {};
  const int count = static_cast<int>(std::min<std::size_t>(candidates.size(), 4));
  for (int i = 0; i < count; ++i) {
    candidates[i] = for_problem(candidates[i], g, input);
    tiles[i] = pass_tile(input, candidates[i]);
    allowed[i] = tiles[i].tile_m > 0 && sm90_wgmma_ws_supports(g, input, candidates[i]).ok();
  }
  // The 128x64 tile unsplit in 1x2 multicast pairs sharing A: where 128-row tiles of a long K
  // already fill the SMs, it ran 5-7% ahead of the split plans by name on the H100 (runs 255-256),
  // and as gemm()'s plan 2.5-8% ahead from K = 12288 on at M = 128, N = 8192 (runs 257-258). TMA
  // plans only.
  const Sm90WsVariant pair_variant = sm90_wgmma_ws_narrow_variant(64);
  constexpr Sm90Multicast kPair{1, 2};
  int total = count;
  if (loads == WsLoads::tma) {
    tiles[total] = pass_tile(input, pair_variant);
    tiles[total].a_share = 2;
    tiles[total].max_splits = 1;
    allowed[total] = tiles[total].tile_m > 0 && sm90_wgmma_ws_multicast_supports(g, input, pair_variant, kPair).ok();
    ++total;
  }
  // A tuned plan (tuning.hpp) for this problem: its tile at its split count, where the tile is a
  // TMA candidate that supports the problem; a forced count (the profiler's) still wins.
  std::optional<TunedSplitPlan> tuned;
  if (loads == WsLoads::tma && forced_split_k() == 0) tuned = find_tuned_split_plan(g);
  int tuned_tile = -1;
  for (int i = 0; tuned && i < count; ++i)
    if (allowed[i] && tiles[i].tile_m == tuned->tile_m && tiles[i].tile_n == tuned->tile_n) tuned_tile = i;
  if (tuned_tile >= 0)
    for (int i = 0; i < total; ++i) allowed[i] = i == tuned_tile;
  const SplitPassPlan p = best_split_pass(g.m, g.n, g.k, input == DType::tf32 ? 4.0 : 2.0,
                                          input == DType::tf32 ? 495e12 : 989e12, tiles, allowed, total, sm_count,
                                          tuned_tile >= 0 ? tuned->splits : forced_split_k());
  if (p.tile < 0 || p.us >= 1e30) {
    SplitKPlan none;
    none.predicted_us = 1e30;
    return none;
  }
  const bool pair = p.tile == count;
  SplitKPlan best = plan_of(p, pair ? pair_variant : candidates[static_cast<std::size_t>(p.tile)], g);
  if (pair) best.mc = kPair;
  if (tuned_tile >= 0) best.tuned_us = tuned->measured_us > 0 ? tuned->measured_us : -1;
  return best;
}

}  // namespace

std::vector<SplitKPlan> split_k_tile_plans(const GemmDesc& g, DType input, int sm_count, int per_tile) {
  std::vector<SplitKPlan> out;
  const std::vector<Sm90WsVariant> candidates = split_k_candidates(WsLoads::tma);
  const double eb = input == DType::tf32 ? 4.0 : 2.0, peak = input == DType::tf32 ? 495e12 : 989e12;
  for (Sm90WsVariant v : candidates) {
    v = for_problem(v, g, input);
    const SplitPassTile t = pass_tile(input, v);
    if (t.tile_m == 0 || !sm90_wgmma_ws_supports(g, input, v).ok()) continue;
    const bool allowed = true;
    const int64_t k_blocks = std::max<int64_t>(1, (g.k + t.tile_k - 1) / t.tile_k);
    const int cap = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(64, k_blocks / 2)));
    std::vector<SplitKPlan> tile;
    for (int s = 1; s <= cap; ++s) {
      const SplitPassPlan p = best_split_pass(g.m, g.n, g.k, eb, peak, &t, &allowed, 1, sm_count, s);
      if (p.tile < 0 || p.splits != s) continue;  // a count that gives a smaller count's split
      tile.push_back(plan_of(p, v, g));
    }
    std::sort(tile.begin(), tile.end(), [](const SplitKPlan& a, const SplitKPlan& b) { return a.predicted_us < b.predicted_us; });
    if (static_cast<int>(tile.size()) > per_tile) tile.resize(static_cast<std::size_t>(std::max(per_tile, 0)));
    out.insert(out.end(), tile.begin(), tile.end());
  }
  return out;
}

namespace {

template <class... Args>
void append_format(std::string& out, const char* format, Args... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, format, args...);
  out += buf;
}

}  // namespace

std::string describe(const SplitKPlan& p) {
  if (p.predicted_us >= 1e30) return "no split-K tile supports this problem";
  std::string out;
  if (p.tuned_us > 0) append_format(out, "tuned (measured %.1f us): ", p.tuned_us);
  if (p.tuned_us < 0) out += "tuned: ";
  append_format(out, "tile %s%s, %d K slice%s of %d k-blocks, %d CTAs; model %.1f us", to_string(p.variant).c_str(),
                p.mc.n > 1 ? " in 1x2 multicast pairs sharing A" : "", p.splits, p.splits == 1 ? "" : "s",
                p.k_blocks_per_split, p.ctas, p.predicted_us);
  const SplitPassTerms& t = p.terms;
  if (t.total_us <= 0) return out;
  append_format(out, " = pass %.1f, bound by %s (a CTA: %lld round%s x %lld k-blocks x %.2f us [loads %.2f, MMAs %.2f] = %.1f;",
                t.pass_us(), t.binding(), static_cast<long long>(t.rounds), t.rounds == 1 ? "" : "s",
                static_cast<long long>(t.k_blocks_per_cta), std::max(t.load_kblock_us, t.mma_kblock_us), t.load_kblock_us,
                t.mma_kblock_us, t.cta_us);
  append_format(out, " L2 %.1f; DRAM %.1f) + launch %.1f", t.l2_us, t.dram_us, t.launch_us);
  if (t.fill_us > 0) append_format(out, " + fill %.1f", t.fill_us);
  if (t.slabs_us > 0) append_format(out, " + slabs %.1f + the reduce's launch %.1f", t.slabs_us, t.reduce_launch_us);
  // The rates are the H200's fit: where the live part's DRAM peak differs by more than 10%, the
  // DRAM term is not this part's (on the H100 it reads below the bytes over its peak).
  const double gbs = current_device_mem_bandwidth_gbs();
  if (gbs > 0 && std::abs(gbs / kSplitModelFitPeakGbs - 1.0) > 0.10)
    append_format(out, "; the model's rates are fitted on the H200 (%.0f GB/s of DRAM), this part has %.0f GB/s",
                  kSplitModelFitPeakGbs, gbs);
  return out;
}

Status sm90_wgmma_ws_launch_plan(const GemmArgs& args, DType input, const SplitKPlan& p) {
  if (p.predicted_us >= 1e30) return Status::unsupported("no split-K tile supports this problem");
  if (p.mc.n > 1) return sm90_wgmma_ws_launch_multicast(args, input, p.variant, p.mc);
  if (p.splits <= 1) return sm90_wgmma_ws_launch(args, input, true, p.variant);
  return sm90_wgmma_ws_run_split_k(args, input, p.variant, p.splits, p.k_blocks_per_split);
}

Status sm90_wgmma_ws_planned_launch(const GemmArgs& args, DType input, WsLoads loads) {
  return sm90_wgmma_ws_launch_plan(args, input, plan_split_k(args.desc, input, current_sm_count(), loads));
}

namespace {
std::atomic<int64_t> g_in_copy_launches{0};
}  // namespace

int64_t sm90_in_copy_launches() { return g_in_copy_launches.load(); }

Status sm90_wgmma_ws_planned_launch_in_copy(const GemmArgs& args, DType input, const InCopy& copy) {
  const SplitKPlan p = plan_split_k(args.desc, input, current_sm_count(), WsLoads::in_copy);
  if (p.predicted_us >= 1e30) return Status::unsupported("no split-K tile supports this problem");
  if (p.ctas > current_sm_count())
    return Status(StatusCode::internal, "in-kernel copies need one round of CTAs (the plan has " +
                                            std::to_string(p.ctas) + ")");
  Sm90WsVariant v = p.variant;
  v.in_copy = true;
  g_in_copy_launches.fetch_add(1);
  if (p.splits <= 1) return sm90_wgmma_ws_launch(args, input, true, v, &copy);
  return sm90_wgmma_ws_run_split_k(args, input, v, p.splits, p.k_blocks_per_split, &copy);
}

}  // namespace tcgemm
