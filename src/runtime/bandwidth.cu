#include "runtime/bandwidth.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "runtime/cuda_checks.hpp"

namespace tcgemm {
namespace {

constexpr int kThreads = 512;
constexpr int kUnroll = 8;  // 16-byte loads in flight a thread: 64 KB a CTA

// Each CTA streams one contiguous slice, as a GEMM CTA streams its own rows of B; the loads of a
// step are issued before any is used, so a CTA keeps kUnroll x 8 KB in flight.
__global__ void __launch_bounds__(kThreads) read_stream(const uint4* __restrict__ src, int64_t words,
                                                        uint32_t* __restrict__ sink) {
  const int64_t per = (words + gridDim.x - 1) / gridDim.x;
  const int64_t begin = blockIdx.x * per, end = min(words, begin + per);
  uint32_t acc = 0;
  for (int64_t base = begin + threadIdx.x; base < end; base += int64_t(kThreads) * kUnroll) {
    uint4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t i = base + int64_t(u) * kThreads;
      v[u] = i < end ? src[i] : make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  // NOTES: a store the compiler cannot prove dead keeps every load; the fill makes it never taken.
  if (acc == 0x9e3779b9u) sink[0] = acc;
}

__global__ void __launch_bounds__(kThreads) write_stream(uint4* __restrict__ dst, int64_t words, uint32_t salt) {
  const int64_t per = (words + gridDim.x - 1) / gridDim.x;
  const int64_t begin = blockIdx.x * per, end = min(words, begin + per);
  for (int64_t i = begin + threadIdx.x; i < end; i += kThreads) {
    const uint32_t x = static_cast<uint32_t>(i) ^ salt;
    dst[i] = make_uint4(x, x + 1, x + 2, x + 3);
  }
}

__global__ void __launch_bounds__(kThreads) copy_stream(const uint4* __restrict__ src, uint4* __restrict__ dst,
                                                        int64_t words) {
  const int64_t per = (words + gridDim.x - 1) / gridDim.x;
  const int64_t begin = blockIdx.x * per, end = min(words, begin + per);
  for (int64_t base = begin + threadIdx.x; base < end; base += int64_t(kThreads) * kUnroll) {
    uint4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t i = base + int64_t(u) * kThreads;
      if (i < end) v[u] = src[i];
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t i = base + int64_t(u) * kThreads;
      if (i < end) dst[i] = v[u];
    }
  }
}

__global__ void fill_words(uint4* dst, int64_t words, uint32_t seed) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < words; i += int64_t(gridDim.x) * blockDim.x) {
    uint32_t x = static_cast<uint32_t>(i) * 2654435761u + seed;
    x ^= x >> 15;
    dst[i] = make_uint4(x | 1u, x * 3u | 1u, x * 5u | 1u, x * 7u | 1u);  // never zero (DESIGN: never time zeros)
  }
}

struct EventPair {
  cudaEvent_t e = nullptr;
  ~EventPair() { if (e) cudaEventDestroy(e); }
};

}  // namespace

const char* stream_kind_name(StreamKind k) {
  switch (k) {
    case StreamKind::read: return "read";
    case StreamKind::write: return "write";
    case StreamKind::copy: return "copy";
    case StreamKind::memcpy: return "memcpy";
  }
  return "?";
}

