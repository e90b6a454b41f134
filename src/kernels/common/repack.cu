// One warp copies 512 elements (a 1 KB segment) of one line per step. Inside the source matrix it
// loads the 65 aligned 16-byte chunks that cover the segment (two a lane, one more by lane 0), takes
// each output chunk from its own chunk and the next lane's by shuffle, and shifts the pair into place
// with 32-bit funnel shifts (the shift, the line's start mod 16 bytes, is one per warp step); then
// two 16-byte stores a lane. At the matrix's first and last bytes, where an aligned chunk would
// reach outside it, and at a line's tail, sixteen lane-contiguous 2-byte loads a lane (always
// legal, each a coalesced 64-byte request) go through a shared-memory bounce instead. Each warp
// keeps one segment column and strides over lines, so the loop has no 64-bit division.
// NOTES: session 14, call 5: 1024x1024x8193's 67 MB (read + write) in 18.9 us, 3.6 TB/s; at
// 333x777x4099 (18.3 MB) 6.2 us, where the 2-byte loads everywhere took 6.3-6.5 (run 51): level
// there, where the launch and ramp dominate. The old loads' time at the large copies was not taken.
#include "kernels/common/repack.hpp"

#include <algorithm>
#include <string>

#include "kernels/common/chunk_shift.cuh"
#include "kernels/common/launch_attributes.hpp"
#include "kernels/common/pdl.cuh"
#include "kernels/common/tensor_map.hpp"

