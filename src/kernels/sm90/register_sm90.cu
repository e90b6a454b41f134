#include <cstdlib>

#include "analysis/path_rules.hpp"
#include "analysis/split_model.hpp"
#include "core/diag_flag.hpp"
#include "kernels/common/repack.hpp"
#include "kernels/common/tile_counters.hpp"
#include "kernels/sm90/multicast.hpp"
#include "kernels/sm90/peel.hpp"
#include "kernels/sm90/register_sm90.hpp"
#include "kernels/sm90/split_k.hpp"
#include "kernels/sm90/skinny_gemm.hpp"
#include "kernels/sm90/tiny_gemm.hpp"
#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "kernels/sm90/wgmma_ws_streamk.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {

KernelEntry wgmma_entry(std::string_view name, DType input, const Sm90WsShape& s) {
  return shaped_entry(name, 90, {MmaFamily::wgmma, input, s.tile_m, s.tile_n, s.tile_k, s.stages, s.threads});
}

Status sm90_planned_fits(const SplitKPlan& p, const char* who) {
  if (p.predicted_us >= 1e30) return Status::unsupported("no split-K tile supports this problem");
  if (p.splits <= 1 && p.variant == Sm90WsVariant{})
    return Status::unsupported(std::string("the plan is the 128x256 tile unsplit: ") + who + " serves it");
  if (forced_split_k() == 0 && p.ctas > current_sm_count())
    return Status::unsupported("the plan needs more than one round of CTAs: the persistent kernels serve it");
  return Status::success();
}

// The plan for the repacked problem (the copies' aligned ld's): WsLoads::in_copy for the fused
// entry, over the tiles that have in-copy instances (the same plan whether the grid or the copies
// kernel copies).
SplitKPlan sm90_repacked_plan(const GemmDesc& g, DType input, WsLoads loads) {
  return plan_split_k(repacked_desc(g, plan_tma_repack(g)), input, current_sm_count(), loads);
}

