// One warp copies 256 elements (a 512-byte segment) of one line per step: eight 2-byte loads per
// lane, lane-contiguous so every load instruction is one coalesced 64-byte request whatever the
// source alignment; a 512-byte shared-memory bounce turns them into one 16-byte store per lane.
#include "kernels/common/repack.hpp"

#include <algorithm>
#include <string>

#include "kernels/common/tensor_map.hpp"

namespace tcgemm {
namespace {

constexpr int kWarps = 8;
constexpr int kSegment = 256;  // elements per warp step: 32 lanes x 8 = 8 loads of 32

__global__ void __launch_bounds__(32 * kWarps) repack_16bit_kernel(const uint16_t* __restrict__ src, int64_t lines,
                                                                   int64_t line_length, int64_t ld_src,
                                                                   uint16_t* __restrict__ dst, int64_t ld_dst) {
  __shared__ alignas(16) uint16_t bounce[kWarps][kSegment];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int64_t segments = (ld_dst + kSegment - 1) / kSegment;
  const int64_t items = lines * segments;
  for (int64_t item = blockIdx.x * int64_t{kWarps} + warp; item < items; item += int64_t{gridDim.x} * kWarps) {
    const int64_t line = item / segments;
    const int64_t col0 = (item - line * segments) * kSegment;
    const uint16_t* in = src + line * ld_src + col0;
    const int64_t valid = line_length - col0;  // may be <= 0 in the pad segment
    uint16_t v[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) v[i] = i * 32 + lane < valid ? __ldg(in + i * 32 + lane) : uint16_t{0};
#pragma unroll
    for (int i = 0; i < 8; ++i) bounce[warp][i * 32 + lane] = v[i];
    __syncwarp();
    if (col0 + 8 * lane < ld_dst)
      *reinterpret_cast<uint4*>(dst + line * ld_dst + col0 + 8 * lane) =
          *reinterpret_cast<const uint4*>(&bounce[warp][8 * lane]);
    __syncwarp();
  }
}

uint32_t alignment_of(const void* p) {
  const uint64_t a = reinterpret_cast<uint64_t>(p);
  if (a == 0) return 256;
  const uint64_t low = a & (~a + 1);
  return static_cast<uint32_t>(std::min<uint64_t>(low, 256));
}

std::size_t round_up(std::size_t x, std::size_t m) { return (x + m - 1) / m * m; }

bool breaks_tma_rule(const MatrixDesc& m, StoredExtent e) {
  if (dtype_bytes(m.dtype) != 2) return false;
  return check_tma_operand("X", m.dtype, m.pointer_alignment, effective_ld(m, e)).code() == StatusCode::misaligned;
}

int64_t line_length(const MatrixDesc& m, StoredExtent e) { return m.layout == Layout::row ? e.cols : e.rows; }
int64_t line_count(const MatrixDesc& m, StoredExtent e) { return m.layout == Layout::row ? e.rows : e.cols; }

}  // namespace

Status repack_16bit(const void* src, int64_t lines, int64_t line_length, int64_t ld_src, void* dst,
                    int64_t ld_dst, cudaStream_t stream) {
  if (src == nullptr || dst == nullptr || lines < 1 || line_length < 1 || ld_src < line_length ||
      ld_dst < line_length || ld_dst % 8 != 0 || reinterpret_cast<uintptr_t>(dst) % 16 != 0 ||
      reinterpret_cast<uintptr_t>(src) % 2 != 0)
    return Status(StatusCode::internal, "repack_16bit: bad arguments (ld_dst " + std::to_string(ld_dst) +
                                            " must be a multiple of 8 >= the line length " +
                                            std::to_string(line_length) + ", dst 16-byte aligned)");
  const int64_t segments = (ld_dst + kSegment - 1) / kSegment;
  const int64_t blocks = std::min<int64_t>((lines * segments + kWarps - 1) / kWarps, int64_t{132} * 32);
  repack_16bit_kernel<<<static_cast<unsigned>(blocks), 32 * kWarps, 0, stream>>>(
      static_cast<const uint16_t*>(src), lines, line_length, ld_src, static_cast<uint16_t*>(dst), ld_dst);
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess)
    return Status(StatusCode::cuda_error, std::string("repack launch failed: ") + cudaGetErrorString(err));
  return Status::success();
}

