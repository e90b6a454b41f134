// The copy of repack.cu with the edge strips on the side (repack_strips.hpp), on the copy's own
// mapping: block (x, y) copies 512-element segment x of lines [8y, 8y + 8), one warp a line, with
// sixteen coalesced 2-byte loads a lane (any alignment), a shared-memory bounce and two 16-byte
// stores a lane. For lines that feed a strip, the two 8-element chunks a lane stores are dotted in
// f32 with the same columns of each probe line (the other operand's peeled lines, staged per
// segment in shared memory, loaded while the segment's own loads are in flight); each warp leaves
// its line's per-segment sum in the workspace. A second small kernel adds each line's sums over
// the segments in order (bitwise reproducible) and stores D's strip elements.
// The copy is latency-bound (one DRAM round trip a block): versions where a warp or a block
// walked whole lines ran at 52-72 us against the plain copy's 35 at 4097^3, and one where the
// last block of a line group added the sums (a fence and an atomic: two more round trips a
// block) at 56 us (runs 34-37, bench/NOTES.md).
#include "kernels/common/repack_strips.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <string>
#include <type_traits>

#include "kernels/common/launch_attributes.hpp"
#include "kernels/common/pdl.cuh"

namespace tcgemm {
namespace {

constexpr int kWarps = 8;
constexpr int kLoads = 16;
constexpr int kSegment = 32 * kLoads;

struct StripJob {
  const uint16_t* src;
  int64_t lines, line_length, ld_src;
  uint16_t* dst;
  int64_t ld_dst;
  const uint16_t* probe;  // `probes` lines of line_length, ld_probe apart (the other operand's)
  int64_t ld_probe;
  int probes;
  int64_t dot_lines;  // lines [0, dot_lines) are dotted with the probes
  uint16_t* out;      // D element of (line, probe) at out[line * out_line + probe * out_probe]
  int64_t out_line, out_probe;
  float* partial;  // [line][segment][kProbes] sums
};
struct StripJobs {
  StripJob job[2];  // A's lines, B's lines
  float alpha;
  int segments;  // 512-element segments of a copied line (both jobs: the same K)
};

template <bool kBf16>
__device__ __forceinline__ float2 to_float2(uint32_t w) {
  if constexpr (kBf16) return make_float2(__uint_as_float(w << 16), __uint_as_float(w & 0xffff0000u));
  else return __half22float2(*reinterpret_cast<const __half2*>(&w));
}

template <bool kBf16>
__device__ __forceinline__ float dot8(uint4 x, uint4 y, float acc) {
  const uint32_t xs[4] = {x.x, x.y, x.z, x.w}, ys[4] = {y.x, y.y, y.z, y.w};
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const float2 a = to_float2<kBf16>(xs[i]), b = to_float2<kBf16>(ys[i]);
    acc = fmaf(a.x, b.x, acc);
    acc = fmaf(a.y, b.y, acc);
  }
  return acc;
}

template <bool kBf16>
__device__ __forceinline__ uint16_t from_float(float v) {
  if constexpr (kBf16) return __bfloat16_as_ushort(__float2bfloat16_rn(v));
  else return __half_as_ushort(__float2half_rn(v));
}

// grid: (segments, line groups of kWarps, 2 jobs). kProbes: at least the larger job's probe count
// (1, 2, 4 or 8), so that a one-line strip (4097^3) keeps one accumulator, not kMaxStripLines.
template <bool kBf16, int kProbes>
__global__ void __launch_bounds__(32 * kWarps) repack_strips_kernel(const StripJobs jobs) {
  __shared__ alignas(16) uint16_t bounce_all[kWarps][kSegment];
  __shared__ alignas(16) uint16_t probe_seg[kProbes][kSegment];
  dev::pdl_wait();  // PDL-launched: the previous kernel's writes first (common/pdl.cuh)
  dev::pdl_launch_dependents();
  const StripJob j = blockIdx.z == 0 ? jobs.job[0] : jobs.job[1];  // no dynamic index: no local copy
  const int64_t col0 = int64_t{blockIdx.x} * kSegment, line0 = int64_t{blockIdx.y} * kWarps;
  if (col0 >= j.ld_dst || line0 >= j.lines) return;  // block-uniform: before any barrier
  // ld_dst rounds the line length up to 8 and col0 is a multiple of 8: the segment holds >= 1 element.
  const int valid = static_cast<int>(min(j.line_length - col0, static_cast<int64_t>(kSegment)));
  const bool dots = j.probes > 0 && line0 < j.dot_lines;  // block-uniform
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int64_t line = line0 + warp;
  const bool copies = line < j.lines;  // warp-uniform

  // The segment's own loads first, then the probes' (both in flight together: one round trip).
  uint16_t v[kLoads];
  if (copies) {
    const uint16_t* in = j.src + line * j.ld_src + col0;
#pragma unroll
    for (int i = 0; i < kLoads; ++i) v[i] = i * 32 + lane < valid ? __ldg(in + i * 32 + lane) : uint16_t{0};
  }
  if (dots) {  // this segment of the probe lines, zero past the line length
    constexpr int kPer = kProbes * kSegment / (32 * kWarps);
    uint16_t t[kPer];
#pragma unroll
    for (int i = 0; i < kPer; ++i) {
      const int e = i * 32 * kWarps + static_cast<int>(threadIdx.x), p = e / kSegment, c = e % kSegment;
      t[i] = p < j.probes && c < valid ? __ldg(j.probe + p * j.ld_probe + col0 + c) : uint16_t{0};
    }
#pragma unroll
    for (int i = 0; i < kPer; ++i) (&probe_seg[0][0])[i * 32 * kWarps + threadIdx.x] = t[i];
    __syncthreads();
  }
  if (!copies) return;

  uint16_t(&bounce)[kSegment] = bounce_all[warp];
#pragma unroll
  for (int i = 0; i < kLoads; ++i) bounce[i * 32 + lane] = v[i];
  __syncwarp();
  const bool dot = dots && line < j.dot_lines;  // warp-uniform
  float acc[kProbes];
#pragma unroll
  for (int p = 0; p < kProbes; ++p) acc[p] = 0.0f;
  uint16_t* out = j.dst + line * j.ld_dst + col0;
#pragma unroll
  for (int h = 0; h < kSegment / 256; ++h) {
    const int idx = h * 256 + 8 * lane;
    const uint4 x = *reinterpret_cast<const uint4*>(&bounce[idx]);
    if (col0 + idx < j.ld_dst) *reinterpret_cast<uint4*>(out + idx) = x;
    if (dot) {
#pragma unroll
      for (int p = 0; p < kProbes; ++p) acc[p] = dot8<kBf16>(x, *reinterpret_cast<const uint4*>(&probe_seg[p][idx]), acc[p]);
    }
  }
  if (dot) {
    float* slot = j.partial + (line * jobs.segments + blockIdx.x) * kProbes;
#pragma unroll
    for (int p = 0; p < kProbes; ++p) {
      float s = acc[p];
#pragma unroll
      for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
      if (lane == 0) slot[p] = s;
    }
  }
}

// One thread per (line, probe) of each job (grid.y): the line's per-segment sums in order, alpha,
// one 16-bit store.
template <bool kBf16, int kProbes>
__global__ void __launch_bounds__(256) strips_finish_kernel(const StripJobs jobs) {
  dev::pdl_wait();
  dev::pdl_launch_dependents();
  const StripJob j = blockIdx.y == 0 ? jobs.job[0] : jobs.job[1];
  const int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const int64_t line = i / kProbes;
  const int p = static_cast<int>(i % kProbes);
  if (p >= j.probes || line >= min(j.lines, j.dot_lines)) return;
  const float* sums = j.partial + line * jobs.segments * kProbes + p;
  float s = 0.0f;
  for (int x = 0; x < jobs.segments; ++x) s += __ldg(sums + x * kProbes);
  j.out[line * j.out_line + p * j.out_probe] = from_float<kBf16>(jobs.alpha * s);
}

std::size_t round_up(std::size_t x, std::size_t m) { return (x + m - 1) / m * m; }

// Launches the instance of a kernel template picked by the element type and the rounded probe
// count: make(bf16 tag, probes tag) returns the kernel.
template <class Make>
cudaError_t launch_instance(cudaLaunchConfig_t cfg, bool bf16, int probes, const StripJobs& jobs, Make make) {
  auto with = [&](auto bf) {
    switch (probes) {
      case 1: return cudaLaunchKernelEx(&cfg, make(bf, std::integral_constant<int, 1>{}), jobs);
      case 2: return cudaLaunchKernelEx(&cfg, make(bf, std::integral_constant<int, 2>{}), jobs);
      case 4: return cudaLaunchKernelEx(&cfg, make(bf, std::integral_constant<int, 4>{}), jobs);
      default: return cudaLaunchKernelEx(&cfg, make(bf, std::integral_constant<int, 8>{}), jobs);
    }
  };
  return bf16 ? with(std::true_type{}) : with(std::false_type{});
}

bool is_16bit_float(DType t) { return t == DType::bf16 || t == DType::f16; }

int64_t segments_of(int64_t k) { return (static_cast<int64_t>(round_up(static_cast<std::size_t>(k), 8)) + kSegment - 1) / kSegment; }

int probes_rounded(const StripPeelPlan& p) {
  const int64_t most = std::max(p.rows, p.cols);
  return most <= 1 ? 1 : most <= 2 ? 2 : most <= 4 ? 4 : 8;
}

// The per-segment sums of the lines that feed a strip: A's m_core rows when columns are peeled,
// B's N columns when rows are.
struct StripsLayout {
  std::size_t partial_a = 0, partial_b = 0, total = 0;  // offsets from the workspace's base
};
StripsLayout strips_layout(const GemmDesc& g, const StripPeelPlan& p, std::size_t copies) {
  StripsLayout l;
  const std::size_t per_line = static_cast<std::size_t>(segments_of(g.k)) * probes_rounded(p) * sizeof(float);
  l.partial_a = round_up(copies, 256);
  l.partial_b = l.partial_a + round_up((p.cols > 0 ? static_cast<std::size_t>(p.m_core) : 0) * per_line, 256);
  l.total = l.partial_b + round_up((p.rows > 0 ? static_cast<std::size_t>(g.n) : 0) * per_line, 256);
  return l;
}

Status contract(const GemmDesc& g) {
  if (g.a.layout != Layout::row || g.b.layout != Layout::column || g.d.layout != Layout::row)
    return Status::unsupported("strips in the copy need K-major A and B (A row-major, B column-major) and a row-major D");
  if (!is_16bit_float(g.a.dtype) || g.b.dtype != g.a.dtype || g.d.dtype != g.a.dtype)
    return Status::unsupported("strips in the copy need A, B and D of one 16-bit type (bf16 or f16)");
  if (g.beta != 0.0f) return Status::unsupported("strips in the copy do not read C (beta must be 0)");
  if (!breaks_tma_rule(g.a, extent_a(g)) || !breaks_tma_rule(g.b, extent_b(g)))
    return Status::unsupported("strips ride on the copies of both A and B; here one of them meets TMA's rule and is not copied");
  return Status::success();
}

}  // namespace