namespace tcgemm {
namespace {

constexpr int kWarps = 8;        // lines per block step
constexpr int kLoads = 16;       // per lane per step
constexpr int kSegment = 32 * kLoads;  // elements per warp step

// A whole 512-element segment from its aligned 16-byte chunks (all inside the source matrix).
__device__ __forceinline__ void copy_segment_aligned(const uint16_t* in, uint16_t* out, int lane) {
  const uintptr_t at = reinterpret_cast<uintptr_t>(in);
  const uint4* chunks = reinterpret_cast<const uint4*>(at & ~uintptr_t{15});
  const int x = static_cast<int>(at & 15) / 2;  // warp-uniform
  const uint4 c0 = __ldg(chunks + lane), c1 = __ldg(chunks + 32 + lane);
  const uint4 extra = lane == 0 && x != 0 ? __ldg(chunks + 64) : make_uint4(0, 0, 0, 0);
  uint4 out0, out1;
  dev::shift_segment(c0, c1, extra, x, lane, out0, out1);
  reinterpret_cast<uint4*>(out)[lane] = out0;
  reinterpret_cast<uint4*>(out)[32 + lane] = out1;
}

// One segment column, lines group*8 + warp, striding by groups*8. kFull: the whole segment lies
// inside the line (the common case), so the loads need no predicate. [begin, end): the source
// matrix's bytes, which no aligned chunk may leave.
template <bool kFull>
__device__ __forceinline__ void copy_segment(const uint16_t* __restrict__ src, int64_t lines, int64_t ld_src,
                                             uint16_t* __restrict__ dst, int64_t ld_dst, int64_t col0, int valid,
                                             int64_t group, int64_t groups, uint16_t (&bounce)[kSegment],
                                             uintptr_t begin, uintptr_t end) {
  const int lane = threadIdx.x % 32;
  const int stores = static_cast<int>(min(static_cast<int64_t>(kSegment), ld_dst - col0));  // a multiple of 8
  for (int64_t line = group * kWarps + threadIdx.x / 32; line < lines; line += groups * kWarps) {
    if constexpr (kFull) {
      const uintptr_t first = (reinterpret_cast<uintptr_t>(src + line * ld_src + col0)) & ~uintptr_t{15};
      if (first >= begin && first + 65 * 16 <= end) {
        copy_segment_aligned(src + line * ld_src + col0, dst + line * ld_dst + col0, lane);
        continue;
      }
    }
    const uint16_t* in = src + line * ld_src + col0 + lane;
    uint16_t v[kLoads];
#pragma unroll
    for (int i = 0; i < kLoads; ++i) v[i] = kFull || i * 32 + lane < valid ? __ldg(in + i * 32) : uint16_t{0};
#pragma unroll
    for (int i = 0; i < kLoads; ++i) bounce[i * 32 + lane] = v[i];
    __syncwarp();
    uint16_t* out = dst + line * ld_dst + col0;
#pragma unroll
    for (int h = 0; h < kSegment / 256; ++h)
      if (kFull || h * 256 + 8 * lane < stores)
        *reinterpret_cast<uint4*>(out + h * 256 + 8 * lane) = *reinterpret_cast<const uint4*>(&bounce[h * 256 + 8 * lane]);
    __syncwarp();
  }
}

// One line-by-line copy into an aligned, padded destination (ld_dst a multiple of 8).
struct RepackCopy {
  const uint16_t* src;
  int64_t lines, line_length, ld_src;
  uint16_t* dst;
  int64_t ld_dst;
};
struct RepackCopies {
  RepackCopy copy[2];  // A and B in one launch: one launch less on the timeline of a small GEMM
  // Each copy's blocks: segment columns of 512 elements (ld_dst / 512, rounded up) x groups of 8
  // lines (at most 65535; a group strides over the lines past that). Copy 0 takes blocks
  // [0, blocks0), copy 1 the rest.
  int64_t groups[2];
  int64_t blocks0;
};

// A 1-D grid over both copies' own blocks. NOTES: the grid was the larger copy's segments x the
// larger copy's line groups for both, so a copy of many short lines beside one of few long lines
// (68x176x7300, A column-major: 7300 lines of 68 against 176 of 7300) launched 27,390 blocks for
// 1,243 that work: the copies cost ~33 us there (run 69), ~4.5 us on this grid (run 70).
__global__ void __launch_bounds__(32 * kWarps) repack_16bit_kernel(const RepackCopies jobs) {
  __shared__ alignas(16) uint16_t bounce[kWarps][kSegment];
  dev::pdl_wait();  // PDL-launched: the previous kernel's writes first (common/pdl.cuh)
  dev::pdl_launch_dependents();
  const int64_t block = blockIdx.x;
  const bool first = block < jobs.blocks0;
  const RepackCopy j = first ? jobs.copy[0] : jobs.copy[1];  // no dynamic index: no local copy
  const int64_t groups = first ? jobs.groups[0] : jobs.groups[1];
  const int64_t local = first ? block : block - jobs.blocks0;
  const int64_t group = local % groups;
  const int64_t col0 = local / groups * kSegment;
  if (col0 >= j.ld_dst) return;
  // Elements of this segment inside the line: <= 0 in a segment of pad columns only.
  const int valid = static_cast<int>(max(min(j.line_length - col0, static_cast<int64_t>(kSegment)), int64_t{-1}));
  const uintptr_t begin = reinterpret_cast<uintptr_t>(j.src);
  const uintptr_t end = reinterpret_cast<uintptr_t>(j.src + (j.lines - 1) * j.ld_src + j.line_length);
  if (valid == kSegment && j.ld_dst - col0 >= kSegment)
    copy_segment<true>(j.src, j.lines, j.ld_src, j.dst, j.ld_dst, col0, valid, group, groups, bounce[threadIdx.x / 32],
                       begin, end);
  else
    copy_segment<false>(j.src, j.lines, j.ld_src, j.dst, j.ld_dst, col0, valid, group, groups,
                        bounce[threadIdx.x / 32], begin, end);
}

std::size_t round_up(std::size_t x, std::size_t m) { return (x + m - 1) / m * m; }


int64_t line_length(const MatrixDesc& m, StoredExtent e) { return m.layout == Layout::row ? e.cols : e.rows; }
int64_t line_count(const MatrixDesc& m, StoredExtent e) { return m.layout == Layout::row ? e.rows : e.cols; }

}  // namespace

bool breaks_tma_rule(const MatrixDesc& m, StoredExtent e) {
  if (dtype_bytes(m.dtype) != 2) return false;
  return check_tma_operand("X", m.dtype, m.pointer_alignment, effective_ld(m, e)).code() == StatusCode::misaligned;
}

namespace {

// 32 * kWarps threads, no dynamic shared memory, programmatic stream serialization where the
// device has it.
template <typename... Params, typename... Args>
cudaError_t launch_pdl(void (*kernel)(Params...), dim3 grid, cudaStream_t stream, Args... args) {
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = grid;
  cfg.blockDim = dim3(32 * kWarps);
  cfg.stream = stream;
  cudaLaunchAttribute attr = pdl_attribute();
  cfg.attrs = &attr;
  cfg.numAttrs = device_has_pdl() ? 1 : 0;
  return cudaLaunchKernelEx(&cfg, kernel, static_cast<Params>(args)...);
}

Status check_copy(const RepackCopy& c) {
  if (c.src == nullptr || c.dst == nullptr || c.lines < 1 || c.line_length < 1 || c.ld_src < c.line_length ||
      c.ld_dst < c.line_length || c.ld_dst % 8 != 0 || reinterpret_cast<uintptr_t>(c.dst) % 16 != 0 ||
      reinterpret_cast<uintptr_t>(c.src) % 2 != 0)
    return Status(StatusCode::internal, "repack_16bit: bad arguments (ld_dst " + std::to_string(c.ld_dst) +
                                            " must be a multiple of 8 >= the line length " +
                                            std::to_string(c.line_length) + ", dst 16-byte aligned)");
  if ((c.ld_dst + kSegment - 1) / kSegment > 0x7fffffff)
    return Status::unsupported("repack_16bit: lines longer than 2^40 elements");
  return Status::success();
}

// count copies (1 or 2) in one launch.
Status launch_copies(RepackCopies jobs, int count, cudaStream_t stream) {
  int64_t blocks = 0;
  for (int i = 0; i < count; ++i) {
    if (Status s = check_copy(jobs.copy[i]); !s.ok()) return s;
    const int64_t segments = (jobs.copy[i].ld_dst + kSegment - 1) / kSegment;
    jobs.groups[i] = std::min<int64_t>((jobs.copy[i].lines + kWarps - 1) / kWarps, 65535);
    blocks += segments * jobs.groups[i];
    if (i == 0) jobs.blocks0 = blocks;
  }
  if (blocks > 0x7fffffff) return Status::unsupported("repack_16bit: more than 2^31 - 1 blocks of copies");
  cudaError_t err = launch_pdl(repack_16bit_kernel, dim3(static_cast<unsigned>(blocks)), stream, jobs);
  if (err == cudaSuccess) err = cudaGetLastError();
  if (err != cudaSuccess)
    return Status(StatusCode::cuda_error, std::string("repack launch failed: ") + cudaGetErrorString(err));
  return Status::success();
}

}  // namespace

Status repack_16bit(const void* src, int64_t lines, int64_t line_length, int64_t ld_src, void* dst,
                    int64_t ld_dst, cudaStream_t stream) {
  RepackCopies jobs{};
  jobs.copy[0] = RepackCopy{static_cast<const uint16_t*>(src), lines, line_length, ld_src, static_cast<uint16_t*>(dst),
                            ld_dst};
  return launch_copies(jobs, 1, stream);
}

// NOTES: the copies' ld is the line rounded up to 64 elements (128 bytes), not 8: a pitch of 16
// bytes past a multiple of 128 slowed the TMA kernels reading the copies by 23-64% (session 14,
// call 6, gemm() on aligned operands at each ld: 1024x1024x8192 36.6 us at ld 8192, 60.0 at 8200,
// 38.1 at 8208, 36.6 at 8256; 768x768x8192 25.4 / 38.8 (8200) / 25.7 (8256); 2048x512x16384 65.2 /
// 89.4 (16392) / 64.9 (16448); 333x777x4099 22.2 at 4104, 17.7 at 4160), so 1024x1024x8193's GEMM
// on its copies ran 57 us, not 36.
constexpr std::size_t kCopyPitchElements = 64;

TmaRepackPlan plan_tma_repack(const GemmDesc& g) {
  TmaRepackPlan p;
  const StoredExtent ea = extent_a(g), eb = extent_b(g);
  p.lda = effective_ld(g.a, ea);
  p.ldb = effective_ld(g.b, eb);
  std::size_t offset = 0;
  if (breaks_tma_rule(g.a, ea)) {
    p.a = true;
    p.lda = static_cast<int64_t>(round_up(static_cast<std::size_t>(line_length(g.a, ea)), kCopyPitchElements));
    p.a_offset = offset;
    offset += round_up(static_cast<std::size_t>(line_count(g.a, ea)) * static_cast<std::size_t>(p.lda) * 2, 256);
  }
  if (breaks_tma_rule(g.b, eb)) {
    p.b = true;
    p.ldb = static_cast<int64_t>(round_up(static_cast<std::size_t>(line_length(g.b, eb)), kCopyPitchElements));
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

Result<GemmArgs> apply_tma_repack(const GemmArgs& args, std::size_t* used_bytes) {
  return apply_tma_repack(args, used_bytes, nullptr);
}

Result<GemmArgs> apply_tma_repack(const GemmArgs& args, std::size_t* used_bytes, DeferredCopies* deferred) {
  GemmDesc seen = args.desc;
  seen.a.pointer_alignment = std::min(seen.a.pointer_alignment, address_alignment(args.a));
  seen.b.pointer_alignment = std::min(seen.b.pointer_alignment, address_alignment(args.b));
  const TmaRepackPlan plan = plan_tma_repack(seen);
  if (plan.workspace_bytes > 0 &&
      (args.workspace == nullptr || args.workspace_bytes < plan.workspace_bytes))
    return Status(StatusCode::workspace_too_small,
                  "the TMA repack of " + std::string(plan.a && plan.b ? "A and B" : plan.a ? "A" : "B") + " needs " +
                      std::to_string(plan.workspace_bytes) + " bytes of workspace; got " +
                      std::to_string(args.workspace_bytes));
  if (plan.workspace_bytes > 0 && reinterpret_cast<uintptr_t>(args.workspace) % 256 != 0)
    return Status(StatusCode::misaligned, "the TMA repack workspace must be 256-byte aligned");
  if (used_bytes != nullptr) *used_bytes = plan.workspace_bytes;
  GemmArgs out = args;
  out.desc = repacked_desc(seen, plan);
  char* ws = static_cast<char*>(args.workspace);
  const GemmDesc& g = seen;
  RepackCopies jobs{};
  int count = 0;
  if (plan.a) {
    const StoredExtent e = extent_a(g);
    jobs.copy[count++] = RepackCopy{static_cast<const uint16_t*>(args.a), line_count(g.a, e), line_length(g.a, e),
                                    effective_ld(g.a, e), reinterpret_cast<uint16_t*>(ws + plan.a_offset), plan.lda};
    out.a = ws + plan.a_offset;
  }
  if (plan.b) {
    const StoredExtent e = extent_b(g);
    jobs.copy[count++] = RepackCopy{static_cast<const uint16_t*>(args.b), line_count(g.b, e), line_length(g.b, e),
                                    effective_ld(g.b, e), reinterpret_cast<uint16_t*>(ws + plan.b_offset), plan.ldb};
    out.b = ws + plan.b_offset;
  }
  if (deferred != nullptr) {
    deferred->count = count;
    for (int i = 0; i < count; ++i) {
      const RepackCopy& c = jobs.copy[i];
      if (Status s = check_copy(c); !s.ok()) return s;
      deferred->job[i] = RepackJob{c.src, c.lines, c.line_length, c.ld_src, c.dst, c.ld_dst};
    }
    return out;
  }
  if (count > 0)
    if (Status s = launch_copies(jobs, count, args.stream); !s.ok()) return s;
  return out;
}

Status launch_deferred_copies(const DeferredCopies& copies, cudaStream_t stream) {
  if (copies.count < 0 || copies.count > 2) return Status(StatusCode::internal, "repack: 0-2 deferred copies");
  if (copies.count == 0) return Status::success();
  RepackCopies jobs{};
  for (int i = 0; i < copies.count; ++i) {
    const RepackJob& j = copies.job[i];
    jobs.copy[i] = RepackCopy{static_cast<const uint16_t*>(j.src), j.lines, j.line_length, j.ld_src,
                              static_cast<uint16_t*>(j.dst), j.ld_dst};
  }
  return launch_copies(jobs, copies.count, stream);
}

}  // namespace tcgemm
