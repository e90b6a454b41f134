#include "kernels/sm90/split_k.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "kernels/common/launch_attributes.hpp"
#include "kernels/common/splitk_reduce.hpp"
#include "kernels/sm90/wgmma_tma_ws.hpp"

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
  return static_cast<std::size_t>(splits) * static_cast<std::size_t>(g.m) * static_cast<std::size_t>(g.n) *
         sizeof(float);
}

Status sm90_wgmma_ws_splitk_launch(const GemmArgs& args, DType input, Sm90WsVariant v) {
  const int splits = choose_splits(args.desc, current_sm_count(), v);
  if (splits <= 1) return sm90_wgmma_ws_launch(args, input, true, v);
  return sm90_wgmma_ws_run_split_k(args, input, v, splits, split_k_blocks_per_split(args.desc, splits, v));
}

Status sm90_wgmma_ws_run_split_k(const GemmArgs& args, DType input, Sm90WsVariant v, int splits,
                                 int k_blocks_per_split, const InCopy* copy) {
  const GemmDesc& g = args.desc;
  const std::size_t need = static_cast<std::size_t>(splits) * static_cast<std::size_t>(g.m) *
                           static_cast<std::size_t>(g.n) * sizeof(float);
  if (args.workspace == nullptr || args.workspace_bytes < need)
    return Status(StatusCode::workspace_too_small,
                  "split-K with " + std::to_string(splits) + " splits needs " + std::to_string(need) +
                      " bytes of workspace (splits*M*N*4); got " + std::to_string(args.workspace_bytes));
  if (reinterpret_cast<uintptr_t>(args.workspace) % 16 != 0)
    return Status(StatusCode::misaligned, "split-K: the workspace must be 16-byte aligned (f32 slabs, float4 reads)");
  if (args.d == nullptr || (g.beta != 0.0f && args.c == nullptr))
    return Status::invalid("D (and C when beta != 0) must be non-null");
  float* partials = static_cast<float*>(args.workspace);
  if (Status st = sm90_wgmma_ws_launch_partials(args, input, k_blocks_per_split, splits, partials, v, copy); !st.ok())
    return st;
  // Diagnosis only (D is left unwritten): TCGEMM_DIAG_SKIP_REDUCE=1 times the split pass without its
  // reduce, to price the reduce on a real timeline (PDL, slabs in L2) rather than under ncu.
  static const bool skip_reduce = [] {
    const char* e = std::getenv("TCGEMM_DIAG_SKIP_REDUCE");
    return e != nullptr && *e == '1';
  }();
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

// Fraction of the dense MMA peak one CTA of each tile sustains in its main loop (run 13 fit: the
// 128x256 kernels' ~650 TFLOP/s on full waves, the narrower tiles' measured per-k-block times).
double tile_efficiency(Sm90WsVariant v) { return v.tile_n >= 256 ? 0.68 : v.tile_n >= 128 ? 0.62 : 0.55; }

constexpr double kSmL2Bytes = 90e9;     // what one SM's TMA loads sustain from L2 (s4 points, run 13)
// What the producer's thread loads sustain a SM with every SM loading: 1000x1000x1001's 128 CTAs
// ran 16 k-blocks of 24 KB in ~38 of its 40.4 us (run 80), ~10 GB/s.
constexpr double kSmThreadLoadBytes = 10e9;
// A row-class k-block (TMA's 16 small boxes, then the realign warps' 4-byte loads and funnel
// shifts): 0.84-0.87 us at 128x8192x28673 and ~0.8 at 64x8192x8193 (128x128, traced; session 13,
// calls 3 and 5); 1.5 us with session 12's loader. The narrow tile's 1.0 is inferred, not traced: the
// totals of 333x777x4099 at 1-3 forced splits less the fill, launches and slabs give ~0.85-1.0 us a
// k-block, and the profile does not record which tile the plan took. It is not the realign's work
// (call 6: with its loads and stores skipped, 128x8192x28673 ran 215 us against 232), so a narrower
// tile saves little.
constexpr double kRowClassKBlockSeconds = 0.9e-6, kRowClassNarrowKBlockSeconds = 1.0e-6;
// ...and its first stage comes ~4 us later than TMA's on aligned operands: a median of 4.6-4.9 us
// after the PDL wait (session 13, the traces of calls 3 and 5) against 0.77.
constexpr double kRowClassFillUs = 4.5;
// The three rates below are fitted, not measured directly:
// - L2: a 128x64 tile x 128 CTAs re-reading a 7 MB A panel at 128x8192x28672 moved 1.41 GB in
//   155 us end to end (run 14), 9.1 TB/s; 9.5 leaves room for the launch and fill in those 155 us.
// - DRAM: 128x256 x4 streamed 470 MB of B there in 138-141 us with its slabs and reduce, 3.4 TB/s
//   end to end; 3.6 once those are charged separately.
// - Slabs: chosen so that V128 x32 loses to V64 x16 at 256x256x65536 by about what run 13 measured
//   (33.2 against 28.9 us), with the old, slower reduce pass.
constexpr double kL2Bytes = 9.5e12;
constexpr double kDramBytes = 3.6e12;
constexpr double kSlabBytes = 3.2e12;
constexpr double kLaunchUs = 2.0;       // a kernel's fill/drain and launch gap on the timeline

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

std::vector<Sm90WsVariant> split_k_candidates(WsLoads loads) {
  if (loads != WsLoads::tma) {
    Sm90WsVariant v128 = sm90_wgmma_ws_narrow_variant(128), v64 = sm90_wgmma_ws_narrow_variant(64);
    v128.thread_loads = v64.thread_loads = loads == WsLoads::threads;
    v128.row_classes = v64.row_classes = loads == WsLoads::row_classes;
    return {v128, v64};
  }
  return {Sm90WsVariant{}, sm90_wgmma_ws_narrow_variant(128), sm90_wgmma_ws_narrow_variant(64)};
}

}  // namespace

