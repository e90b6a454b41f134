#include "kernels/sm90/ingest_probe.hpp"

#include <cuda_bf16.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <memory>

#include "kernels/common/cta_trace.cuh"
#include "kernels/common/mbarrier.cuh"
#include "kernels/common/stage_ring.cuh"
#include "kernels/common/tensor_map.hpp"
#include "kernels/common/tma.cuh"
#include "kernels/common/wgmma.cuh"
#include "runtime/cuda_checks.hpp"

namespace tcgemm {
namespace {

constexpr int kTileK = 64;            // one 128-byte swizzle row of bf16 a box row, as the ws kernel
constexpr int kRowBytes = kTileK * 2;
constexpr int kSmemLimit = 227 * 1024;

// Per CTA: [0] cycles from the timed span's first stage's arrival to the last's, [1] the same in
// globaltimer ns, [2] the k-blocks the span covers (arrivals - 1).
constexpr int kOutWords = 3;

// wgmma.wait_group takes an immediate.
__device__ __forceinline__ void wait_groups(int n) {
  switch (n) {
    case 1: dev::wgmma_wait_group<1>(); break;
    case 2: dev::wgmma_wait_group<2>(); break;
    case 3: dev::wgmma_wait_group<3>(); break;
    case 4: dev::wgmma_wait_group<4>(); break;
    default: dev::wgmma_wait_group<6>(); break;
  }
}

// kKWays consumer warpgroups a 64 rows of the tile, taking its stages in turn (way w: stages w,
// w + kKWays, ...), each with its own accumulators: K split inside the CTA.
template <int kTileM, int kTileN, int kKWays>
__global__ void __launch_bounds__(128 * (1 + kTileM / 64 * kKWays), 1)
    ingest_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b, int k_blocks,
                  int stages, int stage_k_blocks, bool chunked, int mma_depth, int mode, uint64_t* out, float* sink) {
  constexpr uint32_t kABytes = kTileM * kRowBytes, kBBytes = kTileN * kRowBytes;  // one k-block's box each
  extern __shared__ uint8_t smem_raw[];
  const uint32_t base = (dev::smem_addr(smem_raw) + 1023u) & ~1023u;
  const dev::StageRing ring(base, stages, stage_k_blocks * kABytes, stage_k_blocks * kBBytes, 0);
  const int stage_count = k_blocks / stage_k_blocks;
  const int warpgroup = threadIdx.x / 128;
  const bool loads = mode != static_cast<int>(IngestMode::mma);
  const bool mmas = mode != static_cast<int>(IngestMode::tma);
  if (threadIdx.x == 0) {
    ring.init(stages, 4 * (kTileM / 64));
    if (loads) {
      dev::tma_prefetch_descriptor(&map_a);
      dev::tma_prefetch_descriptor(&map_b);
    }
  }
  __syncthreads();
  const int32_t m0 = blockIdx.x * kTileM, n0 = blockIdx.y * kTileN, kb0 = blockIdx.z * k_blocks;

  if (warpgroup == 0) {
    if (threadIdx.x != 0) return;
    int s = 0;
    uint32_t round = 0;
    for (int st = 0; st < stage_count; ++st) {
      if (round > 0) dev::mbarrier_wait(ring.empty(s), (round - 1) & 1);
      // MMAs alone: the first round loads each stage once, so the Tensor Cores read real numbers;
      // later rounds reuse them and the stage is only marked full.
      if (loads || round == 0) {
        const int32_t kb = kb0 + st * stage_k_blocks;
        dev::mbarrier_arrive_expect_tx(ring.full(s), stage_k_blocks * (kABytes + kBBytes));
        if (chunked) {  // a stage's k-blocks in one box an operand
          dev::tma_load_3d(ring.a(s), &map_a, ring.full(s), 0, m0, kb);
          dev::tma_load_3d(ring.b(s), &map_b, ring.full(s), 0, n0, kb);
        } else {
          for (int j = 0; j < stage_k_blocks; ++j) {
            dev::tma_load_2d(ring.a(s) + j * kABytes, &map_a, ring.full(s), (kb + j) * kTileK, m0);
            dev::tma_load_2d(ring.b(s) + j * kBBytes, &map_b, ring.full(s), (kb + j) * kTileK, n0);
          }
        }
      } else {
        dev::mbarrier_arrive(ring.full(s));
      }
      if (++s == stages) {
        s = 0;
        ++round;
      }
    }
    return;
  }

  using Mma = dev::Wgmma<kTileN, dev::WgmmaInput::bf16, 0, 0>;
  float acc[Mma::kAccumulators];
#pragma unroll
  for (int i = 0; i < Mma::kAccumulators; ++i) acc[i] = 0.0f;
  constexpr int kRowBlocks = kTileM / 64;
  const int way = (warpgroup - 1) / kRowBlocks;
  const uint32_t a_offset = (warpgroup - 1) % kRowBlocks * 64 * kRowBytes;
  const bool lead = threadIdx.x % 32 == 0;
  uint64_t c_first = 0, t_first = 0, c_last = 0, t_last = 0;
  // The timed span, in warpgroup 1's own stages (way 0): MMAs alone start past the first round's loads.
  const int t_end = (stage_count - 1) / kKWays * kKWays;
  const int t0 = min(((loads ? 0 : stages) + kKWays - 1) / kKWays * kKWays, t_end - kKWays);
  // Counters, not kt % stages, as the ws kernel: run 274's probe divided here twice a k-block and read
  // twice the GEMM's own cycles a k-block (bench/NOTES.md, session 49).
  int s = way, rs = way, own = 0;  // this way's next stage; the stage it releases next
  uint32_t phase = 0;
  for (int kt = way; kt < stage_count; kt += kKWays, ++own) {
    dev::mbarrier_wait(ring.full(s), phase);
    if (threadIdx.x == 128) {
      if (kt == t0) {
        c_first = clock64();
        t_first = dev::global_ns();
      }
      if (kt == t_end) {
        c_last = clock64();
        t_last = dev::global_ns();
      }
    }
    if (mmas) {
      for (int j = 0; j < stage_k_blocks; ++j) {
        const uint64_t da = dev::make_smem_desc_sw128(ring.a(s) + j * kABytes + a_offset, 16, 1024);
        const uint64_t db = dev::make_smem_desc_sw128(ring.b(s) + j * kBBytes, 16, 1024);
        dev::mma_k_block<Mma, kTileK / 16>(acc, da, db, 32, 32, own > 0 || j > 0);
      }
      // This warpgroup's stage `depth` turns back is done (a group a k-block); later ones stay in flight.
      wait_groups(mma_depth * stage_k_blocks);
      if (own >= mma_depth) {
        if (lead) dev::mbarrier_arrive(ring.empty(rs));
        rs += kKWays;
        if (rs >= stages) rs -= stages;
      }
    } else if (lead) {
      dev::mbarrier_arrive(ring.empty(s));
    }
    s += kKWays;
    if (s >= stages) {
      s -= stages;
      phase ^= 1;
    }
  }
  dev::wgmma_wait_group<0>();
  // The accumulators must look used, or the MMAs' results are dead; the branch is never taken.
  float x = 0;
#pragma unroll
  for (int i = 0; i < Mma::kAccumulators; ++i) x += acc[i];
  if (x == 1.2345e-30f) sink[0] = x;
  if (threadIdx.x == 128) {
    const uint32_t cta = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    out[cta * kOutWords + 0] = c_last - c_first;
    out[cta * kOutWords + 1] = t_last - t_first;
    out[cta * kOutWords + 2] = (t_end - t0) * stage_k_blocks;
  }
}

using Kernel = void (*)(CUtensorMap, CUtensorMap, int, int, int, bool, int, int, uint64_t*, float*);

Kernel pick(int tile_m, int tile_n, int k_ways) {
  if (k_ways == 2) {
    if (tile_m == 64 && tile_n == 64) return ingest_kernel<64, 64, 2>;
    if (tile_m == 128 && tile_n == 64) return ingest_kernel<128, 64, 2>;
    return nullptr;
  }
  if (k_ways != 1) return nullptr;
  if (tile_m == 64 && tile_n == 64) return ingest_kernel<64, 64, 1>;
  if (tile_m == 64 && tile_n == 128) return ingest_kernel<64, 128, 1>;
  if (tile_m == 128 && tile_n == 64) return ingest_kernel<128, 64, 1>;
  if (tile_m == 128 && tile_n == 128) return ingest_kernel<128, 128, 1>;
  if (tile_m == 128 && tile_n == 256) return ingest_kernel<128, 256, 1>;
  return nullptr;
}

__global__ void fill_bf16(__nv_bfloat16* p, int64_t n, uint32_t seed) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
    uint32_t x = static_cast<uint32_t>(i) * 2654435761u + seed;
    x ^= x >> 13;
    p[i] = __float2bfloat16(static_cast<float>(static_cast<int>(x & 255u) - 127) / 128.0f + 1.0f / 512);  // never zero
  }
}