StripPeelPlan plan_strip_peel(const GemmDesc& g, int64_t tile_m, int64_t tile_n, std::string* why) {
  StripPeelPlan p;
  auto refuse = [&](const std::string& reason) {
    if (why != nullptr) *why = reason;
    return StripPeelPlan{};
  };
  if (tile_m < 1 || tile_n < 1) return refuse("no tile");
  if (Status s = contract(g); !s.ok()) return refuse(s.message());
  if (g.m < 1 || g.n < 1 || g.k < 1) return refuse("m, n and k must be at least 1");
  // A strip wider than kMaxStripLines stays in the core's partial tile; so does one that would
  // leave no full tile beside it.
  p.rows = thin_edge_lines(g.m, tile_m);
  p.cols = thin_edge_lines(g.n, tile_n);
  if (!p.any())
    return refuse("D's partial tile row (" + std::to_string(g.m % tile_m) + " rows) and column (" +
                  std::to_string(g.n % tile_n) + " columns) are none or wider than " + std::to_string(kMaxStripLines));
  if ((std::max(g.m, g.n) + kWarps - 1) / kWarps > 65535)
    return refuse("more than 524280 lines: the copy's grid holds 65535 groups of 8");
  p.m_core = g.m - p.rows;
  p.n_core = g.n - p.cols;
  const StripsLayout l = strips_layout(g, p, 0);
  if (l.total > kMaxStripWorkspaceBytes)
    return refuse("K = " + std::to_string(g.k) + " makes the strips' per-segment sums " + std::to_string(l.total >> 20) +
                  " MiB, over " + std::to_string(kMaxStripWorkspaceBytes >> 20));
  return p;
}