double split_k_model_us(const GemmDesc& g, DType input, Sm90WsVariant v, int splits, int sm_count) {
  const Sm90WsShape s = sm90_wgmma_ws_shape(input, v);
  if (s.tile_m == 0) return 1e30;
  const int64_t tiles = cdiv(g.m, s.tile_m) * cdiv(g.n, s.tile_n);
  const int64_t k_blocks = std::max<int64_t>(1, cdiv(g.k, s.tile_k));
  const int64_t per = cdiv(k_blocks, std::max(splits, 1));
  const int64_t used = cdiv(k_blocks, per);
  const int64_t ctas = tiles * used;
  const int64_t sms = std::max(sm_count, 1);
  const int64_t rounds = cdiv(ctas, sms);
  const double elem = input == DType::tf32 ? 4.0 : 2.0;
  const double peak_sm = (input == DType::tf32 ? 495e12 : 989e12) / 132.0;
  const double mma_kb = 2.0 * s.tile_m * s.tile_n * s.tile_k / (peak_sm * tile_efficiency(v));
  const double load_kb =
      v.row_classes ? (s.tile_n >= 128 ? kRowClassKBlockSeconds : kRowClassNarrowKBlockSeconds)
                    : static_cast<double>(s.tile_m + s.tile_n) * s.tile_k * elem / (v.thread_loads ? kSmThreadLoadBytes : kSmL2Bytes);
  const double cta = static_cast<double>(per) * std::max(mma_kb, load_kb);
  const double dram = (static_cast<double>(g.m) + static_cast<double>(g.n)) * static_cast<double>(g.k) * elem / kDramBytes;
  // Every CTA loads all of its stages: the narrow tiles re-read the other operand's panel.
  const double l2 = static_cast<double>(ctas) * static_cast<double>(per) * static_cast<double>(s.tile_m + s.tile_n) *
                    s.tile_k * elem / kL2Bytes;
  double t = std::max({static_cast<double>(rounds) * cta, dram, l2}) * 1e6 + kLaunchUs + (v.row_classes ? kRowClassFillUs : 0.0);
  if (used > 1) t += 2.0 * static_cast<double>(used) * static_cast<double>(g.m) * static_cast<double>(g.n) * 4.0 / kSlabBytes * 1e6 + kLaunchUs;
  return t;
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
    SplitKPlan plan;
  };
  thread_local Last last[3];  // by WsLoads
  Last& l = last[static_cast<int>(loads)];
  const int forced = forced_split_k();
  if (l.valid && l.input == input && l.sms == sm_count && l.forced == forced && same_problem(l.g, g)) return l.plan;
  l = Last{true, g, input, sm_count, forced, make_plan(g, input, sm_count, loads)};
  return l.plan;
}