double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

}  // namespace

const char* ingest_mode_name(IngestMode m) {
  switch (m) {
    case IngestMode::tma: return "tma";
    case IngestMode::mma: return "mma";
    case IngestMode::both: return "both";
  }
  return "?";
}

Result<IngestMode> parse_ingest_mode(const std::string& s) {
  if (s == "tma") return IngestMode::tma;
  if (s == "mma") return IngestMode::mma;
  if (s == "both") return IngestMode::both;
  return Status::invalid("ingest mode must be tma, mma or both (got '" + s + "')");
}

int64_t ingest_smem_bytes(const IngestRequest& r) {
  return int64_t(r.stages) * r.stage_k_blocks * (r.tile_m + r.tile_n) * kRowBytes + int64_t(r.stages) * 16 + 1024;
}

std::string check_ingest_request(const IngestRequest& r) {
  if (r.m < 1 || r.n < 1 || r.k < 1) return "m, n and k must be >= 1";
  if (pick(r.tile_m, r.tile_n, 1) == nullptr)
    return "tile " + std::to_string(r.tile_m) + "x" + std::to_string(r.tile_n) +
           " is not one of 64x64, 64x128, 128x64, 128x128, 128x256";
  if (pick(r.tile_m, r.tile_n, r.k_ways) == nullptr)
    return "K ways inside the CTA: 1, or 2 on the 64x64 and 128x64 tiles";
  if (r.splits < 1) return "splits must be >= 1";
  if (r.stages < 2) return "stages must be >= 2";
  if (r.stage_k_blocks != 1 && r.stage_k_blocks != 2) return "k-blocks a stage must be 1 or 2";
  if (r.chunked && r.stage_k_blocks < 2) return "one box a stage (chunked) needs 2 k-blocks a stage";
  if (r.mma_depth < 1 || r.mma_depth > 3 || r.mma_depth * r.k_ways >= r.stages)
    return "MMA depth (stages whose MMAs stay in flight) must be 1..3, and depth x K ways below the stage count";
  if (ingest_smem_bytes(r) > kSmemLimit)
    return std::to_string(r.stages) + " stages of " + std::to_string(r.stage_k_blocks) + " k-block(s) of " +
           std::to_string(r.tile_m) + "x" + std::to_string(r.tile_n) + " need " + std::to_string(ingest_smem_bytes(r)) + " bytes of shared memory (at most " +
           std::to_string(kSmemLimit) + ")";
  const int64_t per_split = int64_t(kTileK) * r.splits * r.stage_k_blocks;
  if (r.k % per_split != 0 || r.k / per_split < 2 * r.k_ways)
    return "k must be a multiple of 64 x splits x k-blocks a stage, with at least 2 stages' worth a split (2 a K way)";
  if ((r.m + r.tile_m - 1) / r.tile_m > 65535 || (r.n + r.tile_n - 1) / r.tile_n > 65535 || r.splits > 65535)
    return "the grid is past 65535 CTAs in a dimension";
  if (r.iterations < 3) return "iterations must be >= 3";
  return {};
}

