#include <cstdlib>

#include "analysis/path_rules.hpp"
#include "analysis/split_model.hpp"
#include "core/diag_flag.hpp"
#include "kernels/common/repack.hpp"
#include "kernels/common/tile_counters.hpp"
#include "kernels/sm90/pc_repack.hpp"
#include "kernels/sm90/pc_split_k.hpp"
#include "kernels/sm90/pc_swap.hpp"
#include "kernels/sm90/multicast.hpp"
#include "kernels/sm90/peel.hpp"
#include "kernels/sm90/split_k.hpp"
#include "kernels/sm90/swap_ab.hpp"
#include "kernels/sm90/swap_steal.hpp"
#include "kernels/sm90/skinny_gemm.hpp"
#include "kernels/sm90/tiny_gemm.hpp"
#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "kernels/sm90/wgmma_ws_persistent_cluster.hpp"
#include "kernels/sm90/wgmma_ws_pingpong.hpp"
#include "kernels/sm90/wgmma_ws_streamk.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {

KernelEntry wgmma_entry(std::string_view name, DType input, const Sm90WsShape& s) {
  KernelEntry e;
  e.name = name;
  e.min_sm = 90;
  e.family = MmaFamily::wgmma;
  e.input = input;
  e.tile_m = s.tile_m;
  e.tile_n = s.tile_n;
  e.tile_k = s.tile_k;
  e.stages = s.stages;
  e.threads = s.threads;
  return e;
}

