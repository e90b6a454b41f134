// Rung 2b: WMMA fed from shared memory. A CTA of 8 warps owns a 128x128 output tile; each K step
// stages a 128x32 slab of A and a 32x128 slab of B in shared memory once, and every warp reads
// its fragments from there, so each global byte now feeds 8 (A) or 4 (B) warps instead of one.
// Global loads are element-wise and predicated, so any M, N, K, ld and pointer alignment works;
// the price is no vector loads and no overlap of loads with math (the mma.sync rung adds both).
#include <string>

#include "kernels/common/epilogue.cuh"
#include "kernels/ladder_entries.hpp"
#include "kernels/wmma/wmma_traits.cuh"

namespace tcgemm {
namespace {

using namespace wmma_detail;

constexpr int kTileM = 128, kTileN = 128, kTileK = 32;
constexpr int kWarpsM = 2, kWarpsN = 4;
constexpr int kThreads = 32 * kWarpsM * kWarpsN;
constexpr int kWarpM = kTileM / kWarpsM, kWarpN = kTileN / kWarpsN;  // 64 x 32
constexpr int kFragsM = kWarpM / 16, kFragsN = kWarpN / 16;          // 4 x 2
// NOTES: padding by 16 bytes keeps every fragment pointer 32-byte aligned (load_matrix_sync's
// rule) while spreading consecutive rows over different banks.
template <class S> constexpr int kPad = 16 / sizeof(S);
template <class S> constexpr int kLdA = kTileK + kPad<S>;
template <class S> constexpr int kLdB = kTileN + kPad<S>;
template <class S>
constexpr int kSmemBytes = (kTileM * kLdA<S> + kTileK * kLdB<S>) * static_cast<int>(sizeof(S));
static_assert(kTileM * kLdA<__half> * 2 >= kWarpsM * kWarpsN * 256 * 4, "epilogue staging fits in A");

template <DType T>
__global__ void __launch_bounds__(kThreads, 1) wmma_tiled_kernel(LadderParams p) {
  using S = typename Traits<T>::Storage;
  constexpr int kK = Traits<T>::kK;
  constexpr int ldA = kLdA<S>, ldB = kLdB<S>;
  __shared__ __align__(128) unsigned char smem[kSmemBytes<S>];
  S* As = reinterpret_cast<S*>(smem);                      // [kTileM][ldA], row-major (m, k)
  S* Bs = As + kTileM * ldA;                               // [kTileK][ldB], row-major (k, n)
  const S* a = static_cast<const S*>(p.a);
  const S* b = static_cast<const S*>(p.b);
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int wm = warp / kWarpsN, wn = warp % kWarpsN;
  const int64_t m0 = blockIdx.y * int64_t{kTileM}, n0 = blockIdx.x * int64_t{kTileN};

  wmma::fragment<wmma::accumulator, 16, 16, kK, float> acc[kFragsM][kFragsN];
#pragma unroll
  for (int i = 0; i < kFragsM; ++i)
#pragma unroll
    for (int j = 0; j < kFragsN; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

  for (int64_t k0 = 0; k0 < p.k; k0 += kTileK) {
    // Consecutive threads walk each operand's contiguous dimension so global reads coalesce;
    // out-of-range elements become zeros, which add nothing to the sums.
#pragma unroll 4
    for (int i = tid; i < kTileM * kTileK; i += kThreads) {
      const int r = p.la == Layout::row ? i / kTileK : i % kTileM;
      const int kk = p.la == Layout::row ? i % kTileK : i / kTileM;
      const int64_t gr = m0 + r, gk = k0 + kk;
      As[r * ldA + kk] = (gr < p.m && gk < p.k) ? a[dev::offset(p.la, gr, gk, p.lda)] : S(0.0f);
    }
#pragma unroll 4
    for (int i = tid; i < kTileK * kTileN; i += kThreads) {
      const int c = p.lb == Layout::row ? i % kTileN : i / kTileK;
      const int kk = p.lb == Layout::row ? i / kTileN : i % kTileK;
      const int64_t gc = n0 + c, gk = k0 + kk;
      Bs[kk * ldB + c] = (gc < p.n && gk < p.k) ? b[dev::offset(p.lb, gk, gc, p.ldb)] : S(0.0f);
    }
    __syncthreads();
#pragma unroll
    for (int ks = 0; ks < kTileK; ks += kK) {
      wmma::fragment<wmma::matrix_a, 16, 16, kK, typename Traits<T>::FragElem, wmma::row_major> fa[kFragsM];
      wmma::fragment<wmma::matrix_b, 16, 16, kK, typename Traits<T>::FragElem, wmma::row_major> fb[kFragsN];
#pragma unroll
      for (int i = 0; i < kFragsM; ++i) {
        wmma::load_matrix_sync(fa[i], As + (wm * kWarpM + i * 16) * ldA + ks, ldA);
        round_if_tf32<T>(fa[i]);
      }
#pragma unroll
      for (int j = 0; j < kFragsN; ++j) {
        wmma::load_matrix_sync(fb[j], Bs + ks * ldB + wn * kWarpN + j * 16, ldB);
        round_if_tf32<T>(fb[j]);
      }
#pragma unroll
      for (int i = 0; i < kFragsM; ++i)
#pragma unroll
        for (int j = 0; j < kFragsN; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    __syncthreads();
  }

  // The A slab is free now (the loop ended on a barrier): each warp stages one 16x16 fragment at
  // a time as f32 and writes it through the shared epilogue (dtype, layout, beta, bounds).
  float* stage = reinterpret_cast<float*>(smem) + warp * 256;
#pragma unroll
  for (int i = 0; i < kFragsM; ++i)
#pragma unroll
    for (int j = 0; j < kFragsN; ++j) {
      wmma::store_matrix_sync(stage, acc[i][j], 16, wmma::mem_row_major);
      __syncwarp();
      const int64_t row0 = m0 + wm * kWarpM + i * 16, col0 = n0 + wn * kWarpN + j * 16;
#pragma unroll
      for (int e = lane; e < 256; e += 32) dev::epilogue_store(p.ep, row0 + e / 16, col0 + e % 16, stage[e]);
      __syncwarp();
    }
}

template <DType T>
Status supports(const GemmDesc& g) {
  if (g.a.dtype != T || g.b.dtype != T)
    return Status::unsupported(std::string("wmma_tiled_") + Traits<T>::kName + " takes " +
                               Traits<T>::kName + " A and B (got " +
                               std::string(to_string(g.a.dtype)) + ")");
  if ((g.m + kTileM - 1) / kTileM > 65535)
    return Status::unsupported("wmma_tiled: m > 8,388,480 exceeds the grid's y limit");
  return check_epilogue_dtypes(g);
}

template <DType T>
Status launch(const GemmArgs& args) {
  const LadderParams p = make_ladder_params(args);
  const dim3 grid(static_cast<unsigned>((p.n + kTileN - 1) / kTileN),
                  static_cast<unsigned>((p.m + kTileM - 1) / kTileM));
  wmma_tiled_kernel<T><<<grid, kThreads, 0, args.stream>>>(p);
  return launch_status("wmma_tiled");
}

template <DType T>
const void* function() {
  return reinterpret_cast<const void*>(&wmma_tiled_kernel<T>);
}

template <DType T>
KernelEntry entry(std::string_view name) {
  return ladder_entry(name, {MmaFamily::wmma, T, kTileM, kTileN, kTileK, 1, kThreads}, &supports<T>, &launch<T>,
                      &function<T>);
}

}  // namespace

void add_wmma_tiled_kernels(std::vector<KernelEntry>& table) {
  table.push_back(entry<DType::f16>("wmma_tiled_f16_128x128x32"));
  table.push_back(entry<DType::bf16>("wmma_tiled_bf16_128x128x32"));
  table.push_back(entry<DType::tf32>("wmma_tiled_tf32_128x128x32"));
}

}  // namespace tcgemm
