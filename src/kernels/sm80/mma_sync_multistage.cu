// Rung 3: the portable Tensor Core path (sm_80 and later). A 128x128 CTA tile of 8 warps, each
// warp a 64x32 tile computed with mma.sync (m16n8k16 for f16/bf16, m16n8k8 for tf32), fragments
// read from shared memory with ldmatrix, and shared memory filled by a 4-stage cp.async pipeline
// so the next three K slabs are in flight while the current one is multiplied.
//
// Shared memory holds each operand the way it lies in global memory, so every cp.async copies
// 16 contiguous bytes: "K-contiguous" (row-major A, column-major B) as [128 rows][TK k] and
// "MN-contiguous" (column-major A, row-major B) as [TK k][128 columns]. ldmatrix reads the first
// directly and the second with .trans, which hands each thread the transposed 8x8 element pair
// the mma fragment wants. (TF32 elements are 32-bit, which ldmatrix.trans cannot transpose, so
// MN-contiguous tf32 fragments are read with plain 32-bit shared loads instead.)
#include <string>

#include "kernels/common/epilogue.cuh"
#include "kernels/common/launch_attributes.hpp"
#include "kernels/common/mma_sync.cuh"
#include "kernels/ladder_entries.hpp"

namespace tcgemm {
namespace {

constexpr int kTileM = 128, kTileN = 128;
constexpr int kStages = 4;
constexpr int kWarpsM = 2, kWarpsN = 4;
constexpr int kThreads = 32 * kWarpsM * kWarpsN;
constexpr int kWarpM = kTileM / kWarpsM, kWarpN = kTileN / kWarpsN;  // 64 x 32
constexpr int kMmaM = 16, kMmaN = 8;
constexpr int kFragsM = kWarpM / kMmaM, kFragsN = kWarpN / kMmaN;    // 4 x 4
static_assert(kFragsN % 2 == 0, "B fragments are loaded two n8 tiles per ldmatrix.x4");
constexpr int kLdTile = kTileN + 4;  // f32 staging tile for the epilogue; +4 keeps float2 aligned

// One K slab is 64 bytes deep whatever the dtype: 32 f16/bf16 or 16 tf32 elements.
template <DType T> struct Cfg;
template <> struct Cfg<DType::f16> { using S = __half; static constexpr int kStepK = 16; };
template <> struct Cfg<DType::bf16> { using S = __nv_bfloat16; static constexpr int kStepK = 16; };
template <> struct Cfg<DType::tf32> { using S = float; static constexpr int kStepK = 8; };

template <DType T>
struct Geometry {
  using S = typename Cfg<T>::S;
  static constexpr int kElem = sizeof(S);
  static constexpr int kChunk = 16 / kElem;       // elements per 16-byte cp.async
  static constexpr int kTileK = 64 / kElem;
  // NOTES: one 16-byte chunk of padding per row. K-contiguous rows are then 80 bytes apart and
  // MN-contiguous rows 272 (16-bit) or 544 (f32) bytes apart; either way the 8 row addresses of
  // one ldmatrix phase (or the 4 k-rows of a tf32 scalar fragment load) land on distinct banks.
  static constexpr int kLdK = kTileK + kChunk;    // row length of a K-contiguous slab
  static constexpr int kLdMN = 128 + 8;           // row length of an MN-contiguous slab
  static constexpr int kBytesKContig = 128 * kLdK * kElem;
  static constexpr int kBytesMNContig = kTileK * kLdMN * kElem;
  static constexpr int slab_bytes(bool k_contig) { return k_contig ? kBytesKContig : kBytesMNContig; }
  static_assert(128 * kTileK / kChunk == 2 * kThreads, "each thread issues two copies per slab");
  static_assert(kStages * 2 * kBytesMNContig >= kTileM * kLdTile * 4, "epilogue tile fits in the pipeline");
};

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// Copies src_bytes (0..16) and zero-fills the rest of the 16: tails of M, N and K become zeros
// in shared memory, which add nothing to the sums, without a branch around the copy.
__device__ __forceinline__ void cp_async_16(void* dst, const void* src, int src_bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_addr(dst)), "l"(src),
               "r"(src_bytes));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n"); }
template <int N>
__device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

template <bool Trans>
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], const void* p) {
  if constexpr (Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_addr(p)));
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_addr(p)));
}

