// The nvcuda::wmma fragment shapes per input dtype, shared by the two WMMA rungs.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include "tcgemm/types.hpp"

namespace tcgemm::wmma_detail {

namespace wmma = nvcuda::wmma;

template <DType T> struct Traits;
template <> struct Traits<DType::f16> {
  using Storage = __half;
  using FragElem = __half;
  static constexpr int kK = 16;
  static constexpr const char* kName = "f16";
};
template <> struct Traits<DType::bf16> {
  using Storage = __nv_bfloat16;
  using FragElem = __nv_bfloat16;
  static constexpr int kK = 16;
  static constexpr const char* kName = "bf16";
};
// TF32 operands are f32 in memory; the fragment holds them after rounding to tf32.
template <> struct Traits<DType::tf32> {
  using Storage = float;
  using FragElem = wmma::precision::tf32;
  static constexpr int kK = 8;
  static constexpr const char* kName = "tf32";
};

template <Layout L>
using WmmaLayout = std::conditional_t<L == Layout::row, wmma::row_major, wmma::col_major>;

template <DType T, class Frag>
__device__ __forceinline__ void round_if_tf32(Frag& f) {
  if constexpr (T == DType::tf32) {
#pragma unroll
    for (int i = 0; i < f.num_elements; ++i) f.x[i] = wmma::__float_to_tf32(f.x[i]);
  }
}

}  // namespace tcgemm::wmma_detail
