// Rung 2a: the lesson's WMMA kernel. One warp owns one 16x16 output tile and sweeps K, loading
// 16x16 (16x8 for tf32) fragments of A and B straight from global memory with load_matrix_sync.
// No reuse through shared memory: each fragment is fetched once per output tile that needs it,
// so this rung is bandwidth-bound and shows why feeding the Tensor Cores is the real problem.
#include <string>

#include "kernels/common/epilogue.cuh"
#include "kernels/ladder_entries.hpp"
#include "kernels/wmma/wmma_traits.cuh"

namespace tcgemm {
namespace {

using namespace wmma_detail;

constexpr int kWarpsM = 2, kWarpsN = 2;
constexpr int kThreads = 32 * kWarpsM * kWarpsN;

template <DType T, Layout LA, Layout LB>
__global__ void __launch_bounds__(kThreads) wmma_naive_kernel(LadderParams p) {
  using S = typename Traits<T>::Storage;
  constexpr int kK = Traits<T>::kK;
  // Staging for the epilogue: store_matrix_sync only writes f32 with a fixed layout, and D may
  // be f16/bf16, column-major, or need beta*C.
  __shared__ __align__(32) float stage[kWarpsM * kWarpsN][16 * 16];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int64_t row0 = (blockIdx.y * int64_t{kWarpsM} + warp / kWarpsN) * 16;
  const int64_t col0 = (blockIdx.x * int64_t{kWarpsN} + warp % kWarpsN) * 16;
  if (row0 >= p.m || col0 >= p.n) return;  // whole warp leaves together: no CTA barrier follows

  const S* a = static_cast<const S*>(p.a);
  const S* b = static_cast<const S*>(p.b);
  wmma::fragment<wmma::matrix_a, 16, 16, kK, typename Traits<T>::FragElem, WmmaLayout<LA>> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, kK, typename Traits<T>::FragElem, WmmaLayout<LB>> fb;
  wmma::fragment<wmma::accumulator, 16, 16, kK, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int64_t k0 = 0; k0 < p.k; k0 += kK) {
    wmma::load_matrix_sync(fa, a + dev::offset(LA, row0, k0, p.lda), static_cast<unsigned>(p.lda));
    wmma::load_matrix_sync(fb, b + dev::offset(LB, k0, col0, p.ldb), static_cast<unsigned>(p.ldb));
    round_if_tf32<T>(fa);
    round_if_tf32<T>(fb);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(stage[warp], acc, 16, wmma::mem_row_major);
  __syncwarp();
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int e = lane + 32 * i;
    dev::epilogue_store(p.ep, row0 + e / 16, col0 + e % 16, stage[warp][e]);
  }
}

template <DType T>
Status supports(const GemmDesc& g) {
  const std::string name = std::string("wmma_naive_") + Traits<T>::kName;
  if (g.a.dtype != T || g.b.dtype != T)
    return Status::unsupported(name + " takes " + Traits<T>::kName + " A and B (got " +
                               std::string(to_string(g.a.dtype)) + ")");
  constexpr int kK = Traits<T>::kK;
  // load_matrix_sync reads whole fragments with no bounds checks, so every tile must be full.
  if (g.m % 16 != 0 || g.n % 16 != 0 || g.k % kK != 0)
    return Status::unsupported(name + " needs m, n multiples of 16 and k a multiple of " +
                               std::to_string(kK) + " (use wmma_tiled_*, which handles any shape)");
  // load_matrix_sync: 256-bit aligned pointer, ldm a multiple of 16 bytes.
  constexpr int64_t kLdMultiple = 16 / sizeof(typename Traits<T>::Storage);
  const int64_t lda = effective_ld(g.a, extent_a(g)), ldb = effective_ld(g.b, extent_b(g));
  if (lda % kLdMultiple != 0 || ldb % kLdMultiple != 0)
    return Status(StatusCode::misaligned,
                  name + " needs lda and ldb multiples of " + std::to_string(kLdMultiple) +
                      " elements (got " + std::to_string(lda) + ", " + std::to_string(ldb) +
                      "); wmma_tiled_* handles any ld");
  if (g.a.pointer_alignment < 32 || g.b.pointer_alignment < 32)
    return Status(StatusCode::misaligned,
                  name + " needs A and B 32-byte aligned; wmma_tiled_* handles any alignment");
  if ((g.m + 16 * kWarpsM - 1) / (16 * kWarpsM) > 65535)
    return Status::unsupported(name + ": m too large for the grid's y limit");
  return check_epilogue_dtypes(g);
}

template <DType T, Layout LA, Layout LB>
Status launch_layout(const GemmArgs& args) {
  const LadderParams p = make_ladder_params(args);
  const dim3 grid(static_cast<unsigned>((p.n + 16 * kWarpsN - 1) / (16 * kWarpsN)),
                  static_cast<unsigned>((p.m + 16 * kWarpsM - 1) / (16 * kWarpsM)));
  wmma_naive_kernel<T, LA, LB><<<grid, kThreads, 0, args.stream>>>(p);
  return launch_status("wmma_naive");
}

template <DType T>
Status launch(const GemmArgs& args) {
  return dispatch_ab_layouts(args, [&]<Layout LA, Layout LB>() { return launch_layout<T, LA, LB>(args); });
}

template <DType T>
const void* function() {
  return reinterpret_cast<const void*>(&wmma_naive_kernel<T, Layout::row, Layout::column>);
}

template <DType T>
KernelEntry entry(std::string_view name) {
  return ladder_entry(name, {MmaFamily::wmma, T, 16 * kWarpsM, 16 * kWarpsN, Traits<T>::kK, 1, kThreads}, &supports<T>,
                      &launch<T>, &function<T>);
}

}  // namespace

void add_wmma_naive_kernels(std::vector<KernelEntry>& table) {
  table.push_back(entry<DType::f16>("wmma_naive_f16_16x16x16"));
  table.push_back(entry<DType::bf16>("wmma_naive_bf16_16x16x16"));
  table.push_back(entry<DType::tf32>("wmma_naive_tf32_16x16x8"));
}

}  // namespace tcgemm