// The tensor cores read only the top 19 bits of a tf32 operand (truncation); round to nearest
// first so results match the reference, which rounds the same way (cvt.rna).
template <DType T, int N>
__device__ __forceinline__ void round_if_tf32(uint32_t (&r)[N]) {
  if constexpr (T == DType::tf32) {
#pragma unroll
    for (int i = 0; i < N; ++i) asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r[i]) : "f"(__uint_as_float(r[i])));
  }
}

// Elements of a 16-byte chunk that lie inside the matrix, given how many remain past its start.
template <int kChunk>
__device__ __forceinline__ int clamp_chunk(int64_t remaining) {
  return remaining <= 0 ? 0 : remaining >= kChunk ? kChunk : static_cast<int>(remaining);
}

// One 128 x TK slab of an operand, global -> shared, as 512 16-byte copies (two per thread).
// `mn` is the M (for A) or N (for B) coordinate, `mn_extent` its size in the problem.
template <DType T, bool KContig>
__device__ __forceinline__ void load_slab(typename Cfg<T>::S* dst, const typename Cfg<T>::S* g,
                                          int64_t ld, int64_t mn0, int64_t mn_extent, int64_t k0,
                                          int64_t k_extent) {
  using G = Geometry<T>;
#pragma unroll
  for (int it = 0; it < 2; ++it) {
    const int id = threadIdx.x + it * kThreads;
    int64_t gmn, gk;
    int valid, soff;
    if constexpr (KContig) {
      constexpr int kPerRow = G::kTileK / G::kChunk;
      const int r = id / kPerRow, c = id % kPerRow;
      gmn = mn0 + r;
      gk = k0 + c * G::kChunk;
      valid = gmn < mn_extent ? clamp_chunk<G::kChunk>(k_extent - gk) : 0;
      soff = r * G::kLdK + c * G::kChunk;
    } else {
      constexpr int kPerRow = 128 / G::kChunk;
      const int r = id / kPerRow, c = id % kPerRow;
      gk = k0 + r;
      gmn = mn0 + c * G::kChunk;
      valid = gk < k_extent ? clamp_chunk<G::kChunk>(mn_extent - gmn) : 0;
      soff = r * G::kLdMN + c * G::kChunk;
    }
    // With nothing to copy the source is never read, but it must still be a valid address.
    const auto* src = valid > 0 ? g + (KContig ? gmn * ld + gk : gk * ld + gmn) : g;
    if (valid == 0 || valid == G::kChunk) {
      cp_async_16(dst + soff, src, valid * G::kElem);
    } else {
      // NOTES: a partial chunk at the operand's last row or column goes through plain loads.
      // cp.async with src-size < 16 still addresses all 16 bytes (compute-sanitizer flagged it on
      // the H200 when the operand ended inside the chunk), so it could read past the allocation.
#pragma unroll
      for (int e = 0; e < G::kChunk; ++e) dst[soff + e] = e < valid ? src[e] : typename Cfg<T>::S{};
    }
  }
}

