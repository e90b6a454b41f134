// The persistent cluster kernel's host side (the kernel: wgmma_ws_persistent_cluster_kernel.cuh):
// the compiled instances, the raster and swizzle switches, the tensor maps and launch of each path
// (plain, stream-K, split-K slabs, the stores by threads), and supports(), which says what each
// tile refuses and why.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "analysis/path_rules.hpp"
#include "kernels/common/launch_attributes.hpp"
#include "kernels/common/tensor_map.hpp"
#include "kernels/sm90/split_k.hpp"
#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "kernels/sm90/wgmma_ws_persistent_cluster.hpp"
#include "kernels/sm90/wgmma_ws_persistent_cluster_kernel.cuh"

namespace tcgemm {
namespace {

using namespace sm90_pc;  // NOLINT(google-build-using-namespace): this file is the kernel's host half

// --- host side -------------------------------------------------------------------------------
template <WgmmaInput In, int S, bool kStreamK = false, PcTile T = PcTile::m128n256, bool kF32D = false>
const void* kernel_function() {
  return reinterpret_cast<const void*>(&wgmma_ws_persistent_cluster_kernel<In, S, kStreamK, T, kF32D>);
}

std::atomic<int> g_raster{static_cast<int>(PcRaster::heuristic)};
std::atomic<int> g_swizzle{0};

// A tile split into more pieces than this costs its owner more partial reads (128 KB each, on
// its critical path) than the idle SMs it saves; small problems use fewer sharing clusters.
constexpr int64_t kMaxPiecesPerTile = 8;
constexpr std::size_t kSlotBytes =
    Config<WgmmaInput::bf16, 3>::kTileM * Config<WgmmaInput::bf16, 3>::kTileN * sizeof(float);

std::size_t flag_bytes(const PcStreamKPlan& p) {
  return (static_cast<std::size_t>(p.sk_clusters) * 2 * 2 * sizeof(uint32_t) + 255) / 256 * 256;
}

// The fitting widths (4 stages, bf16 or f16): f(tag) with the width's PcTile as a type.
template <class F>
auto with_fit_tile(PcTile tile, F&& f) {
  if (tile == PcTile::m128n144) return f(std::integral_constant<PcTile, PcTile::m128n144>{});
  if (tile == PcTile::m128n160) return f(std::integral_constant<PcTile, PcTile::m128n160>{});
  if (tile == PcTile::m128n176) return f(std::integral_constant<PcTile, PcTile::m128n176>{});
  return f(std::integral_constant<PcTile, PcTile::m128n192>{});
}

// The 192-row fitting widths (3 stages, bf16 or f16).
template <class F>
auto with_fit192_tile(PcTile tile, F&& f) {
  if (tile == PcTile::m192n160) return f(std::integral_constant<PcTile, PcTile::m192n160>{});
  return f(std::integral_constant<PcTile, PcTile::m192n176>{});
}

const void* pick_function(DType input, int stages, PcTile tile) {
  if (is_pc_fit_tile(tile))
    return with_fit_tile(tile, [&](auto t) {
      return input == DType::bf16 ? kernel_function<WgmmaInput::bf16, 4, false, decltype(t)::value>()
                                  : kernel_function<WgmmaInput::f16, 4, false, decltype(t)::value>();
    });
  if (tile == PcTile::m256n128)
    return input == DType::bf16 ? kernel_function<WgmmaInput::bf16, 4, false, PcTile::m256n128>()
                                : kernel_function<WgmmaInput::f16, 4, false, PcTile::m256n128>();
  if (is_pc_fit192_tile(tile))
    return with_fit192_tile(tile, [&](auto t) {
      return input == DType::bf16 ? kernel_function<WgmmaInput::bf16, 3, false, decltype(t)::value>()
                                  : kernel_function<WgmmaInput::f16, 3, false, decltype(t)::value>();
    });
  if (tile == PcTile::m192n192) {
    if (input == DType::bf16)
      return stages == 3 ? kernel_function<WgmmaInput::bf16, 3, false, PcTile::m192n192>()
                         : kernel_function<WgmmaInput::bf16, 4, false, PcTile::m192n192>();
    return kernel_function<WgmmaInput::f16, 4, false, PcTile::m192n192>();
  }
  if (input == DType::bf16)
    return stages == 3 ? kernel_function<WgmmaInput::bf16, 3>() : kernel_function<WgmmaInput::bf16, 4>();
  if (input == DType::tf32)
    return stages == 3 ? kernel_function<WgmmaInput::tf32, 3>() : kernel_function<WgmmaInput::tf32, 4>();
  return stages == 3 ? kernel_function<WgmmaInput::f16, 3>() : kernel_function<WgmmaInput::f16, 4>();
}

template <WgmmaInput In, int S, bool kStreamK = false, PcTile T = PcTile::m128n256, bool kF32D = false>
Status launch_impl(const GemmArgs& args, DType input, int max_clusters, PcDStore store,
                   const PcSlabs* slabs = nullptr) {
  using C = Config<In, S, T, kF32D>;
  const GemmDesc& g = args.desc;
  const int64_t lda = effective_ld(g.a, extent_a(g));
  const int64_t ldb = effective_ld(g.b, extent_b(g));
  const int64_t ldd = effective_ld(g.d, extent_c(g));
  Result<TensorMap2d> map_a = make_tensor_map_2d("A", g.a.dtype, args.a, g.k, g.m, lda, C::kTileK, C::kTileM);
  if (!map_a.ok()) return map_a.status();
  Result<TensorMap2d> map_b = make_tensor_map_2d("B", g.b.dtype, args.b, g.k, g.n, ldb, C::kTileK, C::kTileN / 2);
  if (!map_b.ok()) return map_b.status();
  // Inner extent n rounded down to 16 bytes (see the NOTES on 16-byte store granularity); where
  // that is 0 no TMA store is issued and the map only has to be valid (ldd >= kChunkCols here, by
  // the 16-byte ld rule).
  // With the storer warps writing D, no D map is encoded (D's ld may break TMA's rule); the
  // kernel's map_d parameter then carries A's map, prefetched and never used.
  const bool by_threads = store == PcDStore::threads;
  // A column-major D (the swapped problem, pc_swap.hpp): lines of M, boxes of 64 x kTileN.
  const bool trans_d = g.d.layout == Layout::column;
  if (trans_d && (!C::kFit || by_threads || slabs != nullptr || kStreamK || g.m % 8 != 0 ||
                  (g.beta != 0.0f && g.c.layout != Layout::column)))
    return Status(StatusCode::internal, "persistent cluster kernel: a column-major D takes a fitting width, a TMA "
                                        "store, M % 8 == 0 and (beta != 0) a column-major C");
  const int64_t n_tma = by_threads ? 0 : trans_d ? g.n : g.n / C::kChunkCols * C::kChunkCols;
  // Split-K: D is the stack of f32 slabs, splits x slab_rows rows.
  const int64_t d_lines = slabs != nullptr ? slabs->splits * slabs->slab_rows : g.m;
  Result<TensorMap2d> map_d =
      by_threads ? map_a
      : trans_d  ? make_tensor_map_2d("D", g.d.dtype, args.d, g.m, g.n, ldd, 64, C::kTileN)
                 : make_tensor_map_2d("D", g.d.dtype, args.d, std::max<int64_t>(n_tma, C::kChunkCols), d_lines, ldd,
                                      C::kBoxCols, 64);
  if (!map_d.ok()) return map_d.status();
  // beta != 0: C in D's boxes (row-major, D's type: supports()); its full N, since TMA loads fill
  // what lies past the map with zeros (only stores are clipped to n_tma). Else A's map stands in.
  const bool with_c = g.beta != 0.0f;
  if (with_c && args.c == nullptr) return Status::invalid("C must be non-null when beta != 0");
  Result<TensorMap2d> map_c =
      !with_c   ? map_a
      : trans_d ? make_tensor_map_2d("C", g.c.dtype, args.c, g.m, g.n, effective_ld(g.c, extent_c(g)), 64, C::kTileN)
                : make_tensor_map_2d("C", g.c.dtype, args.c, g.n, g.m, effective_ld(g.c, extent_c(g)), C::kBoxCols, 64);
  if (!map_c.ok()) return map_c.status();

  Params p{};
  p.m = g.m;
  p.n = g.n;
  p.n_tma = n_tma;
  p.d = args.d;
  p.ldd = ldd;
  p.d_by_threads = by_threads ? 1 : 0;
  p.d_trans = trans_d ? 1 : 0;
  set_pair_grid(p, pair_grid(g, C::kTileM, C::kTileN, C::kTileK));
  p.alpha = g.alpha;
  p.beta = g.beta;
  p.group = pc_swizzle_resolved();
  p.along_n = pc_raster_resolved() == PcRaster::along_n ? 1 : 0;
  p.splits = 1;
  p.k_per_split = p.k_tiles;
  p.trace = sm90_wgmma_ws_trace();
  if (slabs != nullptr) {
    p.splits = slabs->splits;
    p.k_per_split = slabs->k_blocks_per_split;
    p.slab_rows = slabs->slab_rows;
  }
  if (p.pair_tiles <= 0) return Status::success();

  const void* fn = kernel_function<In, S, kStreamK, T, kF32D>();
  const uint32_t smem = C::kSmemBytes;
  if (Status s = allow_dynamic_smem(fn, static_cast<int>(smem)); !s.ok()) return s;
  Result<int> resident = resident_clusters(fn, C::kClusterM, C::kThreads, static_cast<int>(smem));
  if (!resident.ok()) return resident.status();
  int64_t clusters = resident.value();
  if (max_clusters > 0) clusters = std::min<int64_t>(clusters, max_clusters);
  if constexpr (kStreamK) {
    // With fewer pair-tiles than clusters, the spare clusters share K too (a bounded number of
    // pieces a tile, each at least one k-block).
    clusters = std::min({clusters, p.pair_tiles * kMaxPiecesPerTile, p.pair_tiles * p.k_tiles});
    const PcStreamKPlan plan = plan_pc_streamk(p.pair_tiles, p.k_tiles, clusters);
    const std::size_t need = pc_streamk_workspace_bytes(plan);
    if (need > 0) {
      if (args.workspace == nullptr || args.workspace_bytes < need)
        return Status(StatusCode::workspace_too_small,
                      "stream-K (persistent cluster) needs " + std::to_string(need) + " bytes of workspace (flags + " +
                          std::to_string(2 * plan.sk_clusters) + " partial tiles of 128 KB); got " +
                          std::to_string(args.workspace_bytes));
      if (reinterpret_cast<std::uintptr_t>(args.workspace) % 16 != 0)
        return Status(StatusCode::misaligned, "stream-K: the workspace must be 16-byte aligned (float4 partials)");
      p.flags = static_cast<uint32_t*>(args.workspace);
      p.partials = reinterpret_cast<float*>(static_cast<char*>(args.workspace) + flag_bytes(plan));
      if (cudaError_t err = cudaMemsetAsync(args.workspace, 0, flag_bytes(plan), args.stream); err != cudaSuccess)
        return Status(StatusCode::cuda_error, std::string("stream-K: zeroing the flags: ") + cudaGetErrorString(err));
    }
    p.sk_tiles = plan.sk_tiles;
    p.sk_clusters = plan.sk_clusters;
    p.sk_share = plan.sk_share;
    p.sk_extra = plan.sk_extra;
  } else {
    clusters = std::min<int64_t>(clusters, p.pair_tiles * p.splits);
  }

  const CUtensorMap* ma = &map_a.value().map;
  const CUtensorMap* mb = &map_b.value().map;
  const CUtensorMap* md = &map_d.value().map;
  const CUtensorMap* mc = &map_c.value().map;
  void* kernel_args[] = {const_cast<CUtensorMap*>(ma), const_cast<CUtensorMap*>(mb), const_cast<CUtensorMap*>(md),
                         const_cast<CUtensorMap*>(mc), &p};
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(static_cast<unsigned>(2 * clusters));
  cfg.blockDim = dim3(C::kThreads);
  cfg.dynamicSmemBytes = smem;
  cfg.stream = args.stream;
  cudaLaunchAttribute attrs[2] = {cluster_dim_attribute(C::kClusterM), pdl_attribute()};
  cfg.attrs = attrs;
  cfg.numAttrs = 2;
  const cudaError_t err = cudaLaunchKernelExC(&cfg, fn, kernel_args);
  if (err != cudaSuccess)
    return Status(StatusCode::cuda_error, std::string("sm90 persistent cluster launch failed: ") + cudaGetErrorString(err));
  return Status::success();
}

}  // namespace

void set_pc_raster(PcRaster order, int swizzle) {
  g_raster.store(static_cast<int>(order));
  g_swizzle.store(std::max(swizzle, 0));
}
PcRaster pc_raster_order() { return static_cast<PcRaster>(g_raster.load()); }
int pc_swizzle() { return g_swizzle.load(); }
PcRaster pc_raster_resolved() {
  const PcRaster r = pc_raster_order();
  return r == PcRaster::heuristic ? PcRaster::along_m : r;
}
int pc_swizzle_resolved() {
  const int z = pc_swizzle();
  return z > 0 ? z : kPcDefaultSwizzle;
}
const char* to_string(PcRaster r) {
  return r == PcRaster::along_m ? "along_m" : r == PcRaster::along_n ? "along_n" : "heuristic";
}

PcStreamKPlan plan_pc_streamk(int64_t pair_tiles, int k_tiles, int64_t clusters) {
  PcStreamKPlan p;
  p.pair_tiles = pair_tiles;
  p.k_tiles = k_tiles;
  p.clusters = clusters;
  if (pair_tiles <= 0 || k_tiles <= 0 || clusters <= 0) return p;
  const int64_t rest = pair_tiles % clusters;
  if (rest == 0) return p;  // whole rounds: nothing to share
  // NOTES: measured (bench/NOTES.md, "Stream-K on the persistent cluster kernel"): the sustained
  // bench runs at the 700 W cap, where time follows energy, and a last round that is more than
  // half full gains nothing from sharing (8192^3, 52% full: +0.2/-1.8%; 4096^3, 88%: -2.0/-1.5%)
  // while the memset and fix-up still cost; 38% full (4224^3, 4097^3) gained 1-5%. Without a
  // full round the spare clusters would idle, so small problems always share.
  if (pair_tiles >= clusters && 2 * rest > clusters) return p;
  const int64_t iterations = rest * k_tiles;
  p.sk_tiles = rest;
  p.sk_clusters = std::min({clusters, rest * kMaxPiecesPerTile, iterations});
  p.sk_share = iterations / p.sk_clusters;
  p.sk_extra = iterations % p.sk_clusters;
  return p;
}

std::size_t pc_streamk_workspace_bytes(const PcStreamKPlan& p) {
  if (p.sk_clusters == 0) return 0;
  return flag_bytes(p) + static_cast<std::size_t>(p.sk_clusters) * 2 * kSlotBytes;
}

// k-blocks a pair-tile needs before gemm() shares a last round's tiles (see below). Diagnosis only:
// TCGEMM_DIAG_STREAMK_MIN_KTILES=<n> moves the bound, to time the shared tail where it is refused.
namespace {
int64_t min_shared_k_tiles() {
  static const int64_t bound = [] {
    const char* v = std::getenv("TCGEMM_DIAG_STREAMK_MIN_KTILES");
    return v != nullptr && *v != '\0' ? std::max<int64_t>(std::atoll(v), 0) : kStreamKMinSharedKTiles;
  }();
  return bound;
}
}  // namespace

bool sm90_pc_streamk_shares_tail(const GemmDesc& g) {
  if (g.m <= Config<WgmmaInput::bf16, 3>::kTileM) return false;
  const PairGrid pg = pair_grid(g, Config<WgmmaInput::bf16, 3>::kTileM, Config<WgmmaInput::bf16, 3>::kTileN,
                                Config<WgmmaInput::bf16, 3>::kTileK);
  const int64_t clusters = std::max(current_sm_count() / 2, 1);
  // One partial round filling half to 60% of the clusters (256x9216x8192: 36 of 66): the plain
  // grid leaves the rest idle, and split-K's planner declines (two splits of 128x256 tiles pass one
  // round of CTAs), so every cluster shares the k-blocks. NOTES (run 87): 36 of 66 clusters gained
  // 13%; 43-45 of 66 -5 to +2% (the SMs that sharing wakes run at the power cap's clocks, and each
  // piece writes and reads a 128 KB partial); below half the planner's split takes it.
  if (pg.pair_tiles < clusters)
    return 2 * pg.pair_tiles > clusters && 5 * pg.pair_tiles <= 3 * clusters && pg.k_tiles >= 64;
  // After a full round, only tiles of kStreamKMinSharedKTiles k-blocks or more (path_rules.hpp):
  // below that a shared piece's partial and second fill cost more than the idle clusters save.
  return pg.k_tiles >= min_shared_k_tiles() && plan_pc_streamk(pg.pair_tiles, pg.k_tiles, clusters).sk_clusters > 0;
}

std::size_t sm90_wgmma_ws_pc_streamk_workspace(const GemmDesc& g) {
  // The resident cluster count is known only at launch; no more than half the SMs (one CTA an
  // SM) can share, and no more than there are k-blocks of pair-tiles to share.
  const PairGrid pg = pair_grid(g, Config<WgmmaInput::bf16, 3>::kTileM, Config<WgmmaInput::bf16, 3>::kTileN,
                                Config<WgmmaInput::bf16, 3>::kTileK);
  PcStreamKPlan bound;
  bound.sk_clusters = std::min<int64_t>(std::max(current_sm_count() / 2, 1), pg.pair_tiles * pg.k_tiles);
  return pc_streamk_workspace_bytes(bound);
}

Status sm90_wgmma_ws_pc_streamk_supports(const GemmDesc& g, DType input) {
  if (input != DType::bf16 && input != DType::f16)
    return Status::unsupported("stream-K on the persistent cluster kernel takes bf16 or f16 inputs");
  return sm90_wgmma_ws_pc_supports(g, input);
}

Status sm90_wgmma_ws_pc_streamk_launch(const GemmArgs& args, DType input, int max_clusters, PcDStore store) {
  if (input != DType::bf16 && input != DType::f16)
    return Status(StatusCode::internal, "persistent cluster stream-K: input must be bf16 or f16");
  if (args.a == nullptr || args.b == nullptr || args.d == nullptr)
    return Status::invalid("A, B and D must be non-null");
  return input == DType::bf16 ? launch_impl<WgmmaInput::bf16, 3, true>(args, input, max_clusters, store)
                              : launch_impl<WgmmaInput::f16, 3, true>(args, input, max_clusters, store);
}

const void* sm90_wgmma_ws_pc_streamk_function(DType input) {
  return input == DType::bf16 ? kernel_function<WgmmaInput::bf16, 3, true>()
                              : kernel_function<WgmmaInput::f16, 3, true>();
}

Status sm90_wgmma_ws_pc_supports(const GemmDesc& g, DType input, PcDStore store, bool f32_d) {
  if (input != DType::bf16 && input != DType::f16 && input != DType::tf32)
    return Status::unsupported("the persistent cluster kernel takes bf16, f16 or tf32 inputs");
  if (g.a.layout != Layout::row || g.b.layout != Layout::column)
    return Status::unsupported("the persistent cluster kernel needs K-major A and B (A row-major, B column-major)");
  // D: the input type for bf16/f16 (f32 in the _f32d instances); f32 for tf32 (f32 storage in, f32 out).
  const DType d_type = input == DType::tf32 || f32_d ? DType::f32 : input;
  if (g.d.layout != Layout::row || g.d.dtype != d_type)
    return Status::unsupported("the persistent cluster kernel stores D row-major in " +
                               (input == DType::tf32 ? std::string("f32 for tf32 inputs")
                                : f32_d          ? std::string("f32 (this instance)")
                                                 : "the input type (" + std::string(to_string(input)) + ")") +
                               "; got " + std::string(to_string(g.d.dtype)) +
                               (g.d.layout == Layout::row ? " row-major" : " column-major"));
  if (g.beta != 0.0f) {
    // C is TMA-loaded into the epilogue's swizzled D boxes: the same type, layout and box.
    if (g.c.layout != Layout::row || g.c.dtype != d_type)
      return Status::unsupported("with beta != 0 the persistent cluster kernel reads C row-major in D's type (" +
                                 std::string(to_string(d_type)) + "); got " + std::string(to_string(g.c.dtype)) +
                                 (g.c.layout == Layout::row ? " row-major" : " column-major"));
    if (Status s = check_tma_operand("C", g.c.dtype, g.c.pointer_alignment, effective_ld(g.c, extent_c(g))); !s.ok())
      return s;
  }
  if (g.m < 1 || g.n < 1 || g.k < 1) return Status::unsupported("m, n and k must be at least 1");
  if (Status s = sm90_wgmma_ws_supports(g, input); !s.ok()) return s;  // dtypes, A/B TMA rules, extents
  if (store == PcDStore::threads) {
    // 16-byte stores go where D's own alignment allows; a lone element needs its own size.
    if (g.d.pointer_alignment % dtype_bytes(g.d.dtype) != 0)
      return Status::unsupported("D's base must be aligned to its element size");
    return Status::success();
  }
  if (Status s = check_tma_operand("D", g.d.dtype, g.d.pointer_alignment, effective_ld(g.d, extent_c(g))); !s.ok())
    return s;
  return Status::success();
}

Status sm90_wgmma_ws_pc_launch(const GemmArgs& args, DType input, int stages, int max_clusters, PcDStore store,
                               PcTile tile) {
  if (stages != 3 && stages != 4) return Status(StatusCode::internal, "persistent cluster kernel: stages must be 3 or 4");
  if (input != DType::bf16 && input != DType::f16 && input != DType::tf32)
    return Status(StatusCode::internal, "persistent cluster kernel: input must be bf16, f16 or tf32");
  if (args.a == nullptr || args.b == nullptr || args.d == nullptr)
    return Status::invalid("A, B and D must be non-null");
  if (input != DType::tf32 && args.desc.d.dtype == DType::f32) {
    // NOTES: one instance a 16-bit input (3 stages, 128x256: gemm()'s configuration); the C
    // buffer holds the f32 tile in two 128-column halves, as for tf32.
    if (stages != 3 || tile != PcTile::m128n256)
      return Status(StatusCode::internal, "persistent cluster kernel: an f32 D from 16-bit inputs is built for 3 "
                                          "stages and the 128x256 tile");
    return input == DType::bf16 ? launch_impl<WgmmaInput::bf16, 3, false, PcTile::m128n256, true>(args, input, max_clusters, store)
                                : launch_impl<WgmmaInput::f16, 3, false, PcTile::m128n256, true>(args, input, max_clusters, store);
  }
  if (is_pc_fit_tile(tile)) {
    if (!pc_tile_instantiated(input, stages, tile))
      return Status(StatusCode::internal, "persistent cluster kernel: the fitting widths are built for bf16 and f16 "
                                          "at 4 stages");
    if (args.desc.d.dtype != input)
      return Status(StatusCode::internal, "persistent cluster kernel: the fitting widths store D in the input type");
    return with_fit_tile(tile, [&](auto t) {
      return input == DType::bf16
                 ? launch_impl<WgmmaInput::bf16, 4, false, decltype(t)::value>(args, input, max_clusters, store)
                 : launch_impl<WgmmaInput::f16, 4, false, decltype(t)::value>(args, input, max_clusters, store);
    });
  }
  if (tile == PcTile::m256n128) {
    if (!pc_tile_instantiated(input, stages, tile) || args.desc.d.dtype != input)
      return Status(StatusCode::internal, "persistent cluster kernel: the 256x128 tile is built for bf16 and f16 at 4 "
                                          "stages, D in the input type");
    return input == DType::bf16 ? launch_impl<WgmmaInput::bf16, 4, false, PcTile::m256n128>(args, input, max_clusters, store)
                                : launch_impl<WgmmaInput::f16, 4, false, PcTile::m256n128>(args, input, max_clusters, store);
  }
  if (is_pc_fit192_tile(tile)) {
    if (!pc_tile_instantiated(input, stages, tile) || args.desc.d.dtype != input)
      return Status(StatusCode::internal, "persistent cluster kernel: the 192-row fitting widths are built for bf16 and "
                                          "f16 at 3 stages, D in the input type");
    return with_fit192_tile(tile, [&](auto t) {
      return input == DType::bf16
                 ? launch_impl<WgmmaInput::bf16, 3, false, decltype(t)::value>(args, input, max_clusters, store)
                 : launch_impl<WgmmaInput::f16, 3, false, decltype(t)::value>(args, input, max_clusters, store);
    });
  }
  if (tile == PcTile::m192n192) {
    if (!pc_tile_instantiated(input, stages, tile))
      return Status(StatusCode::internal, "persistent cluster kernel: the 192x192 tile is built for bf16 (3 or 4 "
                                          "stages) and f16 (4 stages)");
    if (input == DType::bf16)
      return stages == 3 ? launch_impl<WgmmaInput::bf16, 3, false, PcTile::m192n192>(args, input, max_clusters, store)
                         : launch_impl<WgmmaInput::bf16, 4, false, PcTile::m192n192>(args, input, max_clusters, store);
    return launch_impl<WgmmaInput::f16, 4, false, PcTile::m192n192>(args, input, max_clusters, store);
  }
  if (input == DType::bf16)
    return stages == 3 ? launch_impl<WgmmaInput::bf16, 3>(args, input, max_clusters, store)
                       : launch_impl<WgmmaInput::bf16, 4>(args, input, max_clusters, store);
  if (input == DType::tf32)
    return stages == 3 ? launch_impl<WgmmaInput::tf32, 3>(args, input, max_clusters, store)
                       : launch_impl<WgmmaInput::tf32, 4>(args, input, max_clusters, store);
  return stages == 3 ? launch_impl<WgmmaInput::f16, 3>(args, input, max_clusters, store)
                     : launch_impl<WgmmaInput::f16, 4>(args, input, max_clusters, store);
}

const void* sm90_wgmma_ws_pc_function(DType input, int stages, PcTile tile) {
  return pc_tile_instantiated(input, stages, tile) ? pick_function(input, stages, tile) : nullptr;
}

Status sm90_wgmma_ws_pc_slabs_launch(const GemmArgs& slab_args, DType input, const PcSlabs& slabs) {
  const GemmDesc& g = slab_args.desc;
  if (input != DType::bf16 && input != DType::f16)
    return Status(StatusCode::internal, "persistent cluster split-K: input must be bf16 or f16");
  const PairGrid pg = pair_grid(g, Config<WgmmaInput::bf16, 3>::kTileM, Config<WgmmaInput::bf16, 3>::kTileN,
                                Config<WgmmaInput::bf16, 3>::kTileK);
  // Every split non-empty, the slab rows a multiple of the 64-row store box (a box never reaches
  // the next slab), 32-bit work items and slab row coordinates.
  if (slabs.splits < 2 || slabs.k_blocks_per_split < 1 ||
      static_cast<int64_t>(slabs.splits - 1) * slabs.k_blocks_per_split >= pg.k_tiles ||
      static_cast<int64_t>(slabs.splits) * slabs.k_blocks_per_split < pg.k_tiles || slabs.slab_rows < g.m ||
      slabs.slab_rows % 64 != 0 || static_cast<int64_t>(slabs.splits) * slabs.slab_rows >= (int64_t{1} << 31) ||
      pg.pair_tiles * slabs.splits >= (int64_t{1} << 31))
    return Status(StatusCode::internal, "persistent cluster split-K: inconsistent slab plan");
  if (g.d.dtype != DType::f32 || g.d.layout != Layout::row || g.beta != 0.0f || g.n % 4 != 0 ||
      effective_ld(g.d, extent_c(g)) != g.n)
    return Status(StatusCode::internal, "persistent cluster split-K: slabs are tight row-major f32, N % 4 == 0, beta 0");
  return input == DType::bf16
             ? launch_impl<WgmmaInput::bf16, 3, false, PcTile::m128n256, true>(slab_args, input, 0, PcDStore::tma, &slabs)
             : launch_impl<WgmmaInput::f16, 3, false, PcTile::m128n256, true>(slab_args, input, 0, PcDStore::tma, &slabs);
}

const void* sm90_wgmma_ws_pc_f32d_function(DType input) {
  if (input == DType::bf16) return kernel_function<WgmmaInput::bf16, 3, false, PcTile::m128n256, true>();
  if (input == DType::f16) return kernel_function<WgmmaInput::f16, 3, false, PcTile::m128n256, true>();
  return nullptr;
}

bool pc_tile_instantiated(DType input, int stages, PcTile tile) {
  if (stages != 3 && stages != 4) return false;
  if (tile == PcTile::m128n256) return input == DType::bf16 || input == DType::f16 || input == DType::tf32;
  if (tile == PcTile::m192n192) return input == DType::bf16 || (input == DType::f16 && stages == 4);
  if (is_pc_fit192_tile(tile)) return (input == DType::bf16 || input == DType::f16) && stages == 3;
  return (input == DType::bf16 || input == DType::f16) && stages == 4;  // the fitting widths, 256x128
}

Sm90WsShape sm90_wgmma_ws_pc_shape(int stages, DType input, PcTile tile) {
  // Tile, threads and shared memory are the same for every input (static_assert above); BK is
  // one 128-byte row: 64 16-bit or 32 tf32 elements.
  const int tile_k = input == DType::tf32 ? Config<WgmmaInput::tf32, 3>::kTileK : Config<WgmmaInput::bf16, 3>::kTileK;
  if (is_pc_fit_tile(tile))
    return with_fit_tile(tile, [&](auto t) -> Sm90WsShape {
      using C = Config<WgmmaInput::bf16, 4, decltype(t)::value>;
      return {C::kTileM, C::kTileN, tile_k, 4, C::kThreads, static_cast<int>(C::kSmemBytes)};
    });
  if (tile == PcTile::m256n128) {
    using C = Config<WgmmaInput::bf16, 4, PcTile::m256n128>;
    return {C::kTileM, C::kTileN, tile_k, 4, C::kThreads, static_cast<int>(C::kSmemBytes)};
  }
  if (is_pc_fit192_tile(tile))
    return with_fit192_tile(tile, [&](auto t) -> Sm90WsShape {
      using C = Config<WgmmaInput::bf16, 3, decltype(t)::value>;
      return {C::kTileM, C::kTileN, tile_k, 3, C::kThreads, static_cast<int>(C::kSmemBytes)};
    });
  if (tile == PcTile::m192n192) {
    using C = Config<WgmmaInput::bf16, 3, PcTile::m192n192>;
    return {C::kTileM, C::kTileN, tile_k, stages, C::kThreads,
            static_cast<int>(stages == 3 ? C::kSmemBytes
                                         : Config<WgmmaInput::bf16, 4, PcTile::m192n192>::kSmemBytes)};
  }
  using C = Config<WgmmaInput::bf16, 3>;
  return {C::kTileM, C::kTileN, tile_k, stages, C::kThreads,
          static_cast<int>(stages == 3 ? C::kSmemBytes : Config<WgmmaInput::bf16, 4>::kSmemBytes)};
}

}  // namespace tcgemm