namespace {

SplitKPlan make_plan(const GemmDesc& g, DType input, int sm_count, WsLoads loads) {
  SplitKPlan best;
  best.predicted_us = 1e30;
  for (const Sm90WsVariant v : split_k_candidates(loads)) {
    if (!sm90_wgmma_ws_supports(g, input, v).ok()) continue;
    const int64_t k_blocks = k_blocks_of(g, v);
    const int64_t cap = std::max<int64_t>(1, std::min<int64_t>(64, k_blocks / 2));
    const int forced = forced_split_k();
    for (int64_t s = forced > 0 ? forced : 1; s <= (forced > 0 ? forced : cap); ++s) {
      const int per = split_k_blocks_per_split(g, static_cast<int>(s), v);
      const int used = static_cast<int>(cdiv(k_blocks, per));
      if (forced == 0 && used != s) continue;  // the same split as a smaller count
      const double t = split_k_model_us(g, input, v, used, sm_count);
      // A larger tile or fewer splits must lose by 2% to be passed over: the model is coarse.
      if (t < best.predicted_us * 0.98) {
        const Sm90WsShape sh = sm90_wgmma_ws_shape(input, v);
        best.variant = v;
        best.splits = used;
        best.k_blocks_per_split = per;
        best.ctas = static_cast<int>(cdiv(g.m, sh.tile_m) * cdiv(g.n, sh.tile_n) * used);
        best.predicted_us = t;
        best.workspace_bytes = used > 1 ? static_cast<std::size_t>(used) * static_cast<std::size_t>(g.m) *
                                              static_cast<std::size_t>(g.n) * sizeof(float)
                                        : 0;
      }
    }
  }
  return best;
}

}  // namespace

std::string describe(const SplitKPlan& p) {
  if (p.predicted_us >= 1e30) return "no split-K tile supports this problem";
  char buf[160];
  std::snprintf(buf, sizeof buf, "tile %s, %d K slice%s of %d k-blocks, %d CTAs; model %.1f us", to_string(p.variant).c_str(),
                p.splits, p.splits == 1 ? "" : "s", p.k_blocks_per_split, p.ctas, p.predicted_us);
  return buf;
}

Status sm90_wgmma_ws_planned_launch(const GemmArgs& args, DType input, WsLoads loads) {
  const SplitKPlan p = plan_split_k(args.desc, input, current_sm_count(), loads);
  if (p.predicted_us >= 1e30) return Status::unsupported("no split-K tile supports this problem");
  if (p.splits <= 1) return sm90_wgmma_ws_launch(args, input, true, p.variant);
  return sm90_wgmma_ws_run_split_k(args, input, p.variant, p.splits, p.k_blocks_per_split);
}

namespace {
std::atomic<int64_t> g_in_copy_launches{0};
}  // namespace

int64_t sm90_in_copy_launches() { return g_in_copy_launches.load(); }

Status sm90_wgmma_ws_planned_launch_in_copy(const GemmArgs& args, DType input, const InCopy& copy) {
  const SplitKPlan p = plan_split_k(args.desc, input, current_sm_count());
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