// A fragments of one m16 x kStep step for the warp's 4 m16 tiles.
template <DType T, bool KContig>
__device__ __forceinline__ void load_a(uint32_t (&a)[kFragsM][4], const typename Cfg<T>::S* As,
                                       int row_base, int ks) {
  using G = Geometry<T>;
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int mi = 0; mi < kFragsM; ++mi) {
    const int r0 = row_base + mi * kMmaM;
    if constexpr (KContig) {
      ldmatrix_x4<false>(a[mi], As + (r0 + lane % 16) * G::kLdK + ks + (lane / 16) * G::kChunk);
    } else if constexpr (T != DType::tf32) {
      const int q = lane / 8, r = lane % 8;
      ldmatrix_x4<true>(a[mi], As + (ks + (q / 2) * 8 + r) * G::kLdMN + r0 + (q % 2) * 8);
    } else {
      const int g = lane / 4, t = lane % 4;
      const float* f = reinterpret_cast<const float*>(As);
      a[mi][0] = __float_as_uint(f[(ks + t) * G::kLdMN + r0 + g]);
      a[mi][1] = __float_as_uint(f[(ks + t) * G::kLdMN + r0 + g + 8]);
      a[mi][2] = __float_as_uint(f[(ks + t + 4) * G::kLdMN + r0 + g]);
      a[mi][3] = __float_as_uint(f[(ks + t + 4) * G::kLdMN + r0 + g + 8]);
    }
    round_if_tf32<T>(a[mi]);
  }
}

// B fragments for the warp's 4 n8 tiles; each ldmatrix.x4 covers two of them.
template <DType T, bool KContig>
__device__ __forceinline__ void load_b(uint32_t (&b)[kFragsN][2], const typename Cfg<T>::S* Bs,
                                       int col_base, int ks) {
  using G = Geometry<T>;
  const int lane = threadIdx.x % 32;
  const int q = lane / 8, r = lane % 8;
#pragma unroll
  for (int pair = 0; pair < kFragsN / 2; ++pair) {
    const int c0 = col_base + pair * 2 * kMmaN;
    if constexpr (KContig || T != DType::tf32) {
      uint32_t x[4];
      if constexpr (KContig)
        ldmatrix_x4<false>(x, Bs + (c0 + (q / 2) * 8 + r) * G::kLdK + ks + (q % 2) * G::kChunk);
      else
        ldmatrix_x4<true>(x, Bs + (ks + (q % 2) * 8 + r) * G::kLdMN + c0 + (q / 2) * 8);
      b[2 * pair][0] = x[0];
      b[2 * pair][1] = x[1];
      b[2 * pair + 1][0] = x[2];
      b[2 * pair + 1][1] = x[3];
    } else {
      const int g = lane / 4, t = lane % 4;
      const float* f = reinterpret_cast<const float*>(Bs);
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        b[2 * pair + h][0] = __float_as_uint(f[(ks + t) * G::kLdMN + c0 + h * kMmaN + g]);
        b[2 * pair + h][1] = __float_as_uint(f[(ks + t + 4) * G::kLdMN + c0 + h * kMmaN + g]);
      }
    }
  }
#pragma unroll
  for (int ni = 0; ni < kFragsN; ++ni) round_if_tf32<T>(b[ni]);
}

