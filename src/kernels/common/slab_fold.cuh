// Split-K's reduce folded into the split pass (Params::fold of the ws kernel): the S CTAs of a tile
// store their f32 slabs as before, meet at the tile's counter in global memory, then each sums a
// 1/S share of the tile over all S slabs and writes D (alpha, beta*C, D's dtype), with no second
// launch. NOTES: it measured 3-10% slower than the separate reduce (runs 229-230): under PDL that
// reduce's launch is hidden and its blocks fill every SM, where the fold has one CTA a SM. gemm()
// runs it only with TCGEMM_DIAG_FOLD=1 (split_k.cu).
//
// The sum is the reduce kernel's (splitk_reduce.cu): slab 0, then slabs 1..S-1 added in order, so
// a folded result is bitwise identical to an unfolded one and to itself across runs. The meeting
// needs every split of a tile resident at once: the host folds only where tiles x splits fit one
// round and launches cooperatively.
#pragma once

#include <cstdint>

#include "kernels/common/epilogue.cuh"
#include "kernels/common/fixup.cuh"
#include "kernels/common/named_barrier.cuh"

namespace tcgemm::dev {

// The tile's S CTAs meet; `threads` threads of this CTA take part (named barrier 1). The counter
// is left at zero for the next launch: each CTA adds 1 arriving and 1 leaving, and the last to
// leave (old value 2S-1) resets it, after every CTA has seen S arrivals (as in_copy_meet).
__device__ __forceinline__ void slab_fold_meet(uint32_t* counter, uint32_t splits, int t, int threads) {
  __threadfence();  // this thread's slab stores, before thread 0's release (fixup.cuh's pattern)
  named_barrier_sync(1, threads);
  if (t == 0) {
    flag_release(counter);
    while (flag_load_acquire(counter) < splits) __nanosleep(32);
    if (atomicAdd(counter, 1u) == 2u * splits - 1u) atomicExch(counter, 0u);
  }
  named_barrier_sync(1, threads);
}

// P float4 positions a thread at a time, slabs in batches of B: P*B independent 16-byte loads in
// flight before their ordered adds (the slabs are in L2, latency-bound as in splitk_reduce.cu).
// Loads past the last slab or position are predicated off.
template <int P, int B, class Ep>
__device__ __forceinline__ void slab_fold_positions(const float* slabs, int64_t slab_floats, int splits, int64_t ld,
                                                    int64_t m0, int64_t n0, int cols, int cq, int64_t lo, int64_t hi,
                                                    const Ep& out, int t, int threads) {
  for (int64_t q0 = lo + t; q0 < hi; q0 += int64_t{P} * threads) {
    const float* p[P];
    float4 s[P];
#pragma unroll
    for (int i = 0; i < P; ++i) {
      const int64_t q = q0 + int64_t{i} * threads;
      const int64_t qq = q < hi ? q : q0;  // an idle position re-reads the first (never stored)
      p[i] = slabs + (m0 + qq / cq) * ld + n0 + (qq % cq) * 4;
      s[i] = __ldcg(reinterpret_cast<const float4*>(p[i]));
    }
    for (int z = 1; z < splits; z += B) {
      float4 w[P][B];
#pragma unroll
      for (int j = 0; j < B; ++j)
#pragma unroll
        for (int i = 0; i < P; ++i)
          if (z + j < splits) w[i][j] = __ldcg(reinterpret_cast<const float4*>(p[i] + (z + j) * slab_floats));
#pragma unroll
      for (int j = 0; j < B; ++j)
#pragma unroll
        for (int i = 0; i < P; ++i)
          if (z + j < splits) {
            s[i].x += w[i][j].x;
            s[i].y += w[i][j].y;
            s[i].z += w[i][j].z;
            s[i].w += w[i][j].w;
          }
    }
#pragma unroll
    for (int i = 0; i < P; ++i) {
      const int64_t q = q0 + int64_t{i} * threads;
      if (q >= hi) break;
      const int64_t gr = m0 + q / cq;
      const int c4 = static_cast<int>(q % cq) * 4;
      const float v[4] = {s[i].x, s[i].y, s[i].z, s[i].w};
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        if (c4 + e >= cols) break;  // the slab's padding columns (ld = N rounded up to 4)
        const int64_t gc = n0 + c4 + e;
        float x = __fmul_rn(out.alpha, v[e]);
        if (out.beta != 0.0f)
          x = alpha_acc_beta_c(out.alpha, v[e], out.beta,
                               load_epilogue(out.c, gr * out.c_row_stride + gc * out.c_col_stride, out.c_dtype));
        store_epilogue(out.d, gr * out.d_row_stride + gc * out.d_col_stride, out.d_dtype, x);
      }
    }
  }
}

// Split `split` of S sums its share of the tile at (m0, n0), rows x cols valid elements, of the
// row-major slabs (ld floats a row, 4-aligned; slab z at slabs + z * slab_floats) into out's D.
// Float4 positions along the rows, consecutive threads on consecutive positions.
template <int kLoads, int kMaxPositions, class Ep>
__device__ __forceinline__ void slab_fold_reduce(const float* slabs, int64_t slab_floats, int splits, int split,
                                                 int64_t ld, int64_t m0, int64_t n0, int rows, int cols,
                                                 const Ep& out, int t, int threads) {
  const int cq = (cols + 3) / 4;
  const int64_t total = int64_t{rows} * cq;
  const int64_t lo = total * split / splits, hi = total * (split + 1) / splits;
  // kLoads loads in flight, up to kMaxPositions float4 positions a thread: as many as the kernel's
  // registers allow (the caller's choice, checked by the SASS test's no-spill rule).
  // NOTES: run 229, the first fold, had at most 16 and two positions a thread: one CTA of 256
  // threads a SM reduced 128x8192x28672's 3 slabs 4% slower than the separate reduce's full GPU
  // of blocks. More positions a thread where few slabs leave loads to spare; one position and
  // batches of kLoads otherwise.
  static_assert(kLoads % kMaxPositions == 0 && kMaxPositions >= 2 && kMaxPositions <= 8, "1 to 8 positions");
  const int rest = splits - 1;  // the loads after the first, per position
  if (hi - lo <= threads || rest > kLoads / 2) {
    slab_fold_positions<1, kLoads>(slabs, slab_floats, splits, ld, m0, n0, cols, cq, lo, hi, out, t, threads);
  } else if (kMaxPositions == 2 || rest > kLoads / 4) {
    slab_fold_positions<2, kLoads / 2>(slabs, slab_floats, splits, ld, m0, n0, cols, cq, lo, hi, out, t, threads);
  } else if constexpr (kMaxPositions >= 4) {
    if (kMaxPositions == 4 || rest > kLoads / 8)
      slab_fold_positions<4, kLoads / 4>(slabs, slab_floats, splits, ld, m0, n0, cols, cq, lo, hi, out, t, threads);
    else if constexpr (kMaxPositions == 8)
      slab_fold_positions<8, kLoads / 8>(slabs, slab_floats, splits, ld, m0, n0, cols, cq, lo, hi, out, t, threads);
  }
}

}  // namespace tcgemm::dev