namespace {

// kDirectStore: the `_ds` instances, which store a row-major 16-bit D (beta == 0) straight from
// registers. The plain 128x256 s4 `_ws` kernel keeps the staged epilogue to be measured against
// them; the other tile variants store from registers wherever the `_ds` rule allows.
// V: the tile variant of wgmma_tma_ws.cu (128x256 s4 unless a sweep point or narrow tile).
template <DType In, bool kDirectStore = false, Sm90WsVariant V = Sm90WsVariant{}>
KernelEntry ws_entry(std::string_view name) {
  KernelEntry e = wgmma_entry(name, In, sm90_wgmma_ws_shape(In, V));
  e.supports = [](const GemmDesc& g) { return sm90_wgmma_ws_supports(g, In, V); };
  e.launch = [](const GemmArgs& a) { return sm90_wgmma_ws_launch(a, In, kDirectStore || !(V == Sm90WsVariant{}), V); };
  e.function = [] { return sm90_wgmma_ws_function(In, kDirectStore, V); };
  if (!(V == Sm90WsVariant{})) e.preference = 0;  // the tile family: by name until measured to win
  e.workspace_bytes = nullptr;
  return e;
}

// Bytes the copies move, read plus written (the workspace holds what is written).
std::size_t repack_copy_bytes(const GemmDesc& g) { return 2 * plan_tma_repack(g).workspace_bytes; }

// The repack composite: exactly the problems the plain kernel refuses for TMA's 16-byte rule. The
// copies run inside launch(), so every timing of this entry includes them.
template <DType In>
Status repack_supports(const GemmDesc& g) {
  const Status plain = sm90_wgmma_ws_supports(g, In);
  if (plain.ok())
    return Status::unsupported("A and B already meet TMA's 16-byte rule; the plain kernel runs this problem "
                               "without a copy");
  if (plain.code() != StatusCode::misaligned) return plain;
  return sm90_wgmma_ws_supports(repacked_desc(g, plan_tma_repack(g)), In);
}

template <DType In>
Status repack_launch(const GemmArgs& args) {
  Result<GemmArgs> copied = apply_tma_repack(args);
  if (!copied.ok()) return copied.status();
  return sm90_wgmma_ws_launch(copied.value(), In);
}

template <DType In>
KernelEntry repack_entry(std::string_view name) {
  KernelEntry e = ws_entry<In>(name);
  e.supports = &repack_supports<In>;
  e.workspace_bytes = [](const GemmDesc& g) { return plan_tma_repack(g).workspace_bytes; };
  e.copy_bytes = &repack_copy_bytes;
  e.launch = &repack_launch<In>;
  return e;
}

// The workspace of a repack path: the copies, 256-aligned (as repack_before_split lays them out),
// then `rest` bytes for what runs on them.
std::size_t copies_then(const GemmDesc& g, std::size_t rest) {
  return (plan_tma_repack(g).workspace_bytes + 255) / 256 * 256 + rest;
}

// Repack then split-K (unaligned and small M*N with long K, e.g. 256x256x65537): the slabs follow
// the copies in the workspace. V: the tile the split-K pass runs (128x256 unless named).
template <DType In, Sm90WsVariant V = Sm90WsVariant{}>
std::size_t repack_splitk_workspace(const GemmDesc& g) {
  return copies_then(g, sm90_wgmma_ws_splitk_workspace(repacked_desc(g, plan_tma_repack(g)), V));
}

// The copies, then the arguments for what runs on them: the rest of the workspace (256-aligned)
// follows the copies.
Result<GemmArgs> repack_before_split(const GemmArgs& args, DeferredCopies* deferred = nullptr) {
  std::size_t used = 0;
  Result<GemmArgs> copied = apply_tma_repack(args, &used, deferred);
  if (!copied.ok()) return copied.status();
  GemmArgs next = copied.value();
  const std::size_t offset = (used + 255) / 256 * 256;
  next.workspace = args.workspace == nullptr ? nullptr : static_cast<char*>(args.workspace) + offset;
  next.workspace_bytes = args.workspace_bytes > offset ? args.workspace_bytes - offset : 0;
  return next;
}

template <DType In, Sm90WsVariant V = Sm90WsVariant{}>
Status repack_splitk_launch(const GemmArgs& args) {
  Result<GemmArgs> next = repack_before_split(args);
  if (!next.ok()) return next.status();
  return sm90_wgmma_ws_splitk_launch(next.value(), In, V);
}

template <DType In, Sm90WsVariant V = Sm90WsVariant{}>
Status repack_splitk_supports(const GemmDesc& g) {
  if (Status s = repack_supports<In>(g); !s.ok()) return s;
  const GemmDesc r = repacked_desc(g, plan_tma_repack(g));
  if (Status s = sm90_wgmma_ws_splitk_supports(r, In, V); !s.ok()) return s;
  if (forced_split_k() == 0 && choose_splits(r, current_sm_count(), V) <= 1)
    return Status::unsupported("split-K would not split: the tiles already fill the SMs (the repack path serves it)");
  // NOTES: measured (bench/NOTES.md, run 12): with few k-blocks a tile the slabs and the reduce
  // cost more than idle SMs do: 1000x1000x1001 (16 k-blocks) ran 1.16x cuBLAS split against 1.31x
  // through the cluster kernel unsplit; 333x777x4099 (65 k-blocks) 0.88x split against 0.59x.
  if (forced_split_k() == 0 && (g.k + 63) / 64 < 32)
    return Status::unsupported("fewer than 32 k-blocks: split-K's slabs and reduce cost more than the idle SMs "
                               "(the repack path serves it)");
  return Status::success();
}

template <DType In, Sm90WsVariant V = Sm90WsVariant{}>
KernelEntry repack_splitk_entry(std::string_view name) {
  KernelEntry e = ws_entry<In, false, V>(name);
  e.preference = 0;  // by name: the planned entry (128xN) picks the tile and splits
  e.supports = &repack_splitk_supports<In, V>;
  e.copy_bytes = &repack_copy_bytes;
  e.split_k = [](const GemmDesc& g) {
    return choose_splits(repacked_desc(g, plan_tma_repack(g)), current_sm_count(), V);
  };
  e.workspace_bytes = &repack_splitk_workspace<In, V>;
  e.launch = &repack_splitk_launch<In, V>;
  return e;
}

template <DType In, Sm90WsVariant V = Sm90WsVariant{}>
KernelEntry splitk_entry(std::string_view name) {
  KernelEntry e = ws_entry<In, false, V>(name);
  e.preference = 0;  // by name: the planned entry (128xN) picks the tile and splits
  e.supports = [](const GemmDesc& g) -> Status {
    if (Status s = sm90_wgmma_ws_splitk_supports(g, In, V); !s.ok()) return s;
    if (forced_split_k() == 0 && choose_splits(g, current_sm_count(), V) <= 1)
      return Status::unsupported("split-K would not split: the tiles already fill the SMs (the plain kernel serves it)");
    return Status::success();
  };
  e.workspace_bytes = [](const GemmDesc& g) { return sm90_wgmma_ws_splitk_workspace(g, V); };
  e.split_k = [](const GemmDesc& g) { return choose_splits(g, current_sm_count(), V); };
  e.launch = [](const GemmArgs& a) { return sm90_wgmma_ws_splitk_launch(a, In, V); };
  return e;
}

// The planned path (split_k.hpp plan_split_k): the tile (128x256, 128x128, 128x64 or 64x64) and split
// count the time model picks, for problems whose plan fits in one round of CTAs (small M*N: long K
// or few tiles). Preference 3, as split-K had; it declines when the plan is the 128x256 tile
// unsplit (the plain and cluster kernels serve that) or needs more than one round.
// The tile a plan runs, for explain --measure's prediction of a planned entry (not the 128x256 the
// entry is registered with).
std::pair<int, int> plan_tile(const SplitKPlan& p) { return {64 * p.variant.consumers, p.variant.tile_n}; }

Status planned_fits(const SplitKPlan& p, const char* who) {
  if (p.predicted_us >= 1e30) return Status::unsupported("no split-K tile supports this problem");
  if (p.splits <= 1 && p.variant == Sm90WsVariant{})
    return Status::unsupported(std::string("the plan is the 128x256 tile unsplit: ") + who + " serves it");
  if (forced_split_k() == 0 && p.ctas > current_sm_count())
    return Status::unsupported("the plan needs more than one round of CTAs: the persistent kernels serve it");
  return Status::success();
}

template <DType In>
KernelEntry planned_entry(std::string_view name) {
  KernelEntry e = ws_entry<In>(name);
  e.preference = 3;
  e.supports = [](const GemmDesc& g) -> Status {
    if (Status s = sm90_wgmma_ws_supports(g, In); !s.ok()) return s;
    return planned_fits(plan_split_k(g, In, current_sm_count()), "the plain kernel");
  };
  e.workspace_bytes = [](const GemmDesc& g) { return plan_split_k(g, In, current_sm_count()).workspace_bytes; };
  e.split_k = [](const GemmDesc& g) { return plan_split_k(g, In, current_sm_count()).splits; };
  e.tile_for = [](const GemmDesc& g) { return plan_tile(plan_split_k(g, In, current_sm_count())); };
  e.launch = [](const GemmArgs& a) { return sm90_wgmma_ws_planned_launch(a, In); };
  e.describe = [](const GemmDesc& g) { return describe(plan_split_k(g, In, current_sm_count())); };
  return e;
}

// The plan for the repacked problem (the copies' aligned ld's): WsLoads::in_copy for the fused
// entry, over the tiles that have in-copy instances (the same plan whether the grid or the copies
// kernel copies).
template <DType In>
SplitKPlan repacked_plan(const GemmDesc& g, WsLoads loads = WsLoads::tma) {
  return plan_split_k(repacked_desc(g, plan_tma_repack(g)), In, current_sm_count(), loads);
}

template <DType In>
KernelEntry planned_repack_entry(std::string_view name) {
  KernelEntry e = ws_entry<In>(name);
  e.preference = 3;
  e.supports = [](const GemmDesc& g) -> Status {
    if (Status s = repack_supports<In>(g); !s.ok()) return s;
    return planned_fits(repacked_plan<In>(g), "the repack path");
  };
  e.copy_bytes = &repack_copy_bytes;
  e.split_k = [](const GemmDesc& g) { return repacked_plan<In>(g).splits; };
  e.tile_for = [](const GemmDesc& g) { return plan_tile(repacked_plan<In>(g)); };
  e.workspace_bytes = [](const GemmDesc& g) { return copies_then(g, repacked_plan<In>(g).workspace_bytes); };
  e.launch = [](const GemmArgs& args) -> Status {
    Result<GemmArgs> next = repack_before_split(args);
    if (!next.ok()) return next.status();
    return sm90_wgmma_ws_planned_launch(next.value(), In);
  };
  e.describe = [](const GemmDesc& g) { return "repack A/B, then " + describe(repacked_plan<In>(g)); };
  return e;
}

// The planned repack path with the copies done by the GEMM's own grid (in_kernel_copy.hpp): each
// split's CTAs copy its K range of the misaligned operands, meet at a per-split counter, then run
// the plan on the copies. No copy launch: on a small problem the copies kernel is mostly its fixed
// ~4 us (run 148). Where the grid cannot (A column-major or B row-major, no counter buffer for the
// stream, a forced plan of more than one round) the copies kernel runs first, as in the
// `_repack_splitk` entry; the workspace is the same.
template <DType In>
Status fused_repack_launch(const GemmArgs& args) {
  DeferredCopies copies;
  Result<GemmArgs> next = repack_before_split(args, &copies);
  if (!next.ok()) return next.status();
  const GemmDesc& g = args.desc;
  const bool k_major = g.a.layout == Layout::row && g.b.layout == Layout::column;
  const int sms = current_sm_count();
  const bool one_round = plan_split_k(next.value().desc, In, sms, WsLoads::in_copy).ctas <= sms;
  // The counter buffer only where the grid copies (its first use a stream allocates and syncs).
  Result<uint32_t*> counters = k_major && one_round && copies.count > 0
                                   ? tile_counters(args.stream)
                                   : Result<uint32_t*>(Status::unsupported("the copies kernel serves it"));
  if (!counters.ok()) {
    if (Status s = launch_deferred_copies(copies, args.stream); !s.ok()) return s;
    return sm90_wgmma_ws_planned_launch(next.value(), In, WsLoads::in_copy);
  }
  InCopy c{};
  c.count = copies.count;
  c.counters = counters.value();
  for (int i = 0; i < copies.count; ++i) {
    const RepackJob& j = copies.job[i];
    if (j.line_length != g.k) return Status(StatusCode::internal, "in-kernel copies: K-major lines of K elements");
    c.op[i] = InCopyOperand{static_cast<const uint16_t*>(j.src), static_cast<uint16_t*>(j.dst), j.lines, j.ld_src,
                            j.ld_dst,
                            reinterpret_cast<uintptr_t>(j.src) +
                                static_cast<uintptr_t>(((j.lines - 1) * j.ld_src + j.line_length) * 2)};
  }
  return sm90_wgmma_ws_planned_launch_in_copy(next.value(), In, c);
}

template <DType In>
KernelEntry planned_fused_repack_entry(std::string_view name) {
  KernelEntry e = planned_repack_entry<In>(name);
  e.preference = 0;  // by name until measured against the copies kernel
  e.supports = [](const GemmDesc& g) -> Status {
    if (Status s = repack_supports<In>(g); !s.ok()) return s;
    return planned_fits(repacked_plan<In>(g, WsLoads::in_copy), "the repack path");
  };
  e.split_k = [](const GemmDesc& g) { return repacked_plan<In>(g, WsLoads::in_copy).splits; };
  e.tile_for = [](const GemmDesc& g) { return plan_tile(repacked_plan<In>(g, WsLoads::in_copy)); };
  e.workspace_bytes = [](const GemmDesc& g) {
    return copies_then(g, repacked_plan<In>(g, WsLoads::in_copy).workspace_bytes);
  };
  e.launch = &fused_repack_launch<In>;
  e.describe = [](const GemmDesc& g) {
    return "the grid copies A/B itself, then " + describe(repacked_plan<In>(g, WsLoads::in_copy));
  };
  return e;
}

// The fused entry where gemm() takes it (`_repack_fused_small`, preference 4, above the copies kernel's
// repack path): K-major A and B whose copies total at most kFusedCopyBytes, at most
// kFusedCopyBytesPerCta for each of the plan's CTAs. There the copies kernel's fixed cost is most of
// the copy, and the grid's own copies save it; but a few CTAs copying much lose to the copies
// kernel, which spreads the same bytes over every SM.
// NOTES: runs 155 and 162, one process each, µs, fused against the copies kernel and the same plan:
// 21x4x1457 11.4 against 14.6, 260x79x1508 13.4 against 16.4, 2x12x2006 11.9 against 15.4,
// 495x178x198 11.2 against 13.6, 196x511x198 10.6 against 12.2-14.3; lost 438x190x642 (14.8
// against 10.4-14.0), and from ~4 MB of copies up (1000x1000x1001: 14.1 against 12.0) the copy
// itself is the cost and the copies kernel moves it as fast.
// NOTES: run 166, the random suite through gemm() with and without the total-bytes gate: the 15
// shapes it moved went 0.931x -> 1.026x cuBLAS (geomean), but the three with 74-95 KB of copies a CTA
// lost (438x190x642 0.92 -> 0.72x, 90x676x573 1.23 -> 0.98x, 339x107x637 1.00 -> 0.95x) while
// every shape at <= 52 KB a CTA won or held (24x27x500: one CTA, 52 KB, 1.10 -> 1.51x).
constexpr std::size_t kFusedCopyBytes = std::size_t{1} << 20;
constexpr std::size_t kFusedCopyBytesPerCta = std::size_t{64} << 10;

template <DType In>
KernelEntry gated_fused_repack_entry(std::string_view name) {
  KernelEntry e = planned_fused_repack_entry<In>(name);
  e.preference = 4;
  e.supports = [](const GemmDesc& g) -> Status {
    // Diagnosis only: TCGEMM_DIAG_NO_FUSED_GATE=1 leaves these problems to the copies kernel, to time
    // gemm() with and without the gate.
    static const bool off = diag_flag("TCGEMM_DIAG_NO_FUSED_GATE");
    if (off) return Status::unsupported("TCGEMM_DIAG_NO_FUSED_GATE=1");
    if (g.a.layout != Layout::row || g.b.layout != Layout::column)
      return Status::unsupported("the grid copies K-major A and B only (A row-major, B column-major)");
    if (Status s = repack_supports<In>(g); !s.ok()) return s;
    const std::size_t copies = plan_tma_repack(g).workspace_bytes;
    if (copies > kFusedCopyBytes)
      return Status::unsupported("copies of " + std::to_string(copies) + " bytes: over " +
                                 std::to_string(kFusedCopyBytes) + " the copies kernel moves them as fast");
    const SplitKPlan p = repacked_plan<In>(g, WsLoads::in_copy);
    if (p.ctas > 0 && copies > kFusedCopyBytesPerCta * static_cast<std::size_t>(p.ctas))
      return Status::unsupported("copies of " + std::to_string(copies / static_cast<std::size_t>(p.ctas)) +
                                 " bytes a CTA over the plan's " + std::to_string(p.ctas) +
                                 " CTAs: the copies kernel spreads them over every SM");
    return planned_fits(p, "the repack path");
  };
  return e;
}

// Thread loads (thread_loads.cuh): the planned tile (128x128 or 128x64) with the producer's plain
// loads, for A/B that break TMA's 16-byte rule. One launch (two when split) where the repack path
// runs the copies first; each launch costs ~3-5 us of host time (run 72), as much as a tiny
// problem's whole GPU time. But the loads sustain ~10 GB/s a SM against TMA's ~90, so gemm() takes
// it only for one round of CTAs, unsplit, with at most kThreadLoadKBlocks k-blocks each
// (gate_thread_loads).
// NOTES: run 80, against the best repack path: it won all 12 misaligned random-suite shapes of 1-2
// k-blocks a CTA in one round (e.g. 78x1096x28 7.0 against 12.3 us, cuBLAS 8.4; 87x6819x47 9.2
// against 10.8) and lost 2413x3901x39 (9 rounds: 32.1 against 23.7), 1000x1000x1001 (16 k-blocks:
// 40.4 against 14.0) and 333x777x4099 (45.5 against 28.5). With 4-10 k-blocks it went both ways
// (42x40x456 won 11.4 to 12.2, 196x511x198 lost 13.9 to 9.9).
constexpr int kThreadLoadKBlocks = 2;

Status gate_thread_loads(const SplitKPlan& p) {
  if (p.predicted_us >= 1e30) return Status::unsupported("no thread-load tile supports this problem");
  if (forced_split_k() != 0) return Status::success();
  if (p.ctas > current_sm_count())
    return Status::unsupported("thread loads need one round of CTAs: the repack path's TMA loads serve more");
  if (p.splits > 1 || p.k_blocks_per_split > kThreadLoadKBlocks)
    return Status::unsupported("more than " + std::to_string(kThreadLoadKBlocks) +
                               " k-blocks, or a split: thread loads (~10 GB/s a SM) lose to the copies and TMA, or "
                               "were not measured against them");
  return Status::success();
}

template <DType In>
KernelEntry planned_thread_loads_entry(std::string_view name) {
  KernelEntry e = ws_entry<In>(name);
  e.preference = 5;  // above the repack paths, where gate_thread_loads admits the problem
  e.supports = [](const GemmDesc& g) -> Status {
    const Status tma = sm90_wgmma_ws_supports(g, In);
    if (tma.ok()) return Status::unsupported("A and B meet TMA's 16-byte rule: the TMA kernels serve it");
    if (tma.code() != StatusCode::misaligned) return tma;
    return gate_thread_loads(plan_split_k(g, In, current_sm_count(), WsLoads::threads));
  };
  e.workspace_bytes = [](const GemmDesc& g) { return plan_split_k(g, In, current_sm_count(), WsLoads::threads).workspace_bytes; };
  e.split_k = [](const GemmDesc& g) { return plan_split_k(g, In, current_sm_count(), WsLoads::threads).splits; };
  e.launch = [](const GemmArgs& a) { return sm90_wgmma_ws_planned_launch(a, In, WsLoads::threads); };
  e.describe = [](const GemmDesc& g) { return describe(plan_split_k(g, In, current_sm_count(), WsLoads::threads)); };
  return e;
}

// Row classes (tensor_map.hpp): the planned tile (128x128 or 128x64) reading K-major A and B whose ld
// or base breaks TMA's 16-byte rule through eight row-class maps each, so no copy runs first. For
// plans of one round (more rounds go to the repack path's persistent kernels) where the model puts
// it 5% below the copies (~3.6 TB/s read + write, plus ~1.5 us: the copies timed alone, session 14,
// call 5) and the repacked problem's own plan: its k-blocks cost ~0.9 us against ~0.4 through
// TMA on the copies (split_k.cu). The model is within 5% at 128x128 (256x256x65537 42.7 us against
// 46.2 measured, 128x8192x28673 216 against 224-228, 64x8192x8193 69.6 against 68.8-69.8; call 8) and
// undershoots where a CTA has few k-blocks (333x777x4099: 22 us predicted at 6 splits, 28.6 measured
// there in call 3), hence the margin.
// NOTES: session 13, call 3 (same process, verified; session 12's loader in brackets): 128x8192x28673
// 228 us [346] against 457 through the copies (cuBLAS 506); 64x8192x8193 69.6 [111] against 140;
// 333x777x4099 34.1 at 3 splits [40.6] against 27.5; 1000x1000x1001 21.7 unsplit [28.5] against 14.3;
// 256x256x65537 48.1 at 32 splits [80.7] against 76.4; call 8: 512x1024x32769 122.3 at 4 splits
// against 151.7.
// NOTES: session 14, call 5 (Sm90CliffsBench.SmallRepackParts): 1024x1024x8193's 67 MB in 18.9 us,
// 768x768x8193's 51 MB in 14.1, 333x777x4099's 18.3 MB in 6.2, 1000x1000x1001's 8.1 MB in 4.0 (read + write). The
// 2.9 TB/s and 3 us this replaced were fitted to totals whose GEMM on the copies ran up to 60% slow
// on the copies' 16-byte-past-128 pitch (repack.cu), so they charged the copies for the GEMM's loss.
// (kRepackBytesPerUs, kRepackLaunchUs, kRowClassMargin: analysis/split_model.hpp, shared with explain.)

template <DType In>
KernelEntry planned_row_class_entry(std::string_view name) {
  KernelEntry e = ws_entry<In>(name);
  e.preference = 4;  // above the repack paths (3) where its gate admits, below thread loads' (5)
  e.supports = [](const GemmDesc& g) -> Status {
    const Status tma = sm90_wgmma_ws_supports(g, In);
    if (tma.ok()) return Status::unsupported("A and B meet TMA's 16-byte rule: the TMA kernels serve it");
    if (tma.code() != StatusCode::misaligned) return tma;
    const SplitKPlan p = plan_split_k(g, In, current_sm_count(), WsLoads::row_classes);
    if (p.predicted_us >= 1e30)
      return Status::unsupported("row classes take K-major A and B only (A row-major, B column-major)");
    if (Status s = planned_fits(p, "the repack path"); !s.ok()) return s;
    if (forced_split_k() != 0) return Status::success();
    const double copies = static_cast<double>(repack_copy_bytes(g)) / kRepackBytesPerUs + kRepackLaunchUs;
    const double repacked = repacked_plan<In>(g).predicted_us;
    if (p.predicted_us > kRowClassMargin * (copies + repacked))
      return Status::unsupported("the copies then TMA are predicted faster (" + std::to_string(static_cast<int>(copies + repacked)) +
                                 " us against " + std::to_string(static_cast<int>(p.predicted_us)) +
                                 " us for row classes' ~0.9 us k-blocks)");
    return Status::success();
  };
  e.workspace_bytes = [](const GemmDesc& g) {
    return plan_split_k(g, In, current_sm_count(), WsLoads::row_classes).workspace_bytes;
  };
  e.split_k = [](const GemmDesc& g) { return plan_split_k(g, In, current_sm_count(), WsLoads::row_classes).splits; };
  e.launch = [](const GemmArgs& a) { return sm90_wgmma_ws_planned_launch(a, In, WsLoads::row_classes); };
  e.describe = [](const GemmDesc& g) {
    return "row-class TMA (no copy), " + describe(plan_split_k(g, In, current_sm_count(), WsLoads::row_classes));
  };
  return e;
}

// Wave peeling (peel.hpp): the full-tile core, then the partial strips through split-K; the
// repack copies first where A/B break TMA's rule. Only shapes where peeling saves a wave.
template <DType In>
KernelEntry peel_entry(std::string_view name) {
  KernelEntry e = ws_entry<In>(name);
  e.preference = 0;  // its cost model is not yet checked against the device
  e.supports = [](const GemmDesc& g) { return sm90_wgmma_ws_peel_supports(g, In); };
  e.workspace_bytes = [](const GemmDesc& g) { return sm90_wgmma_ws_peel_workspace(g); };
  e.launch = [](const GemmArgs& a) { return sm90_wgmma_ws_peel_launch(a, In); };
  return e;
}

// Swap-A/B onto a narrow tile (swap_ab.hpp): each width takes the M range it fits, K split inside
// where the tiles leave SMs idle. tile_m/tile_n are in the problem's coordinates: M by N.
// kPreference: 4 (above split-K's 3: at M <= 64 the 128x256 tile multiplies mostly padding) for
// the variant gemm() runs (swap_ab_variant), 0 for the 128-row alternates of widths 16 and 32.
// The 128-wide tile (64 < M <= 128) gets 3, level with the planned split-K entries, which win the
// tie by tile size wherever their plan fits one round: at 128x8192x28672 split-K on 128x256 beat
// this tile in every same-process comparison (0.98-1.06x against 0.89-0.98x, runs 13, 14, 21);
// where the plan does not fit (large N) this tile still ranks above the cluster kernel, whose
// second CTA of each pair would have no rows.
template <int TileN, int Consumers>
Sm90WsVariant narrow() { return sm90_wgmma_ws_narrow_variant(TileN, Consumers); }

template <DType In, int TileN, int Consumers, int kPreference>
KernelEntry swap_entry(std::string_view name) {
  constexpr auto v = &narrow<TileN, Consumers>;
  const Sm90WsShape s = sm90_wgmma_ws_shape(In, v());
  KernelEntry e = wgmma_entry(name, In, {s.tile_n, s.tile_m, s.tile_k, s.stages, s.threads, s.smem_bytes});
  e.preference = kPreference;
  e.supports = [](const GemmDesc& g) { return sm90_swap_ab_supports(g, In, v()); };
  e.workspace_bytes = [](const GemmDesc& g) { return sm90_swap_ab_workspace(g, v()); };
  e.split_k = [](const GemmDesc& g) { return sm90_swap_ab_splits(g, v()); };
  e.launch = [](const GemmArgs& a) { return sm90_swap_ab_launch(a, In, v()); };
  e.describe = [](const GemmDesc& g) { return sm90_swap_ab_describe(g, v()); };
  e.function = [] { return sm90_wgmma_ws_function(In, false, v()); };
  return e;
}

// The one-consumer narrow tiles unswapped (swap_ab.hpp sm90_narrow_*): 64 rows of M by TileN of N,
// the swap entry's plan. By name (preference 0) unless a rule gates it.
template <DType In, int TileN>
KernelEntry narrow_entry(std::string_view name) {
  constexpr auto v = &narrow<TileN, 1>;
  KernelEntry e = wgmma_entry(name, In, sm90_wgmma_ws_shape(In, v()));
  e.preference = 0;
  e.supports = [](const GemmDesc& g) { return sm90_narrow_supports(g, In, v()); };
  e.workspace_bytes = [](const GemmDesc& g) { return sm90_narrow_workspace(g, v()); };
  e.split_k = [](const GemmDesc& g) { return sm90_narrow_splits(g, v()); };
  e.launch = [](const GemmArgs& a) { return sm90_narrow_launch(a, In, v()); };
  e.function = [] { return sm90_wgmma_ws_function(In, false, v()); };
  return e;
}

// The unswapped 64x64 tile that gemm() runs for 32 < M <= 64 (tiles64x64_fit_one_round; preference
// 6, above the swapped 64x64 tile's 5, which keeps the layouts this one refuses). Run 199: 7-17%
// ahead of the swapped tile on all 10 midm_split shapes.
constexpr char kNarrow64Why[] =
    "the unswapped 64x64 tile takes M of 33..64 where ceil(N/64) tiles fit one round (the swap tiles serve the "
    "rest)";
template <DType In>
KernelEntry gated_narrow64_entry(std::string_view name) {
  KernelEntry e = narrow_entry<In, 64>(name);
  e.preference = 6;
  e.supports = [](const GemmDesc& g) {
    if (!tiles64x64_fit_one_round(g.m, g.n, current_sm_count())) return Status::unsupported(kNarrow64Why);
    if (g.a.layout == Layout::column && g.k < kNarrow64MnMajorAMinK)
      return Status::unsupported("with a column-major A the unswapped 64x64 tile takes K >= " +
                                 std::to_string(kNarrow64MnMajorAMinK) + " (path_rules.hpp: measured slower below)");
    return sm90_narrow_supports(g, In, narrow<64, 1>());
  };
  return e;
}

// Swap A/B with a shared tail (swap_steal.hpp): the decode widths where ceil(N/64) tiles nearly
// fill the SMs. By name only (preference 0): it balanced the SMs' finish times but measured 3-5%
// slower than the plain swap tile at 16x8192x8192 (39.7 against 38.4 us, session 11, call 10).
template <DType In, int TileN>
KernelEntry swap_steal_entry(std::string_view name) {
  KernelEntry e = wgmma_entry(name, In, {TileN, 64, 64, sm90_swap_steal_stages(TileN), 384, 0});
  e.preference = 0;
  e.supports = [](const GemmDesc& g) {
    if (Status s = sm90_swap_steal_supports(g, In); !s.ok()) return s;
    if ((g.m <= 16) != (TileN == 16))
      return Status::unsupported("M = " + std::to_string(g.m) + " takes the " + (g.m <= 16 ? "16" : "32") +
                                 "-wide swap-steal tile");
    return Status::success();
  };
  e.workspace_bytes = [](const GemmDesc& g) { return sm90_swap_steal_workspace(g); };
  e.launch = [](const GemmArgs& a) { return sm90_swap_steal_launch(a, In); };
  e.function = [] { return sm90_swap_steal_function(In, TileN); };
  return e;
}

// A swap tile that gemm() runs (preference 5, above the 64x128 tile's 4) where its rule (path_rules.hpp,
// shared with explain's advice) holds for M and N; `why` says what it takes when the rule refuses.
template <DType In, int TileN, int Consumers, bool (*kRule)(int64_t, int64_t, int64_t), const char* kWhy>
KernelEntry gated_swap_entry(std::string_view name) {
  KernelEntry e = swap_entry<In, TileN, Consumers, 5>(name);
  e.supports = [](const GemmDesc& g) {
    if (!kRule(g.m, g.n, current_sm_count())) return Status::unsupported(kWhy);
    return sm90_swap_ab_supports(g, In, narrow<TileN, Consumers>());
  };
  return e;
}

// The 128-row swap tiles of widths 16 and 32 (swap_narrow_takes_128_rows: 64 rows would need a second
// round of CTAs, 128 fit one); the by-name alternates (preference 0) run anywhere their width fits.
constexpr char kOneRoundWhy[] =
    "the 128-row swap tile of widths 16 and 32 takes N where 64-row tiles need a second round and 128-row ones fit "
    "one (the 64-row tile serves the rest)";

// Width 64 on 64 rows of N, one consumer (as the 16/32-wide tiles; tiles64x64_fit_one_round: its tiles
// fit one round): twice the 64x128 tile's tiles, so half the splits, summed in clusters.
constexpr char kRows64Why[] =
    "the 64-row swap tile of width 64 takes M of 33..64 where ceil(N/64) tiles fit one round (the 64x128 and "
    "64x256 tiles serve the rest)";

// The four-consumer 64x256 swap tile (swap_wide_tile_fills: its CTAs fill >= 80% of the SMs); by name
// it runs anywhere its width fits.
constexpr char kWideWhy[] =
    "the wide 64-column swap tile takes M of 33..64 with ceil(N/256) CTAs filling >= 80% of the SMs (the 64x128 "
    "tile serves the rest)";

// wgmma_ws_persistent_cluster.cu: persistent grid of 2-CTA clusters (B multicast), the ring of
// stages running across tiles, TMA-store epilogue (C TMA-loaded into the same boxes where beta
// != 0); TN with a row-major D of the input type (C likewise). kMaxClusters caps the grid (0: every cluster that fits; 64: 128 CTAs, the reference's
// choice, which at the peak shapes needs no more tile rounds than 66 clusters). kTile: the CTA tile.
template <DType In, int kStages, int kMaxClusters = 0, PcTile kTile = PcTile::m128n256>
KernelEntry pc_entry(std::string_view name) {
  KernelEntry e = wgmma_entry(name, In, sm90_wgmma_ws_pc_shape(kStages, In, kTile));
  e.cluster_m = 2;
  e.supports = [](const GemmDesc& g) { return sm90_wgmma_ws_pc_supports(g, In); };
  e.launch = [](const GemmArgs& a) {
    return sm90_wgmma_ws_pc_launch(a, In, kStages, kMaxClusters, PcDStore::tma, kTile);
  };
  e.function = [] { return sm90_wgmma_ws_pc_function(In, kStages, kTile); };
  e.workspace_bytes = nullptr;
  // The 3-stage kernel on every cluster that fits beat the plain kernel on all ten bf16/f16 peak
  // problems in three same-process passes (+3-11%, bench/NOTES.md), so it is the default where
  // it applies (above the plain kernel's 1, below the shape-specific split-K and swap paths);
  // the other variants run by name.
  // tf32 likewise: 1.00x/1.04x cuBLAS tf32 at 4096^3/8192^3 against the plain kernel's
  // 0.95x/0.97x (two passes each, bench/NOTES.md).
  e.preference = (kStages == 3 && kMaxClusters == 0 && kTile == PcTile::m128n256) ? 2 : 0;
  return e;
}

// The 3-stage 128x256 cluster kernel storing an f32 D (and reading an f32 C) from bf16/f16
// inputs: gemm()'s pick there (preference 2, as the 16-bit-D entry), where the plain ws kernel's
// staged epilogue ran 0.92x cuBLAS at 4096^3 (bench/NOTES.md, "beta and an f32 D on the cluster kernel").
template <DType In>
KernelEntry pc_f32d_entry(std::string_view name) {
  KernelEntry e = pc_entry<In, 3>(name);
  e.supports = [](const GemmDesc& g) { return sm90_wgmma_ws_pc_supports(g, In, PcDStore::tma, true); };
  e.function = [] { return sm90_wgmma_ws_pc_f32d_function(In); };
  return e;
}

// pc_split_k.hpp: split-K on the cluster kernel (f32 slabs by TMA store from the _f32d instance,
// then the fixed-order reduce); by name only until measured against the planned ws split-K.
template <DType In>
KernelEntry pc_splitk_entry(std::string_view name) {
  KernelEntry e = pc_entry<In, 3>(name);
  e.preference = 0;
  e.supports = [](const GemmDesc& g) { return sm90_pc_splitk_supports(g, In); };
  e.workspace_bytes = [](const GemmDesc& g) { return sm90_pc_splitk_workspace(g, In); };
  e.split_k = [](const GemmDesc& g) { return plan_pc_split_k(g, In, current_sm_count()).splits; };
  e.launch = [](const GemmArgs& a) { return sm90_pc_splitk_launch(a, In); };
  e.function = [] { return sm90_wgmma_ws_pc_f32d_function(In); };
  e.describe = [](const GemmDesc& g) { return describe(plan_pc_split_k(g, In, current_sm_count())); };
  return e;
}

// The grid-fitting widths of the persistent cluster kernel (128 x 144, 160, 176, 192; bf16/f16, 4 stages):
// by name each, and as gemm()'s pick (preference 4, above stream-K's 3) where fit_tile_width
// (analysis/path_rules.hpp) finds a width whose pair grid fills the clusters: M of 150-768 on
// large N, where 128x256 leaves SMs idle (bench/NOTES.md, "grid-fitting widths").
template <DType In>
KernelEntry pc_fit_entry(std::string_view name) {
  KernelEntry e = pc_entry<In, 4, 0, PcTile::m128n192>(name);
  e.preference = 4;
  e.supports = [](const GemmDesc& g) -> Status {
    if (fit_tile_width(g.m, g.n, current_sm_count()) == 0)
      return Status::unsupported("no tile width of 144-192 fills the clusters >= 5% better than 128x256 here");
    return sm90_wgmma_ws_pc_supports(g, In);
  };
  e.launch = [](const GemmArgs& a) {
    return sm90_wgmma_ws_pc_launch(a, In, 4, 0, PcDStore::tma,
                                   pc_fit_tile(fit_tile_width(a.desc.m, a.desc.n, current_sm_count())));
  };
  e.describe = [](const GemmDesc& g) {
    const int64_t w = fit_tile_width(g.m, g.n, current_sm_count());
    return w == 0 ? std::string("no fitting width") : "128x" + std::to_string(w) + " tiles in 2-CTA clusters, 4 stages";
  };
  e.tile_for = [](const GemmDesc& g) {
    const int64_t w = fit_tile_width(g.m, g.n, current_sm_count());
    return std::pair<int, int>{128, w > 0 ? static_cast<int>(w) : 192};
  };
  return e;
}

// The fitting widths on the swapped problem (pc_swap.hpp): gemm()'s pick (preference 5, above the
// unswapped width's 4) where swap_fit_tile_width (analysis/path_rules.hpp, shared with explain)
// finds a width of M that models >= 5% faster than both 128x256 and the unswapped width: M of
// 150-640 that 128-row tiles pad or leave ghost rows in (320x8192x8192).
// Swapped entries declare their tile in the caller's orientation (width of M x 128 rows of N, the
// CTA pairs along N), as the small-M swap entries do; the rule's entry declares the widest width.
void orient_swapped(KernelEntry& e) {
  std::swap(e.tile_m, e.tile_n);
  e.cluster_m = 1;
  e.cluster_n = 2;
}

template <DType In>
KernelEntry pc_swap_fit_entry(std::string_view name) {
  KernelEntry e = pc_entry<In, 4, 0, PcTile::m128n192>(name);
  orient_swapped(e);
  e.preference = 5;
  e.supports = [](const GemmDesc& g) -> Status {
    if (swap_fit_tile_width(g.m, g.n, current_sm_count()) == 0)
      return Status::unsupported("swapped, no tile width of 144-192 fits M into fewer rounds' area than the unswapped "
                                 "tiles (by >= 5%)");
    return sm90_pc_swap_supports(g, In);
  };
  e.launch = [](const GemmArgs& a) {
    return sm90_pc_swap_launch(a, In, pc_fit_tile(swap_fit_tile_width(a.desc.m, a.desc.n, current_sm_count())));
  };
  e.describe = [](const GemmDesc& g) {
    const int64_t w = swap_fit_tile_width(g.m, g.n, current_sm_count());
    return w == 0 ? std::string("no swapped fitting width")
                  : "swap A/B: D^T = B^T A^T on 128x" + std::to_string(w) + " tiles (N x M) in 2-CTA clusters, 4 stages";
  };
  e.tile_for = [](const GemmDesc& g) {  // the caller's orientation: M's width x N's 128 rows
    const int64_t w = swap_fit_tile_width(g.m, g.n, current_sm_count());
    return std::pair<int, int>{w > 0 ? static_cast<int>(w) : 192, 128};
  };
  return e;
}

// One swapped width by name (the profiler's sweeps; `<width>x128`: M's width by N's 128 rows): M > 128 (the narrow swap-A/B tiles serve the
// rest) wherever the layouts and rules allow it.
template <DType In, PcTile kTile>
KernelEntry pc_swap_width_entry(std::string_view name) {
  KernelEntry e = pc_entry<In, 4, 0, kTile>(name);
  orient_swapped(e);
  e.supports = [](const GemmDesc& g) -> Status {
    if (g.m <= 128) return Status::unsupported("M <= 128: the narrow swap-A/B tiles (*_swapab) serve it");
    return sm90_pc_swap_supports(g, In);
  };
  e.launch = [](const GemmArgs& a) { return sm90_pc_swap_launch(a, In, kTile); };
  return e;
}

// The 192x192 tile of the persistent cluster kernel (three consumer warpgroups): by name, and as
// gemm()'s pick (preference 4, above stream-K's 3) where square_tile_wins (analysis/path_rules.hpp,
// shared with explain's advice): fewer rounds of tiles than 128x256 for the same MMAs, e.g. 4224^3.
// gemm() runs 4 stages: level with 3 at 4224^3 and 1% ahead at 3072^3, one kernel a process over
// four alternating passes (bench/NOTES.md, "A 192x192 tile", run 62).
template <DType In, int kStages, bool kGemmPick = false>
KernelEntry pc_square_entry(std::string_view name) {
  KernelEntry e = pc_entry<In, kStages, 0, PcTile::m192n192>(name);
  if constexpr (kGemmPick) {
    e.preference = 4;
    e.supports = [](const GemmDesc& g) {
      if (!square_tile_wins(g.m, g.n, current_sm_count()))
        return Status::unsupported("the 192x192 tile runs no fewer tile rounds than 128x256 here (by at least 5%)");
      return sm90_wgmma_ws_pc_supports(g, In);
    };
  }
  return e;
}

// The tall 256x128 tile where gemm() runs it (preference 5, above the 192x192 and fitting-width
// rules' 4): tall_tile_wins (analysis/path_rules.hpp, shared with explain).
template <DType In>
KernelEntry pc_tall_entry(std::string_view name) {
  KernelEntry e = pc_entry<In, 4, 0, PcTile::m256n128>(name);
  e.preference = 5;
  e.supports = [](const GemmDesc& g) {
    if (!tall_tile_wins(g.m, g.n, current_sm_count()))
      return Status::unsupported("the 256x128 tile runs no fewer tile rounds' area than the other cluster tiles here "
                                 "(by at least 5%)");
    return sm90_wgmma_ws_pc_supports(g, In);
  };
  return e;
}

// wgmma_ws_pingpong.cu: the persistent cluster kernel's contract (TN, row-major 16-bit D,
// beta == 0) with ping-pong consumers, each warpgroup a 64x256 tile of its own; by name only
// (preference 0) until the bench decides.
template <DType In, int kStages>
KernelEntry pingpong_entry(std::string_view name) {
  KernelEntry e = wgmma_entry(name, In, sm90_wgmma_ws_pingpong_shape(kStages));
  e.cluster_m = 2;
  e.preference = 0;
  e.supports = [](const GemmDesc& g) { return sm90_wgmma_ws_pingpong_supports(g, In); };
  e.launch = [](const GemmArgs& a) { return sm90_wgmma_ws_pingpong_launch(a, In, kStages); };
  e.function = [] { return sm90_wgmma_ws_pingpong_function(In, kStages); };
  e.workspace_bytes = nullptr;
  return e;
}

// Small M (64 < M <= 128) over many 256-wide column tiles: the ping-pong kernel's 64-row tiles put
// a real tile in each CTA of a cluster pair, where the 128-row kernels leave the second CTA a ghost
// (or split K and pay a reduce). Measured (bench/NOTES.md, "Small M on the ping-pong kernel"): s5
// 0.88-0.98x of cuBLAS against 0.76-0.87x for the previous picks wherever its CTAs (two per
// 256-wide column) fill at least 70% of the SMs; at N = 8192 (half the SMs) split-K stays ahead.
Status pingpong_small_m_applies(const GemmDesc& g) {
  if (g.m <= 64 || g.m > 128)
    return Status::unsupported("the small-M ping-pong path takes 64 < M <= 128 (two real 64-row tiles a pair)");
  const Sm90WsShape t = sm90_wgmma_ws_pingpong_shape(5);
  const int64_t ctas = 2 * pair_grid(g, t.tile_m, t.tile_n, t.tile_k).pair_tiles;  // one pair row
  if (10 * ctas < 7 * static_cast<int64_t>(current_sm_count()))
    return Status::unsupported("its " + std::to_string(ctas) + " CTAs would fill under 70% of the SMs: split-K or swap A/B serves it");
  return Status::success();
}

// An entry's supports(): the kernel's own rules, then where gemm() should prefer it.
template <DType In, Status (*Kernel)(const GemmDesc&, DType), Status (*Applies)(const GemmDesc&)>
Status gated_supports(const GemmDesc& g) {
  if (Status s = Kernel(g, In); !s.ok()) return s;
  return Applies(g);
}

template <DType In>
KernelEntry pingpong_small_m_entry(std::string_view name) {
  KernelEntry e = pingpong_entry<In, 5>(name);
  e.preference = 4;
  e.supports = &gated_supports<In, &sm90_wgmma_ws_pingpong_supports, &pingpong_small_m_applies>;
  return e;
}

// pc_repack.hpp: the persistent cluster kernel behind the A/B copies (a misaligned D stored by its threads).
// Preference 2, above the plain repack entry (1) and below repack + split-K (3), which takes the
// shapes whose tiles do not fill the SMs.
template <DType In>
KernelEntry pc_repack_entry(std::string_view name) {
  KernelEntry e = pc_entry<In, 3>(name);
  e.supports = [](const GemmDesc& g) { return sm90_pc_repack_supports(g, In); };
  e.workspace_bytes = &sm90_pc_repack_workspace;
  e.copy_bytes = &sm90_pc_repack_copy_bytes;
  e.launch = [](const GemmArgs& a) { return sm90_pc_repack_launch(a, In); };
  e.preference = 2;
  return e;
}

// Stream-K on the persistent cluster kernel (3 stages): the pair-tiles past the last full round
// shared along K by every cluster, partial tiles fixed up in k order through the workspace.
// Preference 3 (above the plain cluster kernel's 2) where it shares a tail after at least one full
// round: it won all 12 sustained passes there (+0.4-3.3% bf16 and +3.5-7.6% f16 at 4224^3,
// +2.3-5.0% at 4097^3 through the repack; bench/NOTES.md); elsewhere it declines, since it would
// run the plain kernel's schedule (measured -0.4 to -1%).
Status pc_streamk_applies(const GemmDesc& g) {
  if (sm90_pc_streamk_shares_tail(g)) return Status::success();
  // One tile row: the second CTA of every pair would multiply no rows (the swap path serves M <= 128).
  if (g.m <= 128) return Status::unsupported("M <= 128 is one tile row: half of each CTA pair would idle");
  return Status::unsupported("no partial last round to share after a full one (or it is more than half full), "
                             "nor one round filling half to 60% of the clusters: the plain cluster kernel "
                             "serves it");
}

template <DType In>
KernelEntry pc_streamk_entry(std::string_view name) {
  KernelEntry e = pc_entry<In, 3>(name);
  e.preference = 3;
  e.supports = &gated_supports<In, &sm90_wgmma_ws_pc_streamk_supports, &pc_streamk_applies>;
  e.workspace_bytes = &sm90_wgmma_ws_pc_streamk_workspace;
  e.launch = [](const GemmArgs& a) { return sm90_wgmma_ws_pc_streamk_launch(a, In); };
  e.function = [] { return sm90_wgmma_ws_pc_streamk_function(In); };
  return e;
}

template <DType In>
KernelEntry pc_repack_streamk_entry(std::string_view name) {
  KernelEntry e = pc_streamk_entry<In>(name);
  e.supports = &gated_supports<In, &sm90_pc_repack_supports, &pc_streamk_applies>;
  e.workspace_bytes = &sm90_pc_repack_streamk_workspace;
  e.copy_bytes = &sm90_pc_repack_copy_bytes;
  e.launch = [](const GemmArgs& a) { return sm90_pc_repack_streamk_launch(a, In); };
  return e;
}

// The same with D's thin edge (a partial last tile row/column of at most 8) computed inside the
// copies (common/repack_strips.hpp), so the kernel runs only full tiles. Preference 4, above
// repack + stream-K: the strips replace whole tiles of padding (4097^3: 49 of 561 tiles). Not where
// the repack + split-K plan applies (its CTAs fit one round): 334x774x8082 ran 91.9 us on the
// strips' 12 CTAs against 36.6 us planned (40.4 cuBLAS), 260x79x1508 27.9 against 16.8 (run 66).
template <DType In>
KernelEntry pc_repack_strips_entry(std::string_view name) {
  KernelEntry e = pc_repack_streamk_entry<In>(name);
  e.preference = 4;
  e.supports = [](const GemmDesc& g) -> Status {
    if (Status s = sm90_pc_repack_strips_supports(g, In); !s.ok()) return s;
    if (planned_fits(repacked_plan<In>(g), "").ok())
      return Status::unsupported("the tiles fill under one round of the SMs: the repack + split-K plan serves it");
    return Status::success();
  };
  e.workspace_bytes = &sm90_pc_repack_strips_workspace;
  e.launch = [](const GemmArgs& a) { return sm90_pc_repack_strips_launch(a, In); };
  e.describe = [](const GemmDesc& g) { return sm90_pc_repack_strips_describe(g, In); };
  return e;
}

// wgmma_ws_streamk.cu: the persistent kernel with units that end mid-tile and an in-kernel,
// fixed-order fix-up. Stream-K only where the tiles leave a partial last wave; serial split-K
// where split-K would split (or a count is forced). K-major A and B only. By name only until
// measured faster than the default where it applies.
template <DType In>
KernelEntry streamk_entry(std::string_view name) {
  KernelEntry e = wgmma_entry(name, In, sm90_wgmma_ws_streamk_shape());
  e.preference = 0;
  e.supports = [](const GemmDesc& g) { return sm90_wgmma_ws_streamk_supports(g, In); };
  e.workspace_bytes = [](const GemmDesc& g) { return sm90_wgmma_ws_streamk_workspace(g); };
  e.launch = [](const GemmArgs& a) { return sm90_wgmma_ws_streamk_launch(a, In); };
  e.function = [] { return sm90_wgmma_ws_streamk_function(In); };
  return e;
}

template <DType In>
KernelEntry serial_splitk_entry(std::string_view name) {
  KernelEntry e = streamk_entry<In>(name);
  e.supports = [](const GemmDesc& g) { return sm90_wgmma_ws_serial_splitk_supports(g, In); };
  e.workspace_bytes = [](const GemmDesc& g) { return sm90_wgmma_ws_serial_splitk_workspace(g); };
  e.split_k = [](const GemmDesc& g) { return choose_splits(g, current_sm_count()); };
  e.launch = [](const GemmArgs& a) { return sm90_wgmma_ws_serial_splitk_launch(a, In); };
  return e;
}
}  // namespace