// NOTES: two CTAs per SM (<= 128 registers; 2 x 80 KiB of shared memory fits on A100 and H100):
// one CTA's epilogue and pipeline fill then overlap the other's main loop. ptxas fits it without
// spills (tests/cpu/test_sass.cpp checks for LDL/STL).
template <DType T, Layout LA, Layout LB>
__global__ void __launch_bounds__(kThreads, 2) mma_sync_multistage_kernel(LadderParams p) {
  using G = Geometry<T>;
  using S = typename Cfg<T>::S;
  constexpr bool kAK = LA == Layout::row;     // A is K-contiguous
  constexpr bool kBK = LB == Layout::column;  // B is K-contiguous
  constexpr int kSlabA = G::slab_bytes(kAK) / G::kElem, kSlabB = G::slab_bytes(kBK) / G::kElem;
  extern __shared__ __align__(128) unsigned char smem[];
  S* As = reinterpret_cast<S*>(smem);     // kStages A slabs, then kStages B slabs
  S* Bs = As + kStages * kSlabA;

  const S* a = static_cast<const S*>(p.a);
  const S* b = static_cast<const S*>(p.b);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int wm = warp / kWarpsN, wn = warp % kWarpsN;
  const int64_t m0 = blockIdx.y * int64_t{kTileM}, n0 = blockIdx.x * int64_t{kTileN};
  const int64_t k_tiles = (p.k + G::kTileK - 1) / G::kTileK;

  auto load_stage = [&](int stage, int64_t kt) {
    const int64_t k0 = kt * G::kTileK;
    load_slab<T, kAK>(As + stage * kSlabA, a, p.lda, m0, p.m, k0, p.k);
    load_slab<T, kBK>(Bs + stage * kSlabB, b, p.ldb, n0, p.n, k0, p.k);
  };

  // Prologue: kStages-1 slabs in flight. Every iteration commits a group, empty or not, so
  // "wait until at most kStages-2 groups are pending" always means "slab kt has landed".
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < k_tiles) load_stage(s, s);
    cp_async_commit();
  }

  float acc[kFragsM][kFragsN][4] = {};
  for (int64_t kt = 0; kt < k_tiles; ++kt) {
    cp_async_wait<kStages - 2>();
    // Publishes slab kt to all warps, and proves every warp is done with slab kt-1, whose stage
    // the prefetch below overwrites.
    __syncthreads();
    const int64_t next = kt + kStages - 1;
    if (next < k_tiles) load_stage(static_cast<int>(next % kStages), next);
    cp_async_commit();

    const int stage = static_cast<int>(kt % kStages);
    const S* as = As + stage * kSlabA;
    const S* bs = Bs + stage * kSlabB;
#pragma unroll
    for (int ks = 0; ks < G::kTileK; ks += Cfg<T>::kStepK) {
      uint32_t af[kFragsM][4], bf[kFragsN][2];
      load_a<T, kAK>(af, as, wm * kWarpM, ks);
      load_b<T, kBK>(bf, bs, wn * kWarpN, ks);
#pragma unroll
      for (int mi = 0; mi < kFragsM; ++mi)
#pragma unroll
        for (int ni = 0; ni < kFragsN; ++ni) dev::mma_sync<T>(acc[mi][ni], af[mi], bf[ni]);
    }
  }
  cp_async_wait<0>();
  __syncthreads();  // the pipeline buffers become the epilogue's staging tile

  // NOTES: the accumulators go through shared memory so that D is written by one loop (one
  // inlined copy of the run-time-dtype epilogue instead of 64, which also kept the compiler busy
  // for minutes) and in D's own layout order, so the stores coalesce for row- and column-major D.
  float* tile = reinterpret_cast<float*>(smem);  // [kTileM][kLdTile]
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int mi = 0; mi < kFragsM; ++mi)
#pragma unroll
    for (int ni = 0; ni < kFragsN; ++ni) {
      // Accumulator fragment: c0,c1 at (row g, cols 2t, 2t+1), c2,c3 at row g+8.
      const int row = wm * kWarpM + mi * kMmaM + g, col = wn * kWarpN + ni * kMmaN + 2 * t;
      *reinterpret_cast<float2*>(&tile[row * kLdTile + col]) = make_float2(acc[mi][ni][0], acc[mi][ni][1]);
      *reinterpret_cast<float2*>(&tile[(row + 8) * kLdTile + col]) = make_float2(acc[mi][ni][2], acc[mi][ni][3]);
    }
  __syncthreads();
  const bool d_rows = p.ep.ld_layout == Layout::row;
#pragma unroll 1
  for (int e = threadIdx.x; e < kTileM * kTileN; e += kThreads) {
    const int r = d_rows ? e / kTileN : e % kTileM;
    const int c = d_rows ? e % kTileN : e / kTileM;
    dev::epilogue_store(p.ep, m0 + r, n0 + c, tile[r * kLdTile + c]);
  }
}