namespace {

// kDirectStore: the `_ds` instances, which store a row-major 16-bit D (beta == 0) straight from
// registers. The plain 128x256 s4 `_ws` kernel keeps the staged epilogue to be measured against
// them; the other tile variants store from registers wherever the `_ds` rule allows.
// V: the tile variant of wgmma_tma_ws.cu (128x256 s4 unless a sweep point or narrow tile).
template <DType In, bool kDirectStore = false, Sm90WsVariant V = Sm90WsVariant{}>
KernelEntry ws_entry(std::string_view name) {
  Sm90WsShape tile = sm90_wgmma_ws_shape(In, V);
  tile.tile_k *= V.stage_k_blocks;  // a stage's K, as listed (the launch counts 64-wide k-blocks)
  KernelEntry e = wgmma_entry(name, In, tile);
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


template <DType In>
KernelEntry planned_entry(std::string_view name) {
  KernelEntry e = ws_entry<In>(name);
  e.preference = 3;
  e.supports = [](const GemmDesc& g) -> Status {
    if (Status s = sm90_wgmma_ws_supports(g, In); !s.ok()) return s;
    return sm90_planned_fits(plan_split_k(g, In, current_sm_count()), "the plain kernel");
  };
  e.workspace_bytes = [](const GemmDesc& g) { return plan_split_k(g, In, current_sm_count()).workspace_bytes; };
  e.split_k = [](const GemmDesc& g) { return plan_split_k(g, In, current_sm_count()).splits; };
  e.tile_for = [](const GemmDesc& g) { return plan_tile(plan_split_k(g, In, current_sm_count())); };
  e.launch = [](const GemmArgs& a) { return sm90_wgmma_ws_planned_launch(a, In); };
  e.describe = [](const GemmDesc& g) { return describe(plan_split_k(g, In, current_sm_count())); };
  return e;
}

template <DType In>
KernelEntry planned_repack_entry(std::string_view name) {
  KernelEntry e = ws_entry<In>(name);
  e.preference = 3;
  e.supports = [](const GemmDesc& g) -> Status {
    if (Status s = repack_supports<In>(g); !s.ok()) return s;
    return sm90_planned_fits(sm90_repacked_plan(g, In), "the repack path");
  };
  e.copy_bytes = &repack_copy_bytes;
  e.split_k = [](const GemmDesc& g) { return sm90_repacked_plan(g, In).splits; };
  e.tile_for = [](const GemmDesc& g) { return plan_tile(sm90_repacked_plan(g, In)); };
  e.workspace_bytes = [](const GemmDesc& g) { return copies_then(g, sm90_repacked_plan(g, In).workspace_bytes); };
  e.launch = [](const GemmArgs& args) -> Status {
    Result<GemmArgs> next = repack_before_split(args);
    if (!next.ok()) return next.status();
    return sm90_wgmma_ws_planned_launch(next.value(), In);
  };
  e.describe = [](const GemmDesc& g) { return "repack A/B, then " + describe(sm90_repacked_plan(g, In)); };
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
    return sm90_planned_fits(sm90_repacked_plan(g, In, WsLoads::in_copy), "the repack path");
  };
  e.split_k = [](const GemmDesc& g) { return sm90_repacked_plan(g, In, WsLoads::in_copy).splits; };
  e.tile_for = [](const GemmDesc& g) { return plan_tile(sm90_repacked_plan(g, In, WsLoads::in_copy)); };
  e.workspace_bytes = [](const GemmDesc& g) {
    return copies_then(g, sm90_repacked_plan(g, In, WsLoads::in_copy).workspace_bytes);
  };
  e.launch = &fused_repack_launch<In>;
  e.describe = [](const GemmDesc& g) {
    return "the grid copies A/B itself, then " + describe(sm90_repacked_plan(g, In, WsLoads::in_copy));
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
    const SplitKPlan p = sm90_repacked_plan(g, In, WsLoads::in_copy);
    if (p.ctas > 0 && copies > kFusedCopyBytesPerCta * static_cast<std::size_t>(p.ctas))
      return Status::unsupported("copies of " + std::to_string(copies / static_cast<std::size_t>(p.ctas)) +
                                 " bytes a CTA over the plan's " + std::to_string(p.ctas) +
                                 " CTAs: the copies kernel spreads them over every SM");
    return sm90_planned_fits(p, "the repack path");
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
    if (Status s = sm90_planned_fits(p, "the repack path"); !s.ok()) return s;
    if (forced_split_k() != 0) return Status::success();
    const double copies = static_cast<double>(repack_copy_bytes(g)) / kRepackBytesPerUs + kRepackLaunchUs;
    const double repacked = sm90_repacked_plan(g, In).predicted_us;
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
  add_sm90_pc_kernels(table);
  table.push_back(streamk_entry<DType::bf16>("sm90_wgmma_bf16_128x256x64_s4_ws_streamk"));
  table.push_back(streamk_entry<DType::f16>("sm90_wgmma_f16_128x256x64_s4_ws_streamk"));
  table.push_back(serial_splitk_entry<DType::bf16>("sm90_wgmma_bf16_128x256x64_s4_ws_serial_splitk"));
  table.push_back(serial_splitk_entry<DType::f16>("sm90_wgmma_f16_128x256x64_s4_ws_serial_splitk"));
  // TF32 (f32 storage) on m64n256k8: K-major A and B only, BK = 32 (the same 128-byte rows); the
  // plain kernel's preference, so gemm() takes it over sm80_mma_sync_tf32 where it applies.
  table.push_back(ws_entry<DType::tf32>("sm90_wgmma_tf32_128x256x32_s4_ws"));
  add_sm90_swap_kernels(table);
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
  // Stages of two k-blocks (K 128 a stage, one barrier round trip for both): TMA alone took
  // 372 cycles a one-k-block stage of the 64x64 tile, 237-242 a k-block with two (run 275); the
  // GEMM's 64x64 stream 418 -> 312 cycles a k-block (run 276), the split planner's 64x64 tile since.
  // 128x64x128 s4 is by name: 1.6-9% ahead of 128x64 s9 in five of six split plans, 4% behind at
  // 256x512x16384 x6 (run 276). (128x128x128 s3, 3 stages, was behind s7 in all four plans timed,
  // by 0.5-10%: not built.)
  constexpr Sm90WsVariant k128x64x2{.tile_n = 64, .stages = 4, .consumers = 2, .stage_k_blocks = 2};
  table.push_back(splitk_entry<DType::bf16, kSm90Ws64x64TwoKBlocks>("sm90_wgmma_bf16_64x64x128_s7_ws_splitk"));
  table.push_back(splitk_entry<DType::f16, kSm90Ws64x64TwoKBlocks>("sm90_wgmma_f16_64x64x128_s7_ws_splitk"));
  table.push_back(splitk_entry<DType::bf16, k128x64x2>("sm90_wgmma_bf16_128x64x128_s4_ws_splitk"));
  add_sm90_multicast_kernels(table);
  add_sm90_tiny_kernels(table);
  add_sm90_skinny_kernels(table);
}

}  // namespace tcgemm