void register_sm90_kernels(std::vector<KernelEntry>& table) {
  table.push_back(ws_entry<DType::bf16>("sm90_wgmma_bf16_128x256x64_s4_ws"));
  table.push_back(ws_entry<DType::f16>("sm90_wgmma_f16_128x256x64_s4_ws"));
  table.push_back(repack_entry<DType::bf16>("sm90_wgmma_bf16_128x256x64_s4_ws_repack"));
  table.push_back(repack_entry<DType::f16>("sm90_wgmma_f16_128x256x64_s4_ws_repack"));
  table.push_back(planned_entry<DType::bf16>("sm90_wgmma_bf16_128xN_ws_splitk"));
  table.push_back(planned_entry<DType::f16>("sm90_wgmma_f16_128xN_ws_splitk"));
  table.push_back(planned_repack_entry<DType::bf16>("sm90_wgmma_bf16_128xN_ws_repack_splitk"));
  table.push_back(planned_repack_entry<DType::f16>("sm90_wgmma_f16_128xN_ws_repack_splitk"));
  table.push_back(planned_fused_repack_entry<DType::bf16>("sm90_wgmma_bf16_128xN_ws_repack_fused"));
  table.push_back(planned_fused_repack_entry<DType::f16>("sm90_wgmma_f16_128xN_ws_repack_fused"));
  table.push_back(gated_fused_repack_entry<DType::bf16>("sm90_wgmma_bf16_128xN_ws_repack_fused_small"));
  table.push_back(gated_fused_repack_entry<DType::f16>("sm90_wgmma_f16_128xN_ws_repack_fused_small"));
  table.push_back(planned_row_class_entry<DType::bf16>("sm90_wgmma_bf16_128xN_ws_rowclass"));
  table.push_back(planned_row_class_entry<DType::f16>("sm90_wgmma_f16_128xN_ws_rowclass"));
  table.push_back(planned_thread_loads_entry<DType::bf16>("sm90_wgmma_bf16_128xN_ws_ldg"));
  table.push_back(planned_thread_loads_entry<DType::f16>("sm90_wgmma_f16_128xN_ws_ldg"));
  table.push_back(splitk_entry<DType::bf16>("sm90_wgmma_bf16_128x256x64_s4_ws_splitk"));
  table.push_back(splitk_entry<DType::f16>("sm90_wgmma_f16_128x256x64_s4_ws_splitk"));
  table.push_back(peel_entry<DType::bf16>("sm90_wgmma_bf16_128x256x64_s4_ws_peel"));
  table.push_back(peel_entry<DType::f16>("sm90_wgmma_f16_128x256x64_s4_ws_peel"));
  table.push_back(repack_splitk_entry<DType::bf16>("sm90_wgmma_bf16_128x256x64_s4_ws_repack_splitk"));
  table.push_back(repack_splitk_entry<DType::f16>("sm90_wgmma_f16_128x256x64_s4_ws_repack_splitk"));
  table.push_back(ws_entry<DType::bf16, true>("sm90_wgmma_bf16_128x256x64_s4_ws_ds"));
  table.push_back(ws_entry<DType::f16, true>("sm90_wgmma_f16_128x256x64_s4_ws_ds"));
  table.push_back(pc_entry<DType::bf16, 3>("sm90_wgmma_bf16_128x256x64_s3_pc2x1_tmastore"));
  table.push_back(pc_entry<DType::bf16, 4>("sm90_wgmma_bf16_128x256x64_s4_pc2x1_tmastore"));
  table.push_back(pc_entry<DType::f16, 3>("sm90_wgmma_f16_128x256x64_s3_pc2x1_tmastore"));
  table.push_back(pc_entry<DType::f16, 4>("sm90_wgmma_f16_128x256x64_s4_pc2x1_tmastore"));
  table.push_back(pc_f32d_entry<DType::bf16>("sm90_wgmma_bf16_128x256x64_s3_pc2x1_tmastore_f32d"));
  table.push_back(pc_f32d_entry<DType::f16>("sm90_wgmma_f16_128x256x64_s3_pc2x1_tmastore_f32d"));
  table.push_back(pc_entry<DType::bf16, 4, 0, PcTile::m128n144>("sm90_wgmma_bf16_128x144x64_s4_pc2x1_tmastore"));
  table.push_back(pc_entry<DType::bf16, 4, 0, PcTile::m128n160>("sm90_wgmma_bf16_128x160x64_s4_pc2x1_tmastore"));
  table.push_back(pc_entry<DType::bf16, 4, 0, PcTile::m128n176>("sm90_wgmma_bf16_128x176x64_s4_pc2x1_tmastore"));
  table.push_back(pc_entry<DType::bf16, 4, 0, PcTile::m128n192>("sm90_wgmma_bf16_128x192x64_s4_pc2x1_tmastore"));
  table.push_back(pc_entry<DType::f16, 4, 0, PcTile::m128n144>("sm90_wgmma_f16_128x144x64_s4_pc2x1_tmastore"));
  table.push_back(pc_entry<DType::f16, 4, 0, PcTile::m128n160>("sm90_wgmma_f16_128x160x64_s4_pc2x1_tmastore"));
  table.push_back(pc_entry<DType::f16, 4, 0, PcTile::m128n176>("sm90_wgmma_f16_128x176x64_s4_pc2x1_tmastore"));
  table.push_back(pc_entry<DType::f16, 4, 0, PcTile::m128n192>("sm90_wgmma_f16_128x192x64_s4_pc2x1_tmastore"));
  // The tall 256x128 tile (four consumer warpgroups): by name anywhere it runs; gemm() takes the
  // _tall entry where its rule does (run 181).
  table.push_back(pc_entry<DType::bf16, 4, 0, PcTile::m256n128>("sm90_wgmma_bf16_256x128x64_s4_pc2x1_tmastore"));
  table.push_back(pc_entry<DType::f16, 4, 0, PcTile::m256n128>("sm90_wgmma_f16_256x128x64_s4_pc2x1_tmastore"));
  table.push_back(pc_tall_entry<DType::bf16>("sm90_wgmma_bf16_256x128x64_s4_pc2x1_tmastore_tall"));
  table.push_back(pc_tall_entry<DType::f16>("sm90_wgmma_f16_256x128x64_s4_pc2x1_tmastore_tall"));
  table.push_back(pc_fit_entry<DType::bf16>("sm90_wgmma_bf16_128xNfit_s4_pc2x1_tmastore"));
  table.push_back(pc_fit_entry<DType::f16>("sm90_wgmma_f16_128xNfit_s4_pc2x1_tmastore"));
  table.push_back(pc_swap_fit_entry<DType::bf16>("sm90_wgmma_bf16_128xNfit_s4_pc2x1_swapab"));
  table.push_back(pc_swap_fit_entry<DType::f16>("sm90_wgmma_f16_128xNfit_s4_pc2x1_swapab"));
  table.push_back(pc_swap_width_entry<DType::bf16, PcTile::m128n144>("sm90_wgmma_bf16_144x128x64_s4_pc2x1_swapab"));
  table.push_back(pc_swap_width_entry<DType::bf16, PcTile::m128n160>("sm90_wgmma_bf16_160x128x64_s4_pc2x1_swapab"));
  table.push_back(pc_swap_width_entry<DType::bf16, PcTile::m128n176>("sm90_wgmma_bf16_176x128x64_s4_pc2x1_swapab"));
  table.push_back(pc_swap_width_entry<DType::bf16, PcTile::m128n192>("sm90_wgmma_bf16_192x128x64_s4_pc2x1_swapab"));
  table.push_back(pc_swap_width_entry<DType::f16, PcTile::m128n144>("sm90_wgmma_f16_144x128x64_s4_pc2x1_swapab"));
  table.push_back(pc_swap_width_entry<DType::f16, PcTile::m128n160>("sm90_wgmma_f16_160x128x64_s4_pc2x1_swapab"));
  table.push_back(pc_swap_width_entry<DType::f16, PcTile::m128n176>("sm90_wgmma_f16_176x128x64_s4_pc2x1_swapab"));
  table.push_back(pc_swap_width_entry<DType::f16, PcTile::m128n192>("sm90_wgmma_f16_192x128x64_s4_pc2x1_swapab"));
  table.push_back(pc_splitk_entry<DType::bf16>("sm90_wgmma_bf16_128x256x64_s3_pc2x1_splitk"));
  table.push_back(pc_splitk_entry<DType::f16>("sm90_wgmma_f16_128x256x64_s3_pc2x1_splitk"));
  table.push_back(pc_entry<DType::bf16, 3, 64>("sm90_wgmma_bf16_128x256x64_s3_pc2x1_tmastore_g128"));
  table.push_back(pc_repack_entry<DType::bf16>("sm90_wgmma_bf16_128x256x64_s3_pc2x1_repack"));
  table.push_back(pc_repack_entry<DType::f16>("sm90_wgmma_f16_128x256x64_s3_pc2x1_repack"));
  table.push_back(pc_entry<DType::bf16, 4, 64>("sm90_wgmma_bf16_128x256x64_s4_pc2x1_tmastore_g128"));
  table.push_back(pc_square_entry<DType::bf16, 3>("sm90_wgmma_bf16_192x192x64_s3_pc2x1_tmastore"));
  table.push_back(pc_square_entry<DType::bf16, 4>("sm90_wgmma_bf16_192x192x64_s4_pc2x1_tmastore"));
  table.push_back(pc_square_entry<DType::f16, 4>("sm90_wgmma_f16_192x192x64_s4_pc2x1_tmastore"));
  table.push_back(pc_square_entry<DType::bf16, 4, true>("sm90_wgmma_bf16_192x192x64_s4_pc2x1_tmastore_fit"));
  table.push_back(pc_square_entry<DType::f16, 4, true>("sm90_wgmma_f16_192x192x64_s4_pc2x1_tmastore_fit"));
  table.push_back(pc_streamk_entry<DType::bf16>("sm90_wgmma_bf16_128x256x64_s3_pc2x1_streamk"));
  table.push_back(pc_streamk_entry<DType::f16>("sm90_wgmma_f16_128x256x64_s3_pc2x1_streamk"));
  table.push_back(pc_repack_streamk_entry<DType::bf16>("sm90_wgmma_bf16_128x256x64_s3_pc2x1_repack_streamk"));
  table.push_back(pc_repack_streamk_entry<DType::f16>("sm90_wgmma_f16_128x256x64_s3_pc2x1_repack_streamk"));
  table.push_back(pc_repack_strips_entry<DType::bf16>("sm90_wgmma_bf16_128x256x64_s3_pc2x1_repack_strips"));
  table.push_back(pc_repack_strips_entry<DType::f16>("sm90_wgmma_f16_128x256x64_s3_pc2x1_repack_strips"));
  table.push_back(pingpong_entry<DType::bf16, 4>("sm90_wgmma_bf16_64x256x64_s4_pingpong"));
  table.push_back(pingpong_entry<DType::f16, 4>("sm90_wgmma_f16_64x256x64_s4_pingpong"));
  table.push_back(pingpong_entry<DType::bf16, 5>("sm90_wgmma_bf16_64x256x64_s5_pingpong"));
  table.push_back(pingpong_entry<DType::f16, 5>("sm90_wgmma_f16_64x256x64_s5_pingpong"));
  table.push_back(pingpong_small_m_entry<DType::bf16>("sm90_wgmma_bf16_64x256x64_s5_pingpong_smallm"));
  table.push_back(pingpong_small_m_entry<DType::f16>("sm90_wgmma_f16_64x256x64_s5_pingpong_smallm"));
  table.push_back(streamk_entry<DType::bf16>("sm90_wgmma_bf16_128x256x64_s4_ws_streamk"));
  table.push_back(streamk_entry<DType::f16>("sm90_wgmma_f16_128x256x64_s4_ws_streamk"));
  table.push_back(serial_splitk_entry<DType::bf16>("sm90_wgmma_bf16_128x256x64_s4_ws_serial_splitk"));
  table.push_back(serial_splitk_entry<DType::f16>("sm90_wgmma_f16_128x256x64_s4_ws_serial_splitk"));
  // TF32 (f32 storage) on m64n256k8: K-major A and B only, BK = 32 (the same 128-byte rows); the
  // plain kernel's preference, so gemm() takes it over sm80_mma_sync_tf32 where it applies.
  table.push_back(ws_entry<DType::tf32>("sm90_wgmma_tf32_128x256x32_s4_ws"));
  // The persistent cluster kernel on tf32 (TN, D f32 row-major): C staged in halves
  // (3 stages) or quarters (4 stages); by name only (preference 0) until the bench decides.
  table.push_back(pc_entry<DType::tf32, 3>("sm90_wgmma_tf32_128x256x32_s3_pc2x1_tmastore"));
  table.push_back(pc_entry<DType::tf32, 4>("sm90_wgmma_tf32_128x256x32_s4_pc2x1_tmastore"));
  // Small M: swap A/B onto a 16/32/64/128-wide tile (stages fill shared memory).
  table.push_back(swap_entry<DType::bf16, 16, 1, 4>("sm90_wgmma_bf16_16x64x64_s16_swapab"));
  table.push_back(swap_entry<DType::bf16, 32, 1, 4>("sm90_wgmma_bf16_32x64x64_s16_swapab"));
  table.push_back(swap_entry<DType::bf16, 64, 2, 4>("sm90_wgmma_bf16_64x128x64_s9_swapab"));
  table.push_back(swap_entry<DType::bf16, 128, 2, 3>("sm90_wgmma_bf16_128x128x64_s7_swapab"));
  table.push_back(swap_entry<DType::bf16, 16, 2, 0>("sm90_wgmma_bf16_16x128x64_s12_swapab"));
  table.push_back(swap_entry<DType::bf16, 32, 2, 0>("sm90_wgmma_bf16_32x128x64_s11_swapab"));
  table.push_back(swap_entry<DType::f16, 16, 1, 4>("sm90_wgmma_f16_16x64x64_s16_swapab"));
  table.push_back(swap_entry<DType::f16, 32, 1, 4>("sm90_wgmma_f16_32x64x64_s16_swapab"));
  table.push_back(swap_entry<DType::f16, 64, 2, 4>("sm90_wgmma_f16_64x128x64_s9_swapab"));
  table.push_back(swap_entry<DType::f16, 128, 2, 3>("sm90_wgmma_f16_128x128x64_s7_swapab"));
  table.push_back(gated_swap_entry<DType::bf16, 64, 1, tiles64x64_fit_one_round, kRows64Why>(
      "sm90_wgmma_bf16_64x64x64_s14_swapab"));
  table.push_back(gated_swap_entry<DType::f16, 64, 1, tiles64x64_fit_one_round, kRows64Why>(
      "sm90_wgmma_f16_64x64x64_s14_swapab"));
  table.push_back(narrow_entry<DType::bf16, 16>("sm90_wgmma_bf16_64x16x64_s16_narrow"));
  table.push_back(narrow_entry<DType::bf16, 32>("sm90_wgmma_bf16_64x32x64_s16_narrow"));
  table.push_back(narrow_entry<DType::bf16, 64>("sm90_wgmma_bf16_64x64x64_s14_narrow"));
  table.push_back(narrow_entry<DType::f16, 64>("sm90_wgmma_f16_64x64x64_s14_narrow"));
  table.push_back(gated_narrow64_entry<DType::bf16>("sm90_wgmma_bf16_64x64x64_s14_narrow_midm"));
  table.push_back(gated_narrow64_entry<DType::f16>("sm90_wgmma_f16_64x64x64_s14_narrow_midm"));
  table.push_back(swap_entry<DType::bf16, 64, 4, 0>("sm90_wgmma_bf16_64x256x64_s5_swapab"));
  table.push_back(swap_entry<DType::f16, 64, 4, 0>("sm90_wgmma_f16_64x256x64_s5_swapab"));
  table.push_back(swap_steal_entry<DType::bf16, 16>("sm90_wgmma_bf16_16x64x64_s16_swapab_steal"));
  table.push_back(swap_steal_entry<DType::bf16, 32>("sm90_wgmma_bf16_32x64x64_s16_swapab_steal"));
  table.push_back(swap_steal_entry<DType::f16, 16>("sm90_wgmma_f16_16x64x64_s16_swapab_steal"));
  table.push_back(swap_steal_entry<DType::f16, 32>("sm90_wgmma_f16_32x64x64_s16_swapab_steal"));
  table.push_back(gated_swap_entry<DType::bf16, 16, 2, swap_narrow_takes_128_rows, kOneRoundWhy>(
      "sm90_wgmma_bf16_16x128x64_s12_swapab_oneround"));
  table.push_back(gated_swap_entry<DType::bf16, 32, 2, swap_narrow_takes_128_rows, kOneRoundWhy>(
      "sm90_wgmma_bf16_32x128x64_s11_swapab_oneround"));
  table.push_back(gated_swap_entry<DType::f16, 16, 2, swap_narrow_takes_128_rows, kOneRoundWhy>(
      "sm90_wgmma_f16_16x128x64_s12_swapab_oneround"));
  table.push_back(gated_swap_entry<DType::f16, 32, 2, swap_narrow_takes_128_rows, kOneRoundWhy>(
      "sm90_wgmma_f16_32x128x64_s11_swapab_oneround"));
  table.push_back(gated_swap_entry<DType::bf16, 64, 4, swap_wide_tile_fills, kWideWhy>(
      "sm90_wgmma_bf16_64x256x64_s5_swapab_wide"));
  table.push_back(gated_swap_entry<DType::f16, 64, 4, swap_wide_tile_fills, kWideWhy>(
      "sm90_wgmma_f16_64x256x64_s5_swapab_wide"));
  // The tile family and the tile/stage sweep (bench/NOTES.md): B column-major; by name only.
  table.push_back(ws_entry<DType::bf16, false, Sm90WsVariant{256, 3}>("sm90_wgmma_bf16_128x256x64_s3_ws"));
  table.push_back(ws_entry<DType::bf16, false, Sm90WsVariant{128, 4}>("sm90_wgmma_bf16_128x128x64_s4_ws"));
  table.push_back(ws_entry<DType::bf16, false, Sm90WsVariant{128, 7}>("sm90_wgmma_bf16_128x128x64_s7_ws"));
  table.push_back(ws_entry<DType::f16, false, Sm90WsVariant{128, 7}>("sm90_wgmma_f16_128x128x64_s7_ws"));
  table.push_back(ws_entry<DType::bf16, false, Sm90WsVariant{64, 4}>("sm90_wgmma_bf16_128x64x64_s4_ws"));
  table.push_back(ws_entry<DType::bf16, false, Sm90WsVariant{64, 9}>("sm90_wgmma_bf16_128x64x64_s9_ws"));
  // Split-K on the narrower tiles: more tiles, fewer splits, so fewer f32 slabs to write and reduce
  // (cuBLAS runs 256x256x65536 as 128x64 tiles x 16 splits); by name until measured.
  table.push_back(splitk_entry<DType::bf16, Sm90WsVariant{128, 7}>("sm90_wgmma_bf16_128x128x64_s7_ws_splitk"));
  table.push_back(splitk_entry<DType::bf16, Sm90WsVariant{64, 9}>("sm90_wgmma_bf16_128x64x64_s9_ws_splitk"));
  table.push_back(repack_splitk_entry<DType::bf16, Sm90WsVariant{128, 7}>("sm90_wgmma_bf16_128x128x64_s7_ws_repack_splitk"));
  table.push_back(repack_splitk_entry<DType::bf16, Sm90WsVariant{64, 9}>("sm90_wgmma_bf16_128x64x64_s9_ws_repack_splitk"));
  // 64x64, one consumer warpgroup: half the bytes each SM takes in per output element of 128x64,
  // for one round with SMs to spare (333x777x4099: 78 CTAs of 1.05 MB against 39 of 1.57 MB);
  // by name until measured.
  constexpr Sm90WsVariant k64x64{64, 14, 1};
  table.push_back(splitk_entry<DType::bf16, k64x64>("sm90_wgmma_bf16_64x64x64_s14_ws_splitk"));
  table.push_back(repack_splitk_entry<DType::bf16, k64x64>("sm90_wgmma_bf16_64x64x64_s14_ws_repack_splitk"));
  add_sm90_multicast_kernels(table);
  add_sm90_tiny_kernels(table);
  add_sm90_skinny_kernels(table);
}

}  // namespace tcgemm