TmaRepackPlan plan_tma_repack(const GemmDesc& g) {
  TmaRepackPlan p;
  const StoredExtent ea = extent_a(g), eb = extent_b(g);
  p.lda = effective_ld(g.a, ea);
  p.ldb = effective_ld(g.b, eb);
  std::size_t offset = 0;
  if (breaks_tma_rule(g.a, ea)) {
    p.a = true;
    p.lda = static_cast<int64_t>(round_up(static_cast<std::size_t>(line_length(g.a, ea)), 8));
    p.a_offset = offset;
    offset += round_up(static_cast<std::size_t>(line_count(g.a, ea)) * static_cast<std::size_t>(p.lda) * 2, 256);
  }
  if (breaks_tma_rule(g.b, eb)) {
    p.b = true;
    p.ldb = static_cast<int64_t>(round_up(static_cast<std::size_t>(line_length(g.b, eb)), 8));
    p.b_offset = offset;
    offset += round_up(static_cast<std::size_t>(line_count(g.b, eb)) * static_cast<std::size_t>(p.ldb) * 2, 256);
  }
  p.workspace_bytes = offset;
  return p;
}

GemmDesc repacked_desc(const GemmDesc& g, const TmaRepackPlan& plan) {
  GemmDesc r = g;
  if (plan.a) {
    r.a.ld = plan.lda;
    r.a.pointer_alignment = 256;
  }
  if (plan.b) {
    r.b.ld = plan.ldb;
    r.b.pointer_alignment = 256;
  }
  return r;
}

Result<GemmArgs> apply_tma_repack(const GemmArgs& args) {
  GemmDesc seen = args.desc;
  seen.a.pointer_alignment = std::min(seen.a.pointer_alignment, alignment_of(args.a));
  seen.b.pointer_alignment = std::min(seen.b.pointer_alignment, alignment_of(args.b));
  const TmaRepackPlan plan = plan_tma_repack(seen);
  if (plan.workspace_bytes > 0 &&
      (args.workspace == nullptr || args.workspace_bytes < plan.workspace_bytes))
    return Status(StatusCode::workspace_too_small,
                  "the TMA repack of " + std::string(plan.a && plan.b ? "A and B" : plan.a ? "A" : "B") + " needs " +
                      std::to_string(plan.workspace_bytes) + " bytes of workspace; got " +
                      std::to_string(args.workspace_bytes));
  if (plan.workspace_bytes > 0 && reinterpret_cast<uintptr_t>(args.workspace) % 256 != 0)
    return Status(StatusCode::misaligned, "the TMA repack workspace must be 256-byte aligned");
  GemmArgs out = args;
  out.desc = repacked_desc(seen, plan);
  char* ws = static_cast<char*>(args.workspace);
  const GemmDesc& g = seen;
  if (plan.a) {
    const StoredExtent e = extent_a(g);
    if (Status s = repack_16bit(args.a, line_count(g.a, e), line_length(g.a, e), effective_ld(g.a, e),
                                ws + plan.a_offset, plan.lda, args.stream);
        !s.ok())
      return s;
    out.a = ws + plan.a_offset;
  }
  if (plan.b) {
    const StoredExtent e = extent_b(g);
    if (Status s = repack_16bit(args.b, line_count(g.b, e), line_length(g.b, e), effective_ld(g.b, e),
                                ws + plan.b_offset, plan.ldb, args.stream);
        !s.ok())
      return s;
    out.b = ws + plan.b_offset;
  }
  return out;
}

}  // namespace tcgemm