std::size_t strips_workspace_bytes(const GemmDesc& g, const StripPeelPlan& peel) {
  return strips_layout(g, peel, plan_tma_repack(g).workspace_bytes).total;
}

GemmDesc strip_core_desc(const GemmDesc& g, const TmaRepackPlan& copies, const StripPeelPlan& peel) {
  GemmDesc r = repacked_desc(g, copies);
  r.m = peel.m_core;
  r.n = peel.n_core;
  // The core's D and C are windows of the originals: their ld's stay those of the whole problem.
  r.c.ld = effective_ld(g.c, extent_c(g));
  r.d.ld = effective_ld(g.d, extent_c(g));
  return r;
}

Result<GemmArgs> apply_repack_with_strips(const GemmArgs& args, const StripPeelPlan& peel, std::size_t* used_bytes) {
  GemmDesc seen = args.desc;
  seen.a.pointer_alignment = std::min(seen.a.pointer_alignment, address_alignment(args.a));
  seen.b.pointer_alignment = std::min(seen.b.pointer_alignment, address_alignment(args.b));
  if (Status s = contract(seen); !s.ok()) return s;
  if (args.a == nullptr || args.b == nullptr || args.d == nullptr) return Status::invalid("A, B and D must be non-null");
  const GemmDesc& g = seen;
  if (peel.rows < 0 || peel.cols < 0 || peel.rows > kMaxStripLines || peel.cols > kMaxStripLines ||
      peel.m_core != g.m - peel.rows || peel.n_core != g.n - peel.cols || peel.m_core < 1 || peel.n_core < 1)
    return Status(StatusCode::internal, "repack strips: the peel plan does not fit the problem");
  const TmaRepackPlan plan = plan_tma_repack(g);
  const StripsLayout layout = strips_layout(g, peel, plan.workspace_bytes);
  if (args.workspace == nullptr || args.workspace_bytes < layout.total)
    return Status(StatusCode::workspace_too_small, "the TMA repack of A and B with strips needs " +
                                                       std::to_string(layout.total) + " bytes of workspace; got " +
                                                       std::to_string(args.workspace_bytes));
  if (reinterpret_cast<uintptr_t>(args.workspace) % 256 != 0)
    return Status(StatusCode::misaligned, "the TMA repack workspace must be 256-byte aligned");
  if (reinterpret_cast<uintptr_t>(args.d) % 2 != 0) return Status(StatusCode::misaligned, "D must be 2-byte aligned");
  if ((std::max(g.m, g.n) + kWarps - 1) / kWarps > 65535)
    return Status(StatusCode::internal, "repack strips: more than 65535 line groups");

  const int64_t lda = effective_ld(g.a, extent_a(g)), ldb = effective_ld(g.b, extent_b(g));
  const int64_t ldd = effective_ld(g.d, extent_c(g));
  char* ws = static_cast<char*>(args.workspace);
  const auto* a = static_cast<const uint16_t*>(args.a);
  const auto* b = static_cast<const uint16_t*>(args.b);
  auto* d = static_cast<uint16_t*>(args.d);
  StripJobs jobs{};
  // A's rows: copied; rows of the core dotted with B's peeled columns -> D[i, n_core + p].
  const int64_t groups = (std::max(g.m, g.n) + kWarps - 1) / kWarps;
  jobs.job[0] = StripJob{a, g.m, g.k, lda, reinterpret_cast<uint16_t*>(ws + plan.a_offset), plan.lda,
                         b + peel.n_core * ldb, ldb, static_cast<int>(peel.cols), peel.m_core,
                         d + peel.n_core, ldd, 1, reinterpret_cast<float*>(ws + layout.partial_a)};
  // B's columns: copied; every one dotted with A's peeled rows -> D[m_core + q, j] (corner included).
  jobs.job[1] = StripJob{b, g.n, g.k, ldb, reinterpret_cast<uint16_t*>(ws + plan.b_offset), plan.ldb,
                         a + peel.m_core * lda, lda, static_cast<int>(peel.rows), g.n,
                         d + peel.m_core * ldd, 1, ldd, reinterpret_cast<float*>(ws + layout.partial_b)};
  jobs.alpha = g.alpha;
  jobs.segments = static_cast<int>(segments_of(g.k));

  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(static_cast<unsigned>(jobs.segments), static_cast<unsigned>(groups), 2);
  cfg.blockDim = dim3(32 * kWarps);
  cfg.stream = args.stream;
  cudaLaunchAttribute attr = pdl_attribute();
  cfg.attrs = &attr;
  cfg.numAttrs = device_has_pdl() ? 1 : 0;
  const int most = probes_rounded(peel);
  const bool bf = g.a.dtype == DType::bf16;
  cudaError_t err = launch_instance(cfg, bf, most, jobs, [](auto b, auto p) {
    return repack_strips_kernel<decltype(b)::value, decltype(p)::value>;
  });
  if (err == cudaSuccess) err = cudaGetLastError();
  if (err == cudaSuccess) {  // the strips' sums: one thread per (line, probe) of the longer job
    cfg.gridDim = dim3(static_cast<unsigned>((std::max(g.m, g.n) * most + 255) / 256), 2);
    cfg.blockDim = dim3(256);
    err = launch_instance(cfg, bf, most, jobs, [](auto b, auto p) {
      return strips_finish_kernel<decltype(b)::value, decltype(p)::value>;
    });
    if (err == cudaSuccess) err = cudaGetLastError();
  }
  if (err != cudaSuccess)
    return Status(StatusCode::cuda_error, std::string("repack strips launch failed: ") + cudaGetErrorString(err));

  if (used_bytes != nullptr) *used_bytes = layout.total;
  GemmArgs core = args;
  core.desc = strip_core_desc(g, plan, peel);
  core.a = ws + plan.a_offset;
  core.b = ws + plan.b_offset;
  return core;
}

}  // namespace tcgemm
