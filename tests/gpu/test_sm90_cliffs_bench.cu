// Timings of the "no cliffs" paths (TCGEMM_BENCH=1; skipped otherwise): 4097^3 bf16 through the
// repack and peel entries (copies included), the small repack parts, host against GPU time, and
// 256x256x65536 through split-K. Inputs rotate over sets beyond L2; medians of event-timed batches.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "analysis/path_rules.hpp"
#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_entry_check.cuh"
#include "gpu/sm90_test_util.cuh"
#include "kernels/common/element.cuh"
#include "kernels/common/repack.hpp"
#include "kernels/common/splitk_reduce.hpp"
#include "kernels/sm90/pc_repack.hpp"
#include "kernels/sm90/peel.hpp"
#include "kernels/sm90/split_k.hpp"
#include "kernels/sm90/swap_ab.hpp"
#include "reference/reference_gemm.hpp"
#include "runtime/cublaslt_provider.hpp"
#include "runtime/device_reference.hpp"
#include "runtime/registry.hpp"
#include "tcgemm/gemm.hpp"

namespace tcgemm {
namespace {

constexpr const char* kPlainBf16 = "sm90_wgmma_bf16_128x256x64_s4_ws";
constexpr const char* kRepackBf16 = "sm90_wgmma_bf16_128x256x64_s4_ws_repack";
constexpr const char* kSplitBf16 = "sm90_wgmma_bf16_128x256x64_s4_ws_splitk";
constexpr const char* kPeelBf16 = "sm90_wgmma_bf16_128x256x64_s4_ws_peel";

// --- benchmarks (TCGEMM_BENCH=1) ---------------------------------------------------------------
bool bench_enabled() {
  const char* env = std::getenv("TCGEMM_BENCH");
  return env != nullptr && std::string(env) == "1";
}

// Median ms per launch of `launch` (warm-up ~1 s, then 20 samples of 10 back-to-back launches).
template <class F>
double time_ms(F&& launch) {
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < std::chrono::seconds(1)) {
    for (int i = 0; i < 10; ++i)
      if (!launch()) return -1;
    if (cudaDeviceSynchronize() != cudaSuccess) return -1;
  }
  cudaEvent_t e0, e1;
  (void)cudaEventCreate(&e0);
  (void)cudaEventCreate(&e1);
  constexpr int kBatch = 10;
  std::vector<float> ms;
  for (int rep = 0; rep < 20; ++rep) {
    (void)cudaEventRecord(e0);
    for (int i = 0; i < kBatch; ++i)
      if (!launch()) return -1;
    (void)cudaEventRecord(e1);
    (void)cudaEventSynchronize(e1);
    float t = 0;
    (void)cudaEventElapsedTime(&t, e0, e1);
    ms.push_back(t / kBatch);
  }
  (void)cudaEventDestroy(e0);
  (void)cudaEventDestroy(e1);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// Host time per call of `call`: kCalls enqueued back to back with no wait (well inside the launch
// queue at 2-3 launches a call), then one synchronize outside the clock. -1 when a call fails.
template <class F>
double host_us_per_call(F&& call) {
  constexpr int kCalls = 200;
  const auto h0 = std::chrono::steady_clock::now();
  for (int i = 0; i < kCalls; ++i)
    if (!call()) return -1;
  const auto h1 = std::chrono::steady_clock::now();
  if (cudaDeviceSynchronize() != cudaSuccess) return -1;
  return std::chrono::duration<double, std::micro>(h1 - h0).count() / kCalls;
}

struct BenchSets {
  std::vector<void*> a, b;
  void* d = nullptr;
  BenchSets(int sets, size_t a_bytes, size_t b_bytes, size_t d_bytes) {
    for (int i = 0; i < sets; ++i) {
      a.push_back(nullptr);
      b.push_back(nullptr);
      (void)cudaMalloc(&a.back(), a_bytes);
      (void)cudaMalloc(&b.back(), b_bytes);
      fill(a.back(), a_bytes / 2, DType::bf16);
      fill(b.back(), b_bytes / 2, DType::bf16);
    }
    (void)cudaMalloc(&d, d_bytes);
  }
  ~BenchSets() {
    for (void* p : a) (void)cudaFree(p);
    for (void* p : b) (void)cudaFree(p);
    (void)cudaFree(d);
  }
};

TEST(Sm90CliffsBench, Repack4097Cubed) {
  TCGEMM_REQUIRE_GPU(90);
  if (!bench_enabled()) GTEST_SKIP() << "set TCGEMM_BENCH=1 to time 4097^3 bf16 through the repack path";
  const KernelEntry* rep = find_kernel(kRepackBf16);
  const KernelEntry* plain = find_kernel(kPlainBf16);
  ASSERT_TRUE(rep && plain);
  const int64_t n = 4097;
  const size_t bytes = static_cast<size_t>(n) * n * 2;
  BenchSets sets(3, bytes, bytes, bytes);  // 3 x (A + B) = 201 MB, past the 60 MB L2
  GemmArgs args;
  args.desc.m = args.desc.n = args.desc.k = n;
  args.desc.d = {DType::bf16, Layout::row};
  args.d = sets.d;
  ASSERT_TRUE(rep->supports(args.desc).ok());
  const size_t ws = rep->workspace_bytes(args.desc);
  DeviceBuffer W(ws);
  args.workspace = W.p;
  args.workspace_bytes = ws;
  int it = 0;
  const double total = time_ms([&] {
    args.a = sets.a[it % 3];
    args.b = sets.b[it % 3];
    ++it;
    return rep->launch(args).ok();
  });
  ASSERT_GT(total, 0);
  // The parts: the two copies alone, and the GEMM alone on the copies (ld 4160).
  const TmaRepackPlan plan = plan_tma_repack(args.desc);
  const double copies = time_ms([&] {
    const void* a = sets.a[it % 3];
    const void* b = sets.b[it % 3];
    ++it;
    char* w = static_cast<char*>(W.p);
    return repack_16bit(a, n, n, n, w + plan.a_offset, plan.lda, nullptr).ok() &&
           repack_16bit(b, n, n, n, w + plan.b_offset, plan.ldb, nullptr).ok();
  });
  GemmArgs padded = args;
  padded.desc = repacked_desc(args.desc, plan);
  padded.a = static_cast<char*>(W.p) + plan.a_offset;
  padded.b = static_cast<char*>(W.p) + plan.b_offset;
  const double gemm = time_ms([&] { return plain->launch(padded).ok(); });
  const double flop = 2.0 * n * n * n;
  const double copy_bytes = 2.0 * (bytes + static_cast<double>(n) * plan.lda * 2);
  std::printf("[bench] %s 4097^3 A=row B=col D=bf16:row  median %.3f ms  %.1f TFLOP/s (copies included)\n",
              rep->name.data(), total, flop / (total * 1e-3) / 1e12);
  std::printf("[bench]   copies alone %.3f ms (%.2f TB/s read+write); GEMM on the copies %.3f ms (%.1f TFLOP/s)\n",
              copies, copy_bytes / (copies * 1e-3) / 1e12, gemm, flop / (gemm * 1e-3) / 1e12);
}

TEST(Sm90CliffsBench, Peel4097Cubed) {
  TCGEMM_REQUIRE_GPU(90);
  if (!bench_enabled()) GTEST_SKIP() << "set TCGEMM_BENCH=1 to time 4097^3 bf16 through repack + peel";
  const KernelEntry* k = find_kernel(kPeelBf16);
  ASSERT_NE(k, nullptr);
  const int64_t n = 4097;
  const size_t bytes = static_cast<size_t>(n) * n * 2;
  BenchSets sets(3, bytes, bytes, bytes);
  GemmArgs args;
  args.desc.m = args.desc.n = args.desc.k = n;
  args.desc.d = {DType::bf16, Layout::row};
  args.d = sets.d;
  ASSERT_TRUE(k->supports(args.desc).ok()) << k->supports(args.desc).message();
  const size_t ws = k->workspace_bytes(args.desc);
  DeviceBuffer W(ws);
  args.workspace = W.p;
  args.workspace_bytes = ws;
  int it = 0;
  const double ms = time_ms([&] {
    args.a = sets.a[it % 3];
    args.b = sets.b[it % 3];
    ++it;
    return k->launch(args).ok();
  });
  ASSERT_GT(ms, 0);
  std::printf("[bench] %s 4097^3 A=row B=col D=bf16:row  median %.3f ms  %.1f TFLOP/s (copies and strips included)\n",
              k->name.data(), ms, 2.0 * n * n * n / (ms * 1e-3) / 1e12);
}

// The small unaligned shapes whose `tcgemm profile` timings once split in two (bench/NOTES.md,
// "gemm()'s host time"): the entry's path (copies, then the planned split-K tile), the same through
// gemm(), then each part alone on the same buffers. The tiny ones (run 70: a ~9-14 us floor against
// cuBLAS's 7-9) also time the host alone: launches enqueued back to back without a wait; where
// that per call reaches the whole path's time, the host binds, not the GPU.
TEST(Sm90CliffsBench, SmallRepackParts) {
  TCGEMM_REQUIRE_GPU(90);
  if (!bench_enabled()) GTEST_SKIP() << "set TCGEMM_BENCH=1 to time 1000x1000x1001 and 333x777x4099 by parts";
  const KernelEntry* k = find_kernel("sm90_wgmma_bf16_128xN_ws_repack_splitk");
  ASSERT_NE(k, nullptr);
  for (const Shape sh : {Shape{1000, 1000, 1001}, Shape{333, 777, 4099}, Shape{87, 6819, 47}, Shape{426, 2589, 36},
                         Shape{14, 3, 650}, Shape{1024, 1024, 8193}, Shape{768, 768, 8193}}) {
    GemmDesc g;
    g.m = sh.m;
    g.n = sh.n;
    g.k = sh.k;
    g.d = {DType::bf16, Layout::row};
    ASSERT_TRUE(k->supports(g).ok()) << k->supports(g).message();
    constexpr int kSets = 16;  // 16 x (A + B): 64 MB at 1000x1000x1001, past the 60 MB L2
    BenchSets sets(kSets, static_cast<size_t>(sh.m * sh.k * 2), static_cast<size_t>(sh.n * sh.k * 2),
                   static_cast<size_t>(sh.m * sh.n * 2));
    const size_t ws = k->workspace_bytes(g);
    DeviceBuffer W(ws);
    GemmArgs args;
    args.desc = g;
    args.d = sets.d;
    args.workspace = W.p;
    args.workspace_bytes = ws;
    int it = 0;
    auto next = [&] {
      args.a = sets.a[it % kSets];
      args.b = sets.b[it % kSets];
      ++it;
    };
    const double whole_ms = time_ms([&] { next(); return k->launch(args).ok(); });
    const double host_us = host_us_per_call([&] { next(); return k->launch(args).ok(); });
    ASSERT_GT(host_us, 0);
    // The same through the public call: validation, the (cached) choice, the library's workspace.
    const double api_ms = time_ms([&] { next(); return gemm(g, args.a, args.b, nullptr, args.d).ok(); });
    size_t used = 0;
    const double copies_ms = time_ms([&] { next(); return apply_tma_repack(args, &used).ok(); });
    Result<GemmArgs> copied = apply_tma_repack(args, &used);
    ASSERT_TRUE(copied.ok()) << copied.status().message();
    GemmArgs rest = copied.value();
    const size_t skip = (used + 255) / 256 * 256;
    rest.workspace = static_cast<char*>(W.p) + skip;
    rest.workspace_bytes = ws - skip;
    const double planned_ms = time_ms([&] { return sm90_wgmma_ws_planned_launch(rest, DType::bf16).ok(); });
    ASSERT_GT(whole_ms, 0);
    ASSERT_GT(api_ms, 0);
    ASSERT_GT(copies_ms, 0);
    ASSERT_GT(planned_ms, 0);
    std::printf("[bench] %s %s: whole %.4f ms, host enqueue %.1f us a call, through gemm() %.4f ms, copies %.4f ms, "
                "planned GEMM on the copies %.4f ms (%s)\n",
                k->name.data(), shape_name(sh).c_str(), whole_ms, host_us, api_ms, copies_ms, planned_ms,
                k->describe ? k->describe(g).c_str() : "");
  }
}

// Aligned tiny problems, where gemm() ran 3-4 us behind cuBLAS in run 71 whatever kernel it took:
// the host's enqueue per call (no waits), the back-to-back time, and one call alone (events around
// it, synchronized): for gemm(), cuBLAS and an empty kernel. Where our alone time matches cuBLAS's
// and the back-to-back one does not, the host binds; where alone differs, the GPU does.
__global__ void empty_kernel() {}

TEST(Sm90CliffsBench, SmallHostAndGpu) {
  TCGEMM_REQUIRE_GPU(90);
  if (!bench_enabled()) GTEST_SKIP() << "set TCGEMM_BENCH=1 to time tiny problems' host and GPU parts";
  Result<std::unique_ptr<CublasLtProvider>> blas = CublasLtProvider::create();
  ASSERT_TRUE(blas.ok()) << blas.status().message();
  cudaEvent_t e0, e1;
  ASSERT_EQ(cudaEventCreate(&e0), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&e1), cudaSuccess);
  auto parts = [&](const char* who, const std::string& shape, auto&& call) {
    const double whole_ms = time_ms(call);
    const double host_us = host_us_per_call(call);
    ASSERT_GT(host_us, 0);
    std::vector<float> alone;
    for (int i = 0; i < 50; ++i) {
      (void)cudaEventRecord(e0);
      ASSERT_TRUE(call());
      (void)cudaEventRecord(e1);
      (void)cudaEventSynchronize(e1);
      float t = 0;
      (void)cudaEventElapsedTime(&t, e0, e1);
      alone.push_back(t);
    }
    std::sort(alone.begin(), alone.end());
    std::printf("[bench] %-14s %-16s back-to-back %6.2f us  host enqueue %5.2f us a call  alone %6.2f us\n", who,
                shape.c_str(), 1e3 * whole_ms, host_us, 1e3 * alone[alone.size() / 2]);
  };
  parts("empty kernel", "-", [] {
    empty_kernel<<<1, 32>>>();
    return cudaGetLastError() == cudaSuccess;
  });
  for (const Shape sh : {Shape{87, 6819, 48}, Shape{426, 2589, 40}, Shape{1857, 934, 32}, Shape{3240, 544, 392},
                         Shape{288, 1648, 1128}, Shape{14, 3, 656}}) {
    GemmDesc g;
    g.m = sh.m;
    g.n = sh.n;
    g.k = sh.k;
    g.d = {DType::bf16, Layout::row};
    constexpr int kSets = 8;
    BenchSets sets(kSets, static_cast<size_t>(sh.m * sh.k * 2), static_cast<size_t>(sh.n * sh.k * 2),
                   static_cast<size_t>(sh.m * sh.n * 2));
    int it = 0;
    const std::string name = shape_name(sh);
    Result<std::string_view> pick = pick_kernel(g);
    ASSERT_TRUE(pick.ok()) << pick.status().message();
    std::printf("[bench] %s: gemm() picks %s\n", name.c_str(), std::string(pick.value()).c_str());
    parts("gemm()", name, [&] {
      ++it;
      return gemm(g, sets.a[it % kSets], sets.b[it % kSets], nullptr, sets.d).ok();
    });
    parts("cuBLASLt", name, [&] {
      ++it;
      return blas.value()->run(g, sets.a[it % kSets], sets.b[it % kSets], nullptr, sets.d).ok();
    });
  }
  (void)cudaEventDestroy(e0);
  (void)cudaEventDestroy(e1);
}

TEST(Sm90CliffsBench, SplitK256x256x65536) {
  TCGEMM_REQUIRE_GPU(90);
  if (!bench_enabled()) GTEST_SKIP() << "set TCGEMM_BENCH=1 to time 256x256x65536 bf16 through split-K";
  const KernelEntry* k = find_kernel(kSplitBf16);
  ASSERT_NE(k, nullptr);
  const int64_t m = 256, n = 256, kk = 65536;
  BenchSets sets(3, static_cast<size_t>(m) * kk * 2, static_cast<size_t>(kk) * n * 2, static_cast<size_t>(m) * n * 2);
  for (int forced : {0, 1, 16, 32}) {
    const ForcedSplits f(forced);
    GemmArgs args;
    args.desc.m = m;
    args.desc.n = n;
    args.desc.k = kk;
    args.desc.d = {DType::bf16, Layout::row};
    args.d = sets.d;
    ASSERT_TRUE(k->supports(args.desc).ok());
    const size_t ws = k->workspace_bytes(args.desc);
    DeviceBuffer W(ws);
    args.workspace = W.p;
    args.workspace_bytes = ws;
    int it = 0;
    const double ms = time_ms([&] {
      args.a = sets.a[it % 3];
      args.b = sets.b[it % 3];
      ++it;
      return k->launch(args).ok();
    });
    ASSERT_GT(ms, 0);
    const double flop = 2.0 * m * n * kk;
    std::printf("[bench] %s 256x256x65536 A=row B=col D=bf16:row splits %d%s  median %.1f us  %.1f TFLOP/s "
                "(memory floor ~15.7 us)\n",
                k->name.data(), choose_splits(args.desc, current_sm_count()), forced == 0 ? " (auto)" : "",
                ms * 1e3, flop / (ms * 1e-3) / 1e12);
  }
}

}  // namespace
}  // namespace tcgemm