Result<std::vector<BandwidthPoint>> measure_bandwidth(const BandwidthRequest& r) {
  if (r.bytes < (1 << 20) || r.bytes % 16 != 0)
    return Status::invalid("--bytes must be at least 1 MiB and a multiple of 16 (got " + std::to_string(r.bytes) + ")");
  if (r.iterations < 3) return Status::invalid("--iterations must be >= 3");
  for (int g : r.grids)
    if (g < 1 || g > (1 << 20)) return Status::invalid("--grids: every CTA count must be 1..1048576 (got " + std::to_string(g) + ")");
  if (Status s = require_gpu("measuring bandwidth"); !s.ok()) return s;
  int dev = 0, sms = 0, l2 = 0;
  if (Status s = cuda_check(cudaGetDevice(&dev), "cudaGetDevice"); !s.ok()) return s;
  if (Status s = cuda_check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "SM count"); !s.ok()) return s;
  if (Status s = cuda_check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev), "L2 size"); !s.ok()) return s;
  std::vector<int> grids = r.grids;
  if (grids.empty()) grids = {128, sms, 2 * sms, 4 * sms, 8 * sms};

  // Enough buffers that consecutive launches never find their bytes in L2.
  const int64_t words = r.bytes / 16;
  const int nbuf = static_cast<int>(std::clamp<int64_t>((2 * int64_t(l2)) / r.bytes + 2, 2, 16));
  std::vector<DeviceBuffer> src(nbuf), dst(nbuf);
  DeviceBuffer sink;
  for (int i = 0; i < nbuf; ++i) {
    if (Status s = cuda_check(cudaMalloc(&src[i].p, r.bytes), "cudaMalloc"); !s.ok()) return s;
    if (Status s = cuda_check(cudaMalloc(&dst[i].p, r.bytes), "cudaMalloc"); !s.ok()) return s;
    fill_words<<<4 * sms, 256>>>(static_cast<uint4*>(src[i].p), words, 0x1234u + i);
  }
  if (Status s = cuda_check(cudaMalloc(&sink.p, 16), "cudaMalloc"); !s.ok()) return s;
  cudaStream_t st = nullptr;
  if (Status s = cuda_check(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking), "cudaStreamCreate"); !s.ok()) return s;
  std::unique_ptr<CUstream_st, void (*)(cudaStream_t)> stream_guard(st, [](cudaStream_t x) { cudaStreamDestroy(x); });
  if (Status s = cuda_check(cudaDeviceSynchronize(), "fill"); !s.ok()) return s;

  std::vector<BandwidthPoint> out;
  int next = 0;
  auto launch = [&](StreamKind k, int grid) {
    const int b = next;
    next = (next + 1) % nbuf;
    switch (k) {
      case StreamKind::read:
        read_stream<<<grid, kThreads, 0, st>>>(static_cast<const uint4*>(src[b].p), words, static_cast<uint32_t*>(sink.p));
        break;
      case StreamKind::write: write_stream<<<grid, kThreads, 0, st>>>(static_cast<uint4*>(dst[b].p), words, b); break;
      case StreamKind::copy:
        copy_stream<<<grid, kThreads, 0, st>>>(static_cast<const uint4*>(src[b].p), static_cast<uint4*>(dst[b].p), words);
        break;
      case StreamKind::memcpy: return cudaMemcpyAsync(dst[b].p, src[b].p, r.bytes, cudaMemcpyDeviceToDevice, st);
    }
    return cudaGetLastError();
  };
  std::vector<EventPair> ev(static_cast<std::size_t>(r.iterations) + 1);
  for (EventPair& e : ev)
    if (Status s = cuda_check(cudaEventCreate(&e.e), "cudaEventCreate"); !s.ok()) return s;

  for (StreamKind k : r.kinds) {
    const std::vector<int> these = k == StreamKind::memcpy ? std::vector<int>{0} : grids;
    for (int grid : these) {
      // Warm-up: keep the GPU busy for warmup_ms so its clocks settle before timing.
      float spent = 0;
      while (spent < r.warmup_ms) {
        if (Status s = cuda_check(cudaEventRecord(ev[0].e, st), "cudaEventRecord"); !s.ok()) return s;
        for (int i = 0; i < 20; ++i)
          if (Status s = cuda_check(launch(k, grid), "launch"); !s.ok()) return s;
        if (Status s = cuda_check(cudaEventRecord(ev[1].e, st), "cudaEventRecord"); !s.ok()) return s;
        if (Status s = cuda_check(cudaEventSynchronize(ev[1].e), "warm-up"); !s.ok()) return s;
        float ms = 0;
        (void)cudaEventElapsedTime(&ms, ev[0].e, ev[1].e);
        spent += ms;
      }
      if (Status s = cuda_check(cudaEventRecord(ev[0].e, st), "cudaEventRecord"); !s.ok()) return s;
      for (int i = 0; i < r.iterations; ++i) {
        if (Status s = cuda_check(launch(k, grid), "launch"); !s.ok()) return s;
        if (Status s = cuda_check(cudaEventRecord(ev[i + 1].e, st), "cudaEventRecord"); !s.ok()) return s;
      }
      if (Status s = cuda_check(cudaEventSynchronize(ev.back().e), "timed runs"); !s.ok()) return s;
      std::vector<double> t(static_cast<std::size_t>(r.iterations));
      for (int i = 0; i < r.iterations; ++i) {
        float ms = 0;
        if (Status s = cuda_check(cudaEventElapsedTime(&ms, ev[i].e, ev[i + 1].e), "cudaEventElapsedTime"); !s.ok()) return s;
        t[i] = ms * 1e3;
      }
      std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
      BandwidthPoint p;
      p.kind = k;
      p.bytes = r.bytes;
      p.ctas = grid;
      p.median_us = t[t.size() / 2];
      const double traffic = (k == StreamKind::copy || k == StreamKind::memcpy ? 2.0 : 1.0) * double(r.bytes);
      p.traffic_tbps = traffic / (p.median_us * 1e-6) / 1e12;
      out.push_back(p);
    }
  }
  return out;
}

}  // namespace tcgemm