template <DType T>
constexpr const char* dtype_name() {
  return T == DType::f16 ? "f16" : T == DType::bf16 ? "bf16" : "tf32";
}

template <DType T>
Status supports(const GemmDesc& g) {
  const std::string name = std::string("sm80_mma_sync_") + dtype_name<T>();
  if (g.a.dtype != T || g.b.dtype != T)
    return Status::unsupported(name + " takes " + dtype_name<T>() + " A and B (got " +
                               std::string(to_string(g.a.dtype)) + ")");
  // Every copy is a 16-byte cp.async, so each row or column start of A and B must be 16-byte
  // aligned. Rather than a slower element-copy variant here, gemm() falls back to wmma_tiled_*,
  // which stages any alignment through predicated element loads.
  constexpr int64_t kElem = sizeof(typename Cfg<T>::S);
  const int64_t lda = effective_ld(g.a, extent_a(g)), ldb = effective_ld(g.b, extent_b(g));
  if ((lda * kElem) % 16 != 0 || (ldb * kElem) % 16 != 0)
    return Status(StatusCode::misaligned,
                  name + " needs lda and ldb multiples of " + std::to_string(16 / kElem) +
                      " elements for 16-byte cp.async (got " + std::to_string(lda) + ", " +
                      std::to_string(ldb) + "); gemm() uses wmma_tiled_" + dtype_name<T>() +
                      " instead");
  if (g.a.pointer_alignment < 16 || g.b.pointer_alignment < 16)
    return Status(StatusCode::misaligned, name + " needs A and B 16-byte aligned; gemm() uses wmma_tiled_" +
                                              std::string(dtype_name<T>()) + " instead");
  if ((g.m + kTileM - 1) / kTileM > 65535)
    return Status::unsupported(name + ": m > 8,388,480 exceeds the grid's y limit");
  return check_epilogue_dtypes(g);
}

template <DType T, Layout LA, Layout LB>
Status launch_layout(const GemmArgs& args) {
  using G = Geometry<T>;
  constexpr int smem = kStages * (G::slab_bytes(LA == Layout::row) + G::slab_bytes(LB == Layout::column));
  auto* kernel = &mma_sync_multistage_kernel<T, LA, LB>;
  // Above 48 KiB of dynamic shared memory a kernel must opt in (once per device).
  if (Status st = allow_dynamic_smem(reinterpret_cast<const void*>(kernel), smem); !st.ok()) return st;
  const LadderParams p = make_ladder_params(args);
  const dim3 grid(static_cast<unsigned>((p.n + kTileN - 1) / kTileN),
                  static_cast<unsigned>((p.m + kTileM - 1) / kTileM));
  kernel<<<grid, kThreads, smem, args.stream>>>(p);
  return launch_status("sm80_mma_sync");
}

template <DType T>
Status launch(const GemmArgs& args) {
  return dispatch_ab_layouts(args, [&]<Layout LA, Layout LB>() { return launch_layout<T, LA, LB>(args); });
}

template <DType T>
const void* function() {
  return reinterpret_cast<const void*>(&mma_sync_multistage_kernel<T, Layout::row, Layout::column>);
}

template <DType T>
KernelEntry entry(std::string_view name) {
  return ladder_entry(name, {MmaFamily::mma_sync, T, kTileM, kTileN, Geometry<T>::kTileK, kStages, kThreads}, &supports<T>,
                      &launch<T>, &function<T>);
}

}  // namespace

void add_sm80_mma_sync_kernels(std::vector<KernelEntry>& table) {
  table.push_back(entry<DType::f16>("sm80_mma_sync_f16_128x128x32_s4"));
  table.push_back(entry<DType::bf16>("sm80_mma_sync_bf16_128x128x32_s4"));
  table.push_back(entry<DType::tf32>("sm80_mma_sync_tf32_128x128x16_s4"));
}

}  // namespace tcgemm