Result<IngestPoint> measure_ingest(const IngestRequest& r) {
  if (std::string e = check_ingest_request(r); !e.empty()) return Status::invalid(e);
  if (Status s = require_gpu("the ingest probe"); !s.ok()) return s;
  int dev = 0, major = 0, l2 = 0;
  if (Status s = cuda_check(cudaGetDevice(&dev), "cudaGetDevice"); !s.ok()) return s;
  if (Status s = cuda_check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev), "cc"); !s.ok()) return s;
  if (major != 9) return Status::unsupported("the ingest probe uses TMA and wgmma: it needs an sm_90 GPU");
  if (Status s = cuda_check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev), "L2 size"); !s.ok()) return s;

  // Operand sets rotated so that a launch does not find the previous launch's bytes in L2.
  const int64_t bytes = (r.m + r.n) * r.k * 2;
  const int sets = static_cast<int>(std::clamp<int64_t>(2 * int64_t(l2) / bytes + 1, 1, 8));
  std::vector<DeviceBuffer> a(sets), b(sets);
  std::vector<CUtensorMap> map_a(sets), map_b(sets);
  for (int i = 0; i < sets; ++i) {
    if (Status s = cuda_check(cudaMalloc(&a[i].p, r.m * r.k * 2), "cudaMalloc"); !s.ok()) return s;
    if (Status s = cuda_check(cudaMalloc(&b[i].p, r.n * r.k * 2), "cudaMalloc"); !s.ok()) return s;
    fill_bf16<<<256, 256>>>(static_cast<__nv_bfloat16*>(a[i].p), r.m * r.k, 17u + i);
    fill_bf16<<<256, 256>>>(static_cast<__nv_bfloat16*>(b[i].p), r.n * r.k, 91u + i);
    Result<TensorMap2d> ma =
        r.chunked ? make_tensor_map_k_chunks("A", DType::bf16, a[i].p, r.k, r.m, r.k, r.tile_m, r.stage_k_blocks)
                  : make_tensor_map_2d("A", DType::bf16, a[i].p, r.k, r.m, r.k, kTileK, r.tile_m);
    if (!ma.ok()) return ma.status();
    Result<TensorMap2d> mb =
        r.chunked ? make_tensor_map_k_chunks("B", DType::bf16, b[i].p, r.k, r.n, r.k, r.tile_n, r.stage_k_blocks)
                  : make_tensor_map_2d("B", DType::bf16, b[i].p, r.k, r.n, r.k, kTileK, r.tile_n);
    if (!mb.ok()) return mb.status();
    map_a[i] = ma->map;
    map_b[i] = mb->map;
  }
  const dim3 grid(static_cast<unsigned>((r.m + r.tile_m - 1) / r.tile_m), static_cast<unsigned>((r.n + r.tile_n - 1) / r.tile_n),
                  static_cast<unsigned>(r.splits));
  const int ctas = static_cast<int>(grid.x * grid.y * grid.z);
  const int k_blocks = static_cast<int>(r.k / kTileK / r.splits);
  DeviceBuffer out, sink;
  if (Status s = cuda_check(cudaMalloc(&out.p, int64_t(ctas) * kOutWords * 8), "cudaMalloc"); !s.ok()) return s;
  if (Status s = cuda_check(cudaMalloc(&sink.p, 16), "cudaMalloc"); !s.ok()) return s;
  const Kernel kernel = pick(r.tile_m, r.tile_n, r.k_ways);
  const int smem = static_cast<int>(ingest_smem_bytes(r));
  if (Status s = cuda_check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem), "smem attribute"); !s.ok())
    return s;
  cudaStream_t st = nullptr;
  if (Status s = cuda_check(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking), "cudaStreamCreate"); !s.ok()) return s;
  std::unique_ptr<CUstream_st, void (*)(cudaStream_t)> stream_guard(st, [](cudaStream_t x) { cudaStreamDestroy(x); });
  cudaEvent_t ev[2] = {nullptr, nullptr};
  for (cudaEvent_t& e : ev)
    if (Status s = cuda_check(cudaEventCreate(&e), "cudaEventCreate"); !s.ok()) return s;
  std::unique_ptr<cudaEvent_t, void (*)(cudaEvent_t*)> ev_guard(ev, [](cudaEvent_t* e) { cudaEventDestroy(e[0]); cudaEventDestroy(e[1]); });
  if (Status s = cuda_check(cudaDeviceSynchronize(), "fill"); !s.ok()) return s;

  const int threads = 128 * (1 + r.tile_m / 64 * r.k_ways);
  int next = 0;
  auto launch = [&] {
    kernel<<<grid, threads, smem, st>>>(map_a[next], map_b[next], k_blocks, r.stages, r.stage_k_blocks, r.chunked,
                                        r.mma_depth, static_cast<int>(r.mode),
                                        static_cast<uint64_t*>(out.p), static_cast<float*>(sink.p));
    next = (next + 1) % sets;
  };
  for (int i = 0; i < 3; ++i) launch();  // warm-up
  std::vector<double> us;
  for (int i = 0; i < r.iterations; ++i) {
    cudaEventRecord(ev[0], st);
    launch();
    cudaEventRecord(ev[1], st);
    if (Status s = cuda_check(cudaEventSynchronize(ev[1]), "ingest kernel"); !s.ok()) return s;
    float ms = 0;
    cudaEventElapsedTime(&ms, ev[0], ev[1]);
    us.push_back(1000.0 * ms);
  }
  std::vector<uint64_t> words(size_t(ctas) * kOutWords);
  if (Status s = cuda_check(cudaMemcpy(words.data(), out.p, words.size() * 8, cudaMemcpyDeviceToHost), "copy out"); !s.ok()) return s;
  std::vector<double> cyc, mhz;
  for (int c = 0; c < ctas; ++c) {
    cyc.push_back(double(words[c * kOutWords]) / double(std::max<uint64_t>(1, words[c * kOutWords + 2])));
    if (words[c * kOutWords + 1] > 0) mhz.push_back(1000.0 * double(words[c * kOutWords]) / double(words[c * kOutWords + 1]));
  }
  IngestPoint p;
  p.request = r;
  p.ctas = ctas;
  p.k_blocks = k_blocks;
  p.median_us = median(us);
  p.cycles_per_k_block = median(cyc);
  p.bytes_per_clock_sm = p.cycles_per_k_block > 0 ? double((r.tile_m + r.tile_n) * kRowBytes) / p.cycles_per_k_block : 0;
  p.sm_mhz = median(mhz);
  return p;
}

}  // namespace tcgemm
