// Rung 1b: the classic shared-memory FP32 GEMM. A 128x128 output tile per CTA of 256 threads, the
// K dimension walked 8 at a time through shared memory, and each thread holding an 8x8 block of
// outputs in registers so every shared-memory load feeds 8 FMAs. Still the CUDA cores: this is
// the FP32 SIMT baseline the Tensor Core rungs are compared with.
#include "kernels/common/epilogue.cuh"
#include "kernels/ladder_entries.hpp"

namespace tcgemm {
namespace {

constexpr int kTileM = 128, kTileN = 128, kTileK = 8;
constexpr int kThreads = 256;
constexpr int kThreadM = 8, kThreadN = 8;
// NOTES: +4 floats keeps rows 16-byte aligned for float4 reads while shifting the banks the
// transposing stores of a row-major A hit.
constexpr int kPad = 4;
static_assert((kTileM / kThreadM) * (kTileN / kThreadN) == kThreads);
static_assert(kTileM * kTileK % kThreads == 0 && kTileN * kTileK % kThreads == 0);

__global__ void __launch_bounds__(kThreads, 1) simt_tiled_f32_kernel(LadderParams p) {
  __shared__ __align__(16) float As[kTileK][kTileM + kPad];  // k-major: a column of A per row
  __shared__ __align__(16) float Bs[kTileK][kTileN + kPad];
  const float* a = static_cast<const float*>(p.a);
  const float* b = static_cast<const float*>(p.b);
  const int tid = threadIdx.x;
  const int tx = tid % 16, ty = tid / 16;
  const int64_t m0 = blockIdx.y * int64_t{kTileM}, n0 = blockIdx.x * int64_t{kTileN};

  float acc[kThreadM][kThreadN] = {};
  for (int64_t k0 = 0; k0 < p.k; k0 += kTileK) {
    // Consecutive threads walk the contiguous dimension of each operand so global reads coalesce.
#pragma unroll
    for (int j = 0; j < kTileM * kTileK / kThreads; ++j) {
      const int i = tid + j * kThreads;
      const int r = p.la == Layout::row ? i / kTileK : i % kTileM;
      const int kk = p.la == Layout::row ? i % kTileK : i / kTileM;
      const int64_t gr = m0 + r, gk = k0 + kk;
      As[kk][r] = (gr < p.m && gk < p.k) ? a[dev::offset(p.la, gr, gk, p.lda)] : 0.0f;
    }
#pragma unroll
    for (int j = 0; j < kTileN * kTileK / kThreads; ++j) {
      const int i = tid + j * kThreads;
      const int c = p.lb == Layout::row ? i % kTileN : i / kTileK;
      const int kk = p.lb == Layout::row ? i / kTileN : i % kTileK;
      const int64_t gc = n0 + c, gk = k0 + kk;
      Bs[kk][c] = (gc < p.n && gk < p.k) ? b[dev::offset(p.lb, gk, gc, p.ldb)] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kTileK; ++kk) {
      // Rows ty*4 and 64+ty*4 (likewise columns): two float4 reads per operand, and a warp's
      // 16 distinct tx values cover all banks once.
      float av[kThreadM], bv[kThreadN];
      *reinterpret_cast<float4*>(&av[0]) = *reinterpret_cast<const float4*>(&As[kk][ty * 4]);
      *reinterpret_cast<float4*>(&av[4]) = *reinterpret_cast<const float4*>(&As[kk][64 + ty * 4]);
      *reinterpret_cast<float4*>(&bv[0]) = *reinterpret_cast<const float4*>(&Bs[kk][tx * 4]);
      *reinterpret_cast<float4*>(&bv[4]) = *reinterpret_cast<const float4*>(&Bs[kk][64 + tx * 4]);
#pragma unroll
      for (int i = 0; i < kThreadM; ++i)
#pragma unroll
        for (int j = 0; j < kThreadN; ++j) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < kThreadM; ++i) {
    const int64_t row = m0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + (i - 4));
#pragma unroll
    for (int j = 0; j < kThreadN; ++j) {
      const int64_t col = n0 + (j < 4 ? tx * 4 + j : 64 + tx * 4 + (j - 4));
      dev::epilogue_store(p.ep, row, col, acc[i][j]);
    }
  }
}

Status supports(const GemmDesc& g) {
  if (g.a.dtype != DType::f32 || g.b.dtype != DType::f32)
    return Status::unsupported("simt_tiled_f32 takes f32 A and B (got " +
                               std::string(to_string(g.a.dtype)) + ")");
  if ((g.m + kTileM - 1) / kTileM > 65535)
    return Status::unsupported("simt_tiled_f32: m > 8,388,480 exceeds the grid's y limit");
  return check_epilogue_dtypes(g);
}

Status launch(const GemmArgs& args) {
  const LadderParams p = make_ladder_params(args);
  const dim3 grid(static_cast<unsigned>((p.n + kTileN - 1) / kTileN),
                  static_cast<unsigned>((p.m + kTileM - 1) / kTileM));
  simt_tiled_f32_kernel<<<grid, kThreads, 0, args.stream>>>(p);
  return launch_status("simt_tiled_f32_128x128x8");
}

const void* function() { return reinterpret_cast<const void*>(&simt_tiled_f32_kernel); }

}  // namespace

void add_simt_tiled_kernels(std::vector<KernelEntry>& table) {
  table.push_back(ladder_entry("simt_tiled_f32_128x128x8", {MmaFamily::simt, DType::f32, kTileM, kTileN, kTileK, 1, kThreads},
                               &supports, &launch, &function));
}

}  // namespace tcgemm
