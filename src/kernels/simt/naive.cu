// Rung 1a: one thread per output element, FP32 FMAs on the CUDA cores, operands read straight
// from global memory. Every byte of A and B is fetched from L2/DRAM once per output that uses it;
// this is the baseline the rest of the ladder is measured against.
#include "kernels/common/epilogue.cuh"
#include "kernels/ladder_entries.hpp"

namespace tcgemm {
namespace {

constexpr int kBlockX = 16, kBlockY = 16;

__global__ void __launch_bounds__(kBlockX * kBlockY) simt_naive_f32_kernel(LadderParams p) {
  const int64_t col = blockIdx.x * int64_t{kBlockX} + threadIdx.x;
  const int64_t row = blockIdx.y * int64_t{kBlockY} + threadIdx.y;
  if (row >= p.m || col >= p.n) return;
  const float* a = static_cast<const float*>(p.a);
  const float* b = static_cast<const float*>(p.b);
  float acc = 0.0f;
  for (int64_t kk = 0; kk < p.k; ++kk)
    acc = fmaf(a[dev::offset(p.la, row, kk, p.lda)], b[dev::offset(p.lb, kk, col, p.ldb)], acc);
  dev::epilogue_store(p.ep, row, col, acc);
}

Status supports(const GemmDesc& g) {
  if (g.a.dtype != DType::f32 || g.b.dtype != DType::f32)
    return Status::unsupported("simt_naive_f32 takes f32 A and B (got " +
                               std::string(to_string(g.a.dtype)) + ")");
  if ((g.m + kBlockY - 1) / kBlockY > 65535)
    return Status::unsupported("simt_naive_f32: m > 1,048,560 exceeds the grid's y limit");
  return check_epilogue_dtypes(g);
}

Status launch(const GemmArgs& args) {
  const LadderParams p = make_ladder_params(args);
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid(static_cast<unsigned>((p.n + kBlockX - 1) / kBlockX),
                  static_cast<unsigned>((p.m + kBlockY - 1) / kBlockY));
  simt_naive_f32_kernel<<<grid, block, 0, args.stream>>>(p);
  return launch_status("simt_naive_f32");
}

const void* function() { return reinterpret_cast<const void*>(&simt_naive_f32_kernel); }

}  // namespace

void add_simt_naive_kernels(std::vector<KernelEntry>& table) {
  table.push_back(ladder_entry("simt_naive_f32", {MmaFamily::simt, DType::f32, kBlockY, kBlockX, 1, 1, kBlockX * kBlockY},
                               &supports, &launch, &function));
}

}  // namespace tcgemm
