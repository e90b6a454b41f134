// The ws kernel's host side (the kernel: wgmma_tma_ws_kernel.cuh): the compiled instances, the
// tensor maps and launch of each path (plain, split-K slabs, cluster sums, multicast), and
// supports(), which says what each variant refuses and why.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "kernels/common/caller_epilogue.hpp"
#include "kernels/common/launch_attributes.hpp"
#include "kernels/common/splitk_reduce.hpp"
#include "kernels/common/tensor_map.hpp"
#include "kernels/common/tile_counters.hpp"
#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "kernels/sm90/wgmma_tma_ws_kernel.cuh"

namespace tcgemm {
namespace {

using namespace sm90_ws;  // NOLINT(google-build-using-namespace): this file is the kernel's host half

// --- host side -------------------------------------------------------------------------------
// The compiled instances. Each (tile N, stages) variant is one of four sets, to keep the build
// lean: the full set (every layout, the register-store epilogue, tf32), the narrow set (B K-major,
// A either way: what swap-A/B needs), sweep points (A and B K-major, bf16 only), and stages of two
// k-blocks (KB = 2: K-major A and B by TMA, no multicast; bf16, and f16 on the one-consumer 64x64
// tile that the split planner runs; bench/NOTES.md, run 276).
enum class InstanceSet { full, narrow, sweep, wide_stage };

template <int N, int S, int Consumers = 2, int KB = 1>
struct Variant {
  static constexpr int kTileN = N, kStages = S, kConsumers = Consumers, kStageKBlocks = KB;
  static constexpr InstanceSet kSet = KB > 1                                    ? InstanceSet::wide_stage
                                      : (N == 256 && S == 4 && Consumers == 2) ? InstanceSet::full
                                      : S == max_stages<N, Consumers>()       ? InstanceSet::narrow
                                                                              : InstanceSet::sweep;
};

static_assert(kSm90Ws64x64TwoKBlocks.stages == max_stages<64, 1, 2>() && kSm90Ws64x64TwoKBlocks.consumers == 1,
              "the planner's 64x64 tile is the one-consumer two-k-block-stage instance");

// Calls f(Variant<N, S>{}) for the compiled variant v names; false when there is none.
template <class F>
bool visit_variant(Sm90WsVariant v, F&& f) {
  switch ((v.stage_k_blocks - 1) * 1000000 + v.consumers * 100000 + v.tile_n * 100 + v.stages) {
    case 200000 + 256 * 100 + 4: f(Variant<256, 4>{}); return true;
    case 200000 + 256 * 100 + 3: f(Variant<256, 3>{}); return true;
    case 200000 + 128 * 100 + 4: f(Variant<128, 4>{}); return true;
    case 200000 + 128 * 100 + max_stages<128>(): f(Variant<128, max_stages<128>()>{}); return true;
    case 200000 + 64 * 100 + 4: f(Variant<64, 4>{}); return true;
    case 200000 + 64 * 100 + max_stages<64>(): f(Variant<64, max_stages<64>()>{}); return true;
    case 200000 + 32 * 100 + max_stages<32>(): f(Variant<32, max_stages<32>()>{}); return true;
    case 200000 + 16 * 100 + max_stages<16>(): f(Variant<16, max_stages<16>()>{}); return true;
    case 100000 + 32 * 100 + max_stages<32, 1>(): f(Variant<32, max_stages<32, 1>(), 1>{}); return true;
    case 100000 + 16 * 100 + max_stages<16, 1>(): f(Variant<16, max_stages<16, 1>(), 1>{}); return true;
    case 100000 + 64 * 100 + max_stages<64, 1>(): f(Variant<64, max_stages<64, 1>(), 1>{}); return true;
    case 400000 + 64 * 100 + max_stages<64, 4>(): f(Variant<64, max_stages<64, 4>(), 4>{}); return true;
    case 1100000 + 64 * 100 + max_stages<64, 1, 2>(): f(Variant<64, max_stages<64, 1, 2>(), 1, 2>{}); return true;
    case 1200000 + 64 * 100 + max_stages<64, 2, 2>(): f(Variant<64, max_stages<64, 2, 2>(), 2, 2>{}); return true;
    default: return false;
  }
}

template <WgmmaInput In, class V, bool kAMnMajor, bool kBMnMajor, bool kDirectStore, bool kThreadLoads = false,
          bool kRowClassLoads = false, bool kInCopy = false, bool kMc = false>
const void* kernel_function() {
  return reinterpret_cast<const void*>(&wgmma_tma_ws_kernel<In, V::kTileN, V::kStages, V::kConsumers, kAMnMajor,
                                                            kBMnMajor, kDirectStore, kThreadLoads, kRowClassLoads,
                                                            kInCopy, kMc, V::kStageKBlocks>);
}

// The multicast instances: bf16, K-major A and B, the tiles register_multicast.cu names (128x256
// s4, 128x128 and 128x64 at their most stages, the one-consumer 64x64 and 64x32).
template <WgmmaInput In, class V>
const void* find_multicast_instance(bool a_mn_major, bool b_mn_major) {
  if constexpr (In == WgmmaInput::bf16 && V::kSet != InstanceSet::sweep && V::kSet != InstanceSet::wide_stage &&
                ((V::kConsumers == 2 && V::kTileN >= 64) || (V::kConsumers == 1 && V::kTileN >= 32)))
    return a_mn_major || b_mn_major ? nullptr : kernel_function<In, V, false, false, false, false, false, false, true>();
  return nullptr;
}

// The instance for this input and layout, or nullptr where the variant's set does not compile it.
// Thread loads: the narrow 128x128 and 128x64 tiles, 16-bit inputs, every layout (one instance).
// Row classes: the same two tiles, 16-bit inputs, A row-major and B column-major only.
// In-kernel copies: the three split-K tiles (128x256 s4, 128x128 and 128x64 at their most stages),
// 16-bit inputs, K-major A and B.
template <WgmmaInput In, class V>
const void* find_instance(bool a_mn_major, bool b_mn_major, bool direct_store, bool thread_loads, bool row_classes,
                          bool in_copy) {
  if constexpr (V::kSet == InstanceSet::wide_stage) {
    if constexpr (In != WgmmaInput::bf16 && !(In == WgmmaInput::f16 && V::kConsumers == 1)) {
      return nullptr;
    } else {
      if (in_copy || row_classes || thread_loads || a_mn_major || b_mn_major || direct_store) return nullptr;
      return kernel_function<In, V, false, false, false>();
    }
  }
  if (in_copy) {
    if constexpr (V::kConsumers == 2 && In != WgmmaInput::tf32 &&
                  (V::kSet == InstanceSet::full || (V::kSet == InstanceSet::narrow && (V::kTileN == 128 || V::kTileN == 64))))
      return a_mn_major || b_mn_major ? nullptr : kernel_function<In, V, false, false, false, false, false, true>();
    return nullptr;
  }
  if (row_classes) {
    if constexpr (V::kSet == InstanceSet::narrow && V::kConsumers == 2 && (V::kTileN == 128 || V::kTileN == 64) &&
                  In != WgmmaInput::tf32)
      return a_mn_major || b_mn_major ? nullptr : kernel_function<In, V, false, false, false, false, true>();
    return nullptr;
  }
  if (thread_loads) {
    if constexpr (V::kSet == InstanceSet::narrow && V::kConsumers == 2 && (V::kTileN == 128 || V::kTileN == 64) &&
                  In != WgmmaInput::tf32)
      return kernel_function<In, V, false, false, false, true>();
    return nullptr;
  }
  if constexpr (V::kSet == InstanceSet::full) {
    if constexpr (In == WgmmaInput::tf32) {
      return a_mn_major || b_mn_major ? nullptr : kernel_function<In, V, false, false, false>();
    } else {
      if (direct_store) {
        if (a_mn_major)
          return b_mn_major ? kernel_function<In, V, true, true, true>() : kernel_function<In, V, true, false, true>();
        return b_mn_major ? kernel_function<In, V, false, true, true>() : kernel_function<In, V, false, false, true>();
      }
      if (a_mn_major)
        return b_mn_major ? kernel_function<In, V, true, true, false>() : kernel_function<In, V, true, false, false>();
      return b_mn_major ? kernel_function<In, V, false, true, false>() : kernel_function<In, V, false, false, false>();
    }
  } else if constexpr (In == WgmmaInput::tf32) {
    return nullptr;
  } else if constexpr (V::kSet == InstanceSet::narrow) {
    if (b_mn_major || direct_store) return nullptr;
    return a_mn_major ? kernel_function<In, V, true, false, false>() : kernel_function<In, V, false, false, false>();
  } else if constexpr (In == WgmmaInput::bf16) {  // the sweep is measured on bf16 only
    if (a_mn_major || b_mn_major || direct_store) return nullptr;
    return kernel_function<In, V, false, false, false>();
  } else {
    return nullptr;
  }
}

const void* find_instance(DType input, Sm90WsVariant v, bool a_mn_major, bool b_mn_major, bool direct_store,
                          bool multicast = false) {
  const void* fn = nullptr;
  if (multicast) {
    if (input != DType::bf16 || v.thread_loads || v.row_classes || v.in_copy) return nullptr;
    visit_variant(v, [&](auto tag) { fn = find_multicast_instance<WgmmaInput::bf16, decltype(tag)>(a_mn_major, b_mn_major); });
    return fn;
  }
  visit_variant(v, [&](auto tag) {
    using V = decltype(tag);
    const bool tl = v.thread_loads, rc = v.row_classes, ic = v.in_copy;
    fn = input == DType::tf32   ? find_instance<WgmmaInput::tf32, V>(a_mn_major, b_mn_major, direct_store, tl, rc, ic)
         : input == DType::bf16 ? find_instance<WgmmaInput::bf16, V>(a_mn_major, b_mn_major, direct_store, tl, rc, ic)
         : input == DType::f16  ? find_instance<WgmmaInput::f16, V>(a_mn_major, b_mn_major, direct_store, tl, rc, ic)
                                : nullptr;
  });
  return fn;
}

bool is_epilogue_dtype(DType t) { return t == DType::f32 || t == DType::f16 || t == DType::bf16; }

// BK in elements: one 128-byte swizzle row.
int tile_k_of(DType input) { return input == DType::tf32 ? Config<WgmmaInput::tf32>::kTileK : Config<WgmmaInput::bf16>::kTileK; }

// TMA coordinates are signed 32-bit; keep the last box start representable.
inline constexpr int64_t kMaxTmaExtent = (int64_t{1} << 31) - 512;

Sm90WsShape shape_of(DType input, Sm90WsVariant v) {
  Sm90WsShape out{};
  visit_variant(v, [&](auto tag) {
    using V = decltype(tag);
    using C = Shared<V::kTileN, V::kStages, V::kConsumers, V::kStageKBlocks>;
    out = {C::kTileM, C::kTileN, tile_k_of(input), C::kStages, C::kThreads, static_cast<int>(C::kSmemBytes)};
  });
  return out;
}

}  // namespace

std::string to_string(Sm90WsVariant v) {
  return std::to_string(64 * v.consumers) + "x" + std::to_string(v.tile_n) + " s" + std::to_string(v.stages) +
         (v.stage_k_blocks > 1 ? " of " + std::to_string(v.stage_k_blocks) + " k-blocks" : "") +
         (v.thread_loads ? " thread loads" : "") + (v.row_classes ? " row classes" : "") +
         (v.in_copy ? " in-kernel copies" : "");
}

Sm90WsVariant sm90_wgmma_ws_narrow_variant(int tile_n, int consumers) {
  if (consumers == 1)
    return tile_n <= 16   ? Sm90WsVariant{16, max_stages<16, 1>(), 1}
           : tile_n <= 32 ? Sm90WsVariant{32, max_stages<32, 1>(), 1}
                          : Sm90WsVariant{64, max_stages<64, 1>(), 1};
  if (consumers == 4) return {64, max_stages<64, 4>(), 4};
  switch (tile_n) {
    case 128: return {128, max_stages<128>()};
    case 64: return {64, max_stages<64>()};
    case 32: return {32, max_stages<32>()};
    default: return {16, max_stages<16>()};
  }
}

Status sm90_wgmma_ws_supports(const GemmDesc& g, DType input, Sm90WsVariant v) {
  const std::string_view want = to_string(input);
  if (g.a.dtype != input || g.b.dtype != input)
    return Status::unsupported("A and B must both be " + std::string(want) + " (got " +
                               std::string(to_string(g.a.dtype)) + " and " + std::string(to_string(g.b.dtype)) + ")");
  if (g.accumulate != DType::f32) return Status::unsupported("wgmma accumulates in f32");
  if (input == DType::tf32 && (g.a.layout != Layout::row || g.b.layout != Layout::column))
    return Status::unsupported(
        "tf32 wgmma needs K-major A and B (A row-major, B column-major); gemm() uses sm80_mma_sync_tf32 for "
        "this layout");
  if (!is_epilogue_dtype(g.d.dtype))
    return Status::unsupported("D must be f32, f16 or bf16 (got " + std::string(to_string(g.d.dtype)) + ")");
  if (g.beta != 0.0f && !is_epilogue_dtype(g.c.dtype))
    return Status::unsupported("C must be f32, f16 or bf16 (got " + std::string(to_string(g.c.dtype)) + ")");
  if (input != DType::bf16 && input != DType::f16 && input != DType::tf32)
    return Status::unsupported("the sm90 wgmma kernel takes bf16, f16 or tf32 inputs");
  if (g.m > kMaxTmaExtent || g.n > kMaxTmaExtent || g.k > kMaxTmaExtent)
    return Status::unsupported("m, n and k must be below 2^31 - 512 (TMA's 32-bit box coordinates)");
  const Sm90WsShape shape = shape_of(input, v);
  if (shape.tile_n == 0) return Status(StatusCode::internal, "sm90 wgmma: no " + to_string(v) + " variant is compiled");
  const int64_t tiles = ((g.m + shape.tile_m - 1) / shape.tile_m) * ((g.n + shape.tile_n - 1) / shape.tile_n);
  if (tiles > 0x7fffffff) return Status::unsupported("more than 2^31 - 1 output tiles for a 1D grid");
  if (v.thread_loads) {
    if (find_instance(input, v, false, false, false) == nullptr)
      return Status::unsupported("thread loads run the 128x128 and 128x64 tiles on bf16 or f16 inputs only");
    if (g.a.pointer_alignment % 2 != 0 || g.b.pointer_alignment % 2 != 0)
      return Status(StatusCode::misaligned, "A and B must be aligned to their 2-byte elements");
    return Status::success();
  }
  if (v.row_classes) {
    if (g.a.layout != Layout::row || g.b.layout != Layout::column ||
        find_instance(input, v, false, false, false) == nullptr)
      return Status::unsupported(
          "row classes run the 128x128 and 128x64 tiles on bf16 or f16 with K-major A and B (A row-major, B "
          "column-major) only");
    if (g.a.pointer_alignment % 2 != 0 || g.b.pointer_alignment % 2 != 0)
      return Status(StatusCode::misaligned, "A and B must be aligned to their 2-byte elements");
    return Status::success();
  }
  if (find_instance(input, v, g.a.layout == Layout::column, g.b.layout == Layout::row, false) == nullptr)
    return Status::unsupported("the " + to_string(v) + " tile is compiled for " +
                               (v.tile_n == 256 && v.stages == 4 ? std::string("K-major A and B (tf32)")
                                : shape.stages == sm90_wgmma_ws_narrow_variant(v.tile_n, v.consumers).stages
                                    ? std::string("a column-major (K-major) B only")
                                    : std::string("bf16 with A row-major and B column-major only")));
  if (Status s = check_tma_operand("A", g.a.dtype, g.a.pointer_alignment, effective_ld(g.a, extent_a(g))); !s.ok())
    return s;
  if (Status s = check_tma_operand("B", g.b.dtype, g.b.pointer_alignment, effective_ld(g.b, extent_b(g))); !s.ok())
    return s;
  return Status::success();
}

namespace {

// sm90_wgmma_ws_set_trace's buffer, read by every launch (this kernel's and swap_steal.cu's).
uint64_t* g_trace = nullptr;

// partials == nullptr: the plain GEMM (splits must be 1). Otherwise split-K: gridDim.z = splits,
// and split z stores its raw f32 sum (alpha = 1, beta = 0) to slab z, in D's layout with the ld of
// split_slab_ld (so that the reduce pass reads the slabs and writes D along the same direction).
// copy: with v.in_copy, what the grid copies first (args' A and B are then the copies' addresses).
// cs: split-K without slabs (Sm90ClusterSplit; partials == nullptr): each tile's splits are one
// cluster, summed in rank 0's registers from the peers' shared memory. k_blocks_per_split and
// splits are then cs's (every tile), or the whole K and 1 (the tail only).
Status check_cluster_split(const Sm90ClusterSplit& cs, int64_t k_blocks, int64_t tiles, Sm90WsVariant v) {
  auto tiles_k = [&](int per, int n) {
    return per >= 1 && static_cast<int64_t>(per) * (n - 1) < k_blocks && static_cast<int64_t>(per) * n >= k_blocks;
  };
  const bool every = cs.splits >= 2 && cs.splits <= kMaxClusterSplits && cs.tail_splits == 1 &&
                     tiles_k(cs.k_blocks_per_split, cs.splits);
  const bool tail = cs.splits == 1 && cs.tail_splits >= 2 && cs.tail_splits <= kMaxClusterSplits &&
                    cs.tail_first > 0 && cs.tail_first < tiles && cs.tail_first % cs.tail_splits == 0 &&
                    tiles_k(cs.tail_k_blocks_per_split, cs.tail_splits);
  if ((!every && !tail) || v.tile_n > kMaxClusterSumWidth || v.in_copy || v.thread_loads || v.row_classes)
    return Status(StatusCode::internal, "split-K in a cluster: 2.." + std::to_string(kMaxClusterSplits) +
                                            " splits tiling " + std::to_string(k_blocks) +
                                            " k-blocks, of every tile or of a tail after whole clusters, on a tile at most " +
                                            std::to_string(kMaxClusterSumWidth) + " wide loading by TMA (no thread loads, row classes or in-kernel copies)");
  return Status::success();
}

// The L2 policy mode of Params::l2_hint: 4 (the one-consumer tiles keep the shared operand, the
// others evict both first; runs 211-213) unless TCGEMM_DIAG_L2_HINT=h asks for another (diagnosis).
int32_t l2_hint_mode() {
  static const int32_t h = [] {
    const char* v = std::getenv("TCGEMM_DIAG_L2_HINT");
    return v == nullptr ? 4 : static_cast<int32_t>(std::strtol(v, nullptr, 10));
  }();
  return h;
}

Status launch_impl(const GemmArgs& args, DType input, Sm90WsVariant v, int k_blocks_per_split, int splits,
                   float* partials, bool allow_direct_store, const InCopy* copy = nullptr,
                   const Sm90ClusterSplit* cs = nullptr, Sm90Multicast mc = {}, uint32_t* fold_counters = nullptr) {
  const bool in_cluster = cs != nullptr;
  const GemmDesc& g = args.desc;
  const bool multicast = mc.m * mc.n > 1;
  if (multicast) {
    if (in_cluster || copy != nullptr) return Status(StatusCode::internal, "multicast takes no cluster sums and no in-kernel copies");
    if (Status st = sm90_wgmma_ws_multicast_supports(g, input, v, mc); !st.ok()) return st;
  }
  const bool a_mn_major = g.a.layout == Layout::column;
  const bool b_mn_major = g.b.layout == Layout::row;
  const int64_t lda = effective_ld(g.a, extent_a(g));
  const int64_t ldb = effective_ld(g.b, extent_b(g));
  const int64_t ldc = effective_ld(g.c, extent_c(g));
  const int64_t ldd = effective_ld(g.d, extent_c(g));
  if (args.a == nullptr || args.b == nullptr || args.d == nullptr || (g.beta != 0.0f && args.c == nullptr))
    return Status::invalid("A, B and D (and C when beta != 0) must be non-null");
  const int tile_k = tile_k_of(input);
  const int64_t k_blocks = (g.k + tile_k - 1) / tile_k;
  if (input == DType::tf32 && (a_mn_major || b_mn_major || v.thread_loads))
    return Status::unsupported("tf32 wgmma needs K-major A and B (A row-major, B column-major), through TMA");
  if (in_cluster && (partials != nullptr || copy != nullptr))
    return Status(StatusCode::internal, "split-K in a cluster takes no slabs and no in-kernel copies");
  if (v.in_copy != (copy != nullptr) ||
      (copy != nullptr && (copy->count < 1 || copy->count > 2 || copy->counters == nullptr || v.thread_loads ||
                           v.row_classes || a_mn_major || b_mn_major || splits > kTileCounterWords)))
    return Status(StatusCode::internal, "in-kernel copies: K-major A and B, one or two operands, a counter a split");
  if (splits < 1 || splits > 65535 || k_blocks_per_split < 1 ||
      static_cast<int64_t>(k_blocks_per_split) * (splits - 1) >= k_blocks ||
      static_cast<int64_t>(k_blocks_per_split) * splits < k_blocks || (splits > 1 && partials == nullptr && !in_cluster))
    return Status(StatusCode::internal, "split-K: " + std::to_string(splits) + " splits of " +
                                            std::to_string(k_blocks_per_split) + " k-blocks do not tile " +
                                            std::to_string(k_blocks) + " k-blocks");

  // K-major operands load one kTileK(K) x rows box; MN-major ones (16-bit) 64-element column blocks.
  const Sm90WsShape shape = shape_of(input, v);
  if (shape.tile_n == 0) return Status(StatusCode::internal, "sm90 wgmma: no " + to_string(v) + " variant is compiled");
  const uint32_t kb = static_cast<uint32_t>(tile_k), mnb = Config<WgmmaInput::bf16>::kMnBlock;
  const uint32_t tile_m = static_cast<uint32_t>(shape.tile_m), tile_n = static_cast<uint32_t>(shape.tile_n);
  // NOTES: the one-consumer (64-row) tiles run only swap-A/B's decode shapes (M <= 32), a pure
  // stream of the large operand: without L2 promotion 16x8192x8192 ran 1.2-2.3% faster (two
  // passes, run 55), while 128x8192x28672's 128x256 split-K lost 1-2% and 4096^3 was level.
  const bool promote_l2 = v.consumers > 1;
  TensorMap2d tma_a{}, tma_b{};  // thread loads read neither
  Maps<true> classes{};
  if (v.row_classes) {
    if (a_mn_major || b_mn_major || input == DType::tf32)
      return Status::unsupported("row classes take K-major 16-bit A and B only");
    Result<RowClassMaps> ca = make_row_class_maps("A", g.a.dtype, args.a, g.k, g.m, lda, kb, tile_m / kRowClasses, promote_l2);
    if (!ca.ok()) return ca.status();
    Result<RowClassMaps> cb = make_row_class_maps("B", g.b.dtype, args.b, g.k, g.n, ldb, kb, tile_n / kRowClasses, promote_l2);
    if (!cb.ok()) return cb.status();
    for (int j = 0; j < kRowClasses; ++j) {
      classes.a[j] = ca.value().map[j], classes.b[j] = cb.value().map[j];
      classes.a_x0[j] = ca.value().x0[j], classes.b_x0[j] = cb.value().x0[j];
      classes.a_rows[j] = ca.value().rows[j], classes.b_rows[j] = cb.value().rows[j];
      classes.a_order[j] = ca.value().order[j], classes.b_order[j] = cb.value().order[j];
    }
  } else if (!v.thread_loads) {
    Result<TensorMap2d> map_a =
        a_mn_major ? make_tensor_map_2d("A", g.a.dtype, args.a, g.m, g.k, lda, mnb, kb, promote_l2)
                   : make_tensor_map_2d("A", g.a.dtype, args.a, g.k, g.m, lda, kb, tile_m / mc.n, promote_l2);
    if (!map_a.ok()) return map_a.status();
    Result<TensorMap2d> map_b =
        b_mn_major ? make_tensor_map_2d("B", g.b.dtype, args.b, g.n, g.k, ldb, mnb, kb, promote_l2)
                   : make_tensor_map_2d("B", g.b.dtype, args.b, g.k, g.n, ldb, kb, tile_n / mc.m, promote_l2);
    if (!map_b.ok()) return map_b.status();
    tma_a = map_a.value();
    tma_b = map_b.value();
  }

  Params p{};
  p.loads.a = static_cast<const uint16_t*>(args.a);
  p.loads.b = static_cast<const uint16_t*>(args.b);
  p.loads.lda = lda;
  p.loads.ldb = ldb;
  p.loads.a_k_contiguous = !a_mn_major;
  p.loads.b_k_contiguous = !b_mn_major;
  // A stored matrix spans (lines - 1) * ld + length elements: lines of `length` contiguous ones.
  auto end_of = [](const void* base, int64_t lines, int64_t length, int64_t ld) {
    return reinterpret_cast<uintptr_t>(base) + static_cast<uintptr_t>(((lines - 1) * ld + length) * 2);
  };
  p.loads.a_end = a_mn_major ? end_of(args.a, g.k, g.m, lda) : end_of(args.a, g.m, g.k, lda);
  p.loads.b_end = b_mn_major ? end_of(args.b, g.k, g.n, ldb) : end_of(args.b, g.n, g.k, ldb);
  p.m = g.m;
  p.n = g.n;
  p.k = g.k;
  p.tiles_m = (g.m + tile_m - 1) / tile_m;
  p.tiles_n = (g.n + tile_n - 1) / tile_n;
  Epilogue& ep = p.epilogue;
  set_caller_epilogue(ep, args);
  ep.d_split_bytes = 0;
  ep.f32_slab = false;
  p.k_blocks_per_split = k_blocks_per_split;
  p.cluster_splits = in_cluster ? cs->splits : 1;
  p.tail_first = in_cluster ? cs->tail_first : 0;
  p.tail_splits = in_cluster ? cs->tail_splits : 1;
  p.tail_k_blocks_per_split = in_cluster ? cs->tail_k_blocks_per_split : 0;
  p.mc_m = mc.m;
  p.mc_n = mc.n;
  p.l2_hint = l2_hint_mode();
  if (in_cluster) {
    if (Status st = check_cluster_split(*cs, k_blocks, p.tiles_m * p.tiles_n, v); !st.ok()) return st;
  }
  p.trace = g_trace;
  if (copy != nullptr) p.copy = *copy;
  p.fold = Params::Fold{nullptr, 0, 0, ep};  // ep is still the caller's D and C here
  if (partials != nullptr) {
    ep.d = partials;
    ep.c = nullptr;
    const bool row = g.d.layout == Layout::row;
    const int64_t slab_ld = split_slab_ld(g.m, g.n, row);  // a row-major slab's rows padded to 4 floats
    ep.d_row_stride = row ? slab_ld : 1;
    ep.d_col_stride = row ? 1 : slab_ld;
    ep.alpha = 1.0f;  // exact: the slab holds the raw f32 sum
    ep.beta = 0.0f;
    ep.d_dtype = DType::f32;
    ep.d_split_bytes = static_cast<int64_t>(split_slabs_bytes(g.m, g.n, row, 1));
    // NOTES: only with an even ld (8-byte pairs). With an odd one the register path has to store
    // 4-byte halves of each pair, and 333x777x4099 measured 22% slower that way (0.0449 against
    // 0.0369 ms) than through the staged, row-coalesced epilogue; the padded ld is always even.
    ep.f32_slab = row && slab_ld % 2 == 0 && reinterpret_cast<uintptr_t>(partials) % 8 == 0 && !v.row_classes;
  }
  if (fold_counters != nullptr) {
    // The tile's splits meet in the grid: all of them resident (one round, a cooperative launch
    // below), a counter a tile, f32 slabs the register path stores, no clusters.
    const int64_t tiles = p.tiles_m * p.tiles_n;
    if (!ep.f32_slab || splits < 2 || multicast || in_cluster || tiles > kFoldCounterWords ||
        tiles * splits > current_device_sm_count() || ep.d_split_bytes % 16 != 0 ||
        reinterpret_cast<uintptr_t>(partials) % 16 != 0)
      return Status(StatusCode::internal, "split-K fold: row-major f32 slabs, one round of CTAs, no clusters, at most " +
                                              std::to_string(kFoldCounterWords) + " tiles");
    p.fold.counters = fold_counters;
    p.fold.splits = splits;
    p.fold.slab_floats = ep.d_split_bytes / 4;
  }

  // The register-store epilogue writes D's own 16-bit type along a row; the `_ds` instance ({256, 4}
  // only) assumes 4-byte pairs, every other one reads the two flags at run time.
  ep.direct_store = allow_direct_store && !v.row_classes && input != DType::tf32 && partials == nullptr && g.d.layout == Layout::row &&
                    g.d.dtype == input && g.beta == 0.0f;
  const uintptr_t d_address = reinterpret_cast<uintptr_t>(args.d);
  ep.d_vec = ldd % 8 == 0 && d_address % 16 == 0 ? 8 : ldd % 2 == 0 && d_address % 4 == 0 ? 2 : 1;
  const bool ds_instance = ep.direct_store && ep.d_vec >= 2 && v == Sm90WsVariant{};
  ep.d_quads = partials == nullptr && ldd % 4 == 0 && d_address % (4 * dtype_bytes(g.d.dtype)) == 0;
  ep.c_quads = partials == nullptr && g.beta != 0.0f && ldc % 4 == 0 &&
               reinterpret_cast<uintptr_t>(args.c) % (4 * dtype_bytes(g.c.dtype)) == 0;
  const void* fn = multicast ? find_instance(input, v, a_mn_major, b_mn_major, false, true)
                             : find_instance(input, v, a_mn_major, b_mn_major, ds_instance);
  if (fn == nullptr) return Status(StatusCode::internal, "sm90 wgmma: no kernel instance for this input and layout");
  if (Status st = allow_dynamic_smem(fn, shape.smem_bytes); !st.ok()) return st;
  Maps<false> plain{tma_a.map, tma_b.map};
  void* kernel_args[] = {v.row_classes ? static_cast<void*>(&classes) : static_cast<void*>(&plain), &p};
  cudaLaunchConfig_t cfg{};
  const int64_t tiles = p.tiles_m * p.tiles_n;
  cfg.gridDim = p.tail_splits > 1 ? dim3(static_cast<unsigned>(p.tail_first + (tiles - p.tail_first) * p.tail_splits))
                                  : dim3(static_cast<unsigned>(tiles), 1, static_cast<unsigned>(splits));
  cfg.blockDim = dim3(static_cast<unsigned>(shape.threads));
  cfg.dynamicSmemBytes = static_cast<std::size_t>(shape.smem_bytes);
  cfg.stream = args.stream;
  // In-kernel copies: a split's CTAs wait for each other at its counter, so the grid must be
  // resident all at once even beside other grids on other streams; a cooperative launch guarantees
  // it (the launch waits for room for the whole grid, or fails when the grid can never fit).
  // Diagnosis only: TCGEMM_DIAG_FUSED_LAUNCH=pdl (PDL alone, the old launch) or coop (cooperative
  // without PDL); the default is both.
  static const int fused_launch = [] {
    const char* e = std::getenv("TCGEMM_DIAG_FUSED_LAUNCH");
    const std::string m = e != nullptr ? e : "";
    return m == "pdl" ? 1 : m == "coop" ? 2 : 0;
  }();
  cudaLaunchAttribute attrs[2] = {pdl_attribute(), {}};
  unsigned count = 1;
  if (in_cluster) {
    cudaLaunchAttribute& cluster = attrs[count++];
    cluster.id = cudaLaunchAttributeClusterDimension;
    const bool tail = p.tail_splits > 1;  // a tail's splits along x, every tile's along z
    cluster.val.clusterDim.x = tail ? static_cast<unsigned>(p.tail_splits) : 1;
    cluster.val.clusterDim.y = 1;
    cluster.val.clusterDim.z = tail ? 1 : static_cast<unsigned>(p.cluster_splits);
  } else if (multicast) {
    attrs[count++] = cluster_dim_attribute(static_cast<unsigned>(mc.m * mc.n));
  }
  if ((v.in_copy || fold_counters != nullptr) && fused_launch != 1) {
    cudaLaunchAttribute coop{};
    coop.id = cudaLaunchAttributeCooperative;
    coop.val.cooperative = 1;
    if (fused_launch == 2) attrs[0] = coop;
    else attrs[count++] = coop;
  }
  cfg.attrs = attrs;
  cfg.numAttrs = count;
  const cudaError_t err = cudaLaunchKernelExC(&cfg, fn, kernel_args);
  if (err != cudaSuccess)
    return Status(StatusCode::cuda_error, std::string("sm90 wgmma launch failed: ") + cudaGetErrorString(err));
  return Status::success();
}

}  // namespace

Status sm90_wgmma_ws_launch(const GemmArgs& args, DType input, bool allow_direct_store, Sm90WsVariant v,
                            const InCopy* copy) {
  const int64_t k_blocks = (args.desc.k + tile_k_of(input) - 1) / tile_k_of(input);
  return launch_impl(args, input, v, static_cast<int>(k_blocks), 1, nullptr, allow_direct_store, copy);
}

Status sm90_wgmma_ws_launch_partials(const GemmArgs& args, DType input, int k_blocks_per_split, int splits,
                                     float* partials, Sm90WsVariant v, const InCopy* copy, Sm90Multicast mc,
                                     uint32_t* fold_counters) {
  if (partials == nullptr) return Status::invalid("split-K needs a workspace for its partial sums");
  // split_k.cu counts k-blocks with sm90_wgmma_ws_shape()'s 16-bit tile_k; no tf32 split-K yet.
  if (input == DType::tf32) return Status::unsupported("split-K on the sm90 wgmma kernel takes bf16 or f16");
  return launch_impl(args, input, v, k_blocks_per_split, splits, partials, false, copy, nullptr, mc, fold_counters);
}

Status sm90_wgmma_ws_launch_multicast(const GemmArgs& args, DType input, Sm90WsVariant v, Sm90Multicast mc) {
  const int64_t k_blocks = (args.desc.k + tile_k_of(input) - 1) / tile_k_of(input);
  return launch_impl(args, input, v, static_cast<int>(k_blocks), 1, nullptr, true, nullptr, nullptr, mc);
}

bool sm90_wgmma_ws_can_fold(const GemmDesc& g, Sm90WsVariant v, int splits, int sm_count) {
  const Sm90WsShape s = sm90_wgmma_ws_shape(DType::bf16, v);
  if (s.tile_m == 0 || s.tile_n == 0 || splits < 2 || v.row_classes || g.d.layout != Layout::row) return false;
  const int64_t tiles = ((g.m + s.tile_m - 1) / s.tile_m) * ((g.n + s.tile_n - 1) / s.tile_n);
  return tiles <= kFoldCounterWords && tiles * splits <= sm_count && splitk_reduce_dtype(g.d.dtype) &&
         (g.beta == 0.0f || splitk_reduce_dtype(g.c.dtype));
}

Status sm90_wgmma_ws_multicast_supports(const GemmDesc& g, DType input, Sm90WsVariant v, Sm90Multicast mc) {
  if (Status st = sm90_wgmma_ws_supports(g, input, v); !st.ok()) return st;
  if (mc.m < 1 || mc.m > 2 || mc.n < 1 || mc.n > 2)
    return Status::unsupported("multicast runs clusters of 1 or 2 tiles along M and along N");
  if (v.thread_loads || v.row_classes || v.in_copy || g.a.layout != Layout::row || g.b.layout != Layout::column)
    return Status::unsupported("multicast loads K-major A and B (A row-major, B column-major) by TMA");
  if (find_instance(input, v, false, false, false, true) == nullptr)
    return Status::unsupported("multicast is compiled for bf16 on the 128x256 s4, 128x128 s7, 128x64 s9, 64x64 s14 and "
                               "64x32 s16 tiles only");
  const Sm90WsShape shape = shape_of(input, v);
  const int64_t tiles_m = (g.m + shape.tile_m - 1) / shape.tile_m, tiles_n = (g.n + shape.tile_n - 1) / shape.tile_n;
  if (tiles_m % mc.m != 0 || tiles_n % mc.n != 0)
    return Status::unsupported("multicast " + std::to_string(mc.m) + "x" + std::to_string(mc.n) + " needs the " +
                               std::to_string(tiles_m) + "x" + std::to_string(tiles_n) +
                               " tiles to divide into whole clusters");
  if (shape.tile_m / mc.n < 8 || shape.tile_n / mc.m < 8)
    return Status::unsupported("a multicast part is at least one 8-row swizzle atom");
  return Status::success();
}

int sm90_wgmma_ws_multicast_resident_ctas(DType input, Sm90WsVariant v, Sm90Multicast mc) {
  const void* fn = find_instance(input, v, false, false, false, true);
  const Sm90WsShape shape = shape_of(input, v);
  const unsigned size = static_cast<unsigned>(mc.m * mc.n);
  if (fn == nullptr || size < 1) return 0;
  if (size == 1) return current_device_sm_count();
  if (Status st = allow_dynamic_smem(fn, shape.smem_bytes); !st.ok()) return 0;
  Result<int> r = resident_clusters(fn, size, shape.threads, shape.smem_bytes);
  return r.ok() ? r.value() * static_cast<int>(size) : 0;
}

Status sm90_wgmma_ws_launch_cluster_split(const GemmArgs& args, DType input, Sm90WsVariant v,
                                          const Sm90ClusterSplit& split) {
  if (input == DType::tf32) return Status::unsupported("split-K on the sm90 wgmma kernel takes bf16 or f16");
  if (v.in_copy) return Status::unsupported("split-K in a cluster does not run the in-kernel copies");
  const int64_t k_blocks = (args.desc.k + tile_k_of(input) - 1) / tile_k_of(input);
  const bool every = split.tail_splits <= 1;
  return launch_impl(args, input, v, every ? split.k_blocks_per_split : static_cast<int>(k_blocks),
                     every ? split.splits : 1, nullptr, true, nullptr, &split);
}

const void* sm90_wgmma_ws_multicast_function(DType input, Sm90WsVariant v) {
  return find_instance(input, v, false, false, false, true);
}

const void* sm90_wgmma_ws_function(DType input, bool direct_store, Sm90WsVariant v) {
  return find_instance(input, v, false, false, direct_store && input != DType::tf32 && v == Sm90WsVariant{});
}

Sm90WsShape sm90_wgmma_ws_shape(DType input, Sm90WsVariant v) { return shape_of(input, v); }

void sm90_wgmma_ws_set_trace(uint64_t* stamps) { g_trace = stamps; }
uint64_t* sm90_wgmma_ws_trace() { return g_trace; }
int sm90_wgmma_ws_trace_words() { return static_cast<int>(dev::kTraceWords); }
int sm90_wgmma_ws_trace_ctas() { return static_cast<int>(dev::kTraceCtas); }

}  // namespace tcgemm
