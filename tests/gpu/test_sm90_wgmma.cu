// The warp-specialized TMA + wgmma kernel (src/kernels/sm90/wgmma_tma_ws.cu) and its register
// direct-store variant against the device reference: every A/B layout, bf16 and f16, edge sizes,
// beta != 0, D poisoned with NaN first. (The persistent cluster kernel has its own file,
// test_sm90_persistent_cluster.cu.)
// tf32 (f32 storage, A row-major and B column-major only) runs the plain kernel with C and D in f32.
// TCGEMM_BENCH=1 adds a 4096^3 bf16 timing of both (CUDA events, median of 20 samples of 10 launches,
// inputs rotated across 256 MB, past the L2) and a 4096^3 tf32 timing of the tf32 kernel beside
// sm80_mma_sync_tf32.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

#include "gpu/gpu_test_util.hpp"
#include "gpu/sm90_entry_check.cuh"
#include "gpu/sm90_test_util.cuh"
#include "kernels/common/element.cuh"
#include "runtime/device_reference.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {
namespace {

#define CUDA_OK(x) ASSERT_EQ((x), cudaSuccess) << #x << ": " << cudaGetErrorString(cudaGetLastError())

constexpr const char* kBf16Kernel = "sm90_wgmma_bf16_128x256x64_s4_ws";
constexpr const char* kF16Kernel = "sm90_wgmma_f16_128x256x64_s4_ws";
constexpr const char* kBf16Direct = "sm90_wgmma_bf16_128x256x64_s4_ws_ds";
constexpr const char* kF16Direct = "sm90_wgmma_f16_128x256x64_s4_ws_ds";


constexpr const char* kTf32Kernel = "sm90_wgmma_tf32_128x256x32_s4_ws";
constexpr const char* kTf32MmaSync = "sm80_mma_sync_tf32_128x128x16_s4";

enum Variant { kPlain = 0, kDirect = 2 };


const Shape kShapes[] = {{1, 1, 1},       {7, 7, 7},       {33, 33, 33},    {64, 64, 64},
                         {127, 127, 127}, {128, 128, 128}, {129, 129, 129}, {256, 256, 256},
                         {1000, 1000, 1000}, {4097, 256, 64}, {200, 300, 1000}, {2048, 2048, 2048},
                         {4224, 4224, 256}, {3000, 2000, 333}};

// kernel variant, input dtype, A layout, B layout, shape index
using Case = std::tuple<int, DType, Layout, Layout, int>;

class Sm90Wgmma : public ::testing::TestWithParam<Case> {};

TEST_P(Sm90Wgmma, MatchesDeviceReference) {
  TCGEMM_REQUIRE_GPU(90);
  const auto [variant, input, la, lb, shape_index] = GetParam();
  const Shape sh = kShapes[shape_index];
  const bool bf = input == DType::bf16;
  const bool tf32 = input == DType::tf32;
  ASSERT_TRUE(!tf32 || variant == kPlain) << "tf32 has the plain kernel only";
  const KernelEntry* k = find_kernel(tf32 ? kTf32Kernel
                                     : variant == kDirect   ? (bf ? kBf16Direct : kF16Direct)
                                                            : (bf ? kBf16Kernel : kF16Kernel));
  ASSERT_NE(k, nullptr);

  // Vary what the kernel writes across cases: D dtype and layout, C layout, alpha, beta, and ld's
  // that are padded (A/B to TMA's 16-byte rule, sometimes beyond it; C/D to any value).
  const DType out_types[] = {DType::bf16, DType::f32, DType::f16};
  GemmDesc g;
  g.m = sh.m;
  g.n = sh.n;
  g.k = sh.k;
  g.a = {input, la, round_up(tight_ld(extent_a(g), la), 8) + (shape_index % 2 ? 8 : 0)};
  g.b = {input, lb, round_up(tight_ld(extent_b(g), lb), 8) + (shape_index % 3 ? 0 : 16)};
  g.d = {out_types[shape_index % 3], shape_index % 2 ? Layout::column : Layout::row, 0};
  g.d.ld = tight_ld(extent_c(g), g.d.layout) + (shape_index % 4 == 1 ? 3 : 0);
  g.c = {out_types[(shape_index + 1) % 3], shape_index % 4 < 2 ? Layout::row : Layout::column, 0};
  g.c.ld = tight_ld(extent_c(g), g.c.layout) + 1;
  g.alpha = shape_index % 2 ? 1.0f : 0.75f;
  g.beta = shape_index % 3 == 2 ? 0.0f : -0.5f;
  if (variant == kDirect && shape_index % 5 != 4) {
    // What the register-store epilogue takes (full tiles; partial ones fall back to staging):
    // row-major D of the input type, an even ld (tight or padded), beta == 0.
    g.d = {input, Layout::row, 0};
    g.d.ld = tight_ld(extent_c(g), Layout::row) + (shape_index % 2 ? 2 : 0);
    g.beta = 0.0f;
  }
  if (tf32) {
    // C and D in f32 (either layout, padded ld as above), beta != 0 always.
    g.d.dtype = DType::f32;
    g.c.dtype = DType::f32;
    g.beta = -0.5f;
  }
  ASSERT_TRUE(validate(g).ok()) << validate(g).message();
  const Status sup = k->supports(g);
  ASSERT_TRUE(sup.ok()) << sup.message();

  const size_t na = stored_elements(extent_a(g), la, g.a.ld);
  const size_t nb = stored_elements(extent_b(g), lb, g.b.ld);
  const size_t nc = stored_elements(extent_c(g), g.c.layout, g.c.ld);
  const size_t nd = stored_elements(extent_c(g), g.d.layout, g.d.ld);
  DeviceBuffer A(na * dtype_bytes(input)), B(nb * dtype_bytes(input)), Cb(nc * dtype_bytes(g.c.dtype)), D(nd * dtype_bytes(g.d.dtype));
  DeviceBuffer ref(sh.m * sh.n * sizeof(float)), got(sh.m * sh.n * sizeof(float));
  ASSERT_TRUE(A.p && B.p && Cb.p && D.p && ref.p && got.p);
  fill(A.p, na, input);
  fill(B.p, nb, input);
  fill(Cb.p, nc, g.c.dtype);
  CUDA_OK(cudaMemset(D.p, 0xFF, nd * dtype_bytes(g.d.dtype)));  // NaN in f32, f16 and bf16

  GemmArgs args;
  args.desc = g;
  args.a = A.p;
  args.b = B.p;
  args.c = Cb.p;
  args.d = D.p;
  const Status run = k->launch(args);
  ASSERT_TRUE(run.ok()) << run.message();
  CUDA_OK(cudaDeviceSynchronize());

  ASSERT_TRUE(reference_gemm_device(g, A.p, B.p, Cb.p, static_cast<float*>(ref.p), false).ok());
  ASSERT_TRUE(convert_to_float_device(g, D.p, static_cast<float*>(got.p)).ok());
  CUDA_OK(cudaDeviceSynchronize());
  std::vector<float> r(sh.m * sh.n), d(sh.m * sh.n);
  CUDA_OK(cudaMemcpy(r.data(), ref.p, r.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(d.data(), got.p, d.size() * sizeof(float), cudaMemcpyDeviceToHost));

  const double eps = input == DType::bf16 ? 1e-2 : input == DType::f16 ? 5e-3 : 2e-3;
  // tf32: A and B are raw f32 (not tf32-representable). wgmma drops their low 13 mantissa bits
  // while the reference rounds them (cvt.rna): per product a relative error of up to 2^-10 per
  // operand, ~7.8e-4 in norm and ~2.7e-4*sqrt(K) per element (a CPU simulation at K = 1000..4096,
  // max 1.4e-3*sqrt(K) over 65536 elements, always on a large element). Near-zero elements need
  // the floor of tests/gpu/gemm_test_util.cu (1e-3*sqrt(K)), not the 16-bit one.
  const double floor = (tf32 ? 1e-3 : 0.1 * eps) * std::sqrt(static_cast<double>(sh.k));
  expect_close(d, r, sh.n, eps, floor);
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  const auto [variant, input, la, lb, si] = info.param;
  const Shape s = kShapes[si];
  return std::string(to_string(input)) + "_A" + (la == Layout::row ? "row" : "col") + "_B" +
         (lb == Layout::row ? "row" : "col") + "_" + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
         std::to_string(s.k);
}

INSTANTIATE_TEST_SUITE_P(AllLayouts, Sm90Wgmma,
                         ::testing::Combine(::testing::Values(int{kPlain}), ::testing::Values(DType::bf16, DType::f16),
                                            ::testing::Values(Layout::row, Layout::column),
                                            ::testing::Values(Layout::row, Layout::column),
                                            ::testing::Range(0, static_cast<int>(std::size(kShapes)))),
                         case_name);
INSTANTIATE_TEST_SUITE_P(Tf32, Sm90Wgmma,
                         ::testing::Combine(::testing::Values(int{kPlain}), ::testing::Values(DType::tf32),
                                            ::testing::Values(Layout::row), ::testing::Values(Layout::column),
                                            ::testing::Range(0, static_cast<int>(std::size(kShapes)))),
                         case_name);
INSTANTIATE_TEST_SUITE_P(DirectStore, Sm90Wgmma,
                         ::testing::Combine(::testing::Values(int{kDirect}), ::testing::Values(DType::bf16, DType::f16),
                                            ::testing::Values(Layout::row, Layout::column),
                                            ::testing::Values(Layout::row, Layout::column),
                                            ::testing::Range(0, static_cast<int>(std::size(kShapes)))),
                         case_name);

// --- host-only checks (run without a GPU) --------------------------------------------------------
TEST(Sm90WgmmaHost, Registered) {
  for (const char* name : {kBf16Kernel, kF16Kernel, kBf16Direct, kF16Direct}) {
    const KernelEntry* k = find_kernel(name);
    ASSERT_NE(k, nullptr) << name;
    EXPECT_EQ(k->min_sm, 90);
    EXPECT_EQ(k->family, MmaFamily::wgmma);
    EXPECT_EQ(k->tile_m, 128);
    EXPECT_EQ(k->tile_n, 256);
    EXPECT_EQ(k->tile_k, 64);
    EXPECT_EQ(k->threads, 384);
  }
}

TEST(Sm90WgmmaHost, Tf32RegisteredKMajorOnly) {
  const KernelEntry* k = find_kernel(kTf32Kernel);
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->min_sm, 90);
  EXPECT_EQ(k->family, MmaFamily::wgmma);
  EXPECT_EQ(k->input, DType::tf32);
  EXPECT_EQ(k->tile_m, 128);
  EXPECT_EQ(k->tile_n, 256);
  EXPECT_EQ(k->tile_k, 32);
  EXPECT_EQ(k->threads, 384);
  EXPECT_EQ(k->preference, find_kernel(kBf16Kernel)->preference);

  GemmDesc g;
  g.m = g.n = 64;
  g.k = 64;
  g.a = {DType::tf32, Layout::row};
  g.b = {DType::tf32, Layout::column};
  g.c = g.d = {DType::f32, Layout::row};
  EXPECT_TRUE(k->supports(g).ok()) << k->supports(g).message();
  for (auto [la, lb] : {std::pair{Layout::row, Layout::row}, std::pair{Layout::column, Layout::column},
                        std::pair{Layout::column, Layout::row}}) {
    GemmDesc h = g;
    h.a.layout = la;
    h.b.layout = lb;
    const Status s = k->supports(h);
    EXPECT_EQ(s.code(), StatusCode::unsupported);
    EXPECT_NE(s.message().find("tf32 wgmma needs K-major A and B (A row-major, B column-major)"), std::string::npos)
        << s.message();
  }
  // TMA's 16-byte rule in 4-byte elements: lda = 7 is 28 bytes.
  GemmDesc odd = g;
  odd.k = 7;
  const Status so = k->supports(odd);
  EXPECT_EQ(so.code(), StatusCode::misaligned);
  EXPECT_NE(so.message().find("A: lda*4 bytes = 28 is not a multiple of 16"), std::string::npos) << so.message();
  odd.k = 4;  // 16 bytes
  EXPECT_TRUE(k->supports(odd).ok()) << k->supports(odd).message();
  // f32 inputs (not declared tf32) and 16-bit inputs are not this kernel's.
  GemmDesc f32 = g;
  f32.a.dtype = f32.b.dtype = DType::f32;
  EXPECT_EQ(k->supports(f32).code(), StatusCode::unsupported);
  GemmDesc bf = g;
  bf.a.dtype = bf.b.dtype = DType::bf16;
  EXPECT_EQ(k->supports(bf).code(), StatusCode::unsupported);
  EXPECT_EQ(find_kernel(kBf16Kernel)->supports(g).code(), StatusCode::unsupported);
}

TEST(Sm90WgmmaHost, RejectsWhatTmaCannotLoad) {
  const KernelEntry* k = find_kernel(kBf16Kernel);
  ASSERT_NE(k, nullptr);
  GemmDesc g;
  g.m = g.n = 64;
  g.k = 4097;  // tight lda = 4097: 8194 bytes
  const Status s = k->supports(g);
  EXPECT_EQ(s.code(), StatusCode::misaligned);
  EXPECT_NE(s.message().find("A: lda*2 bytes = 8194 is not a multiple of 16"), std::string::npos) << s.message();

  g.k = 64;
  g.b.layout = Layout::row;
  g.n = 7;  // row-major B, tight ldb = 7
  const Status sb = k->supports(g);
  EXPECT_EQ(sb.code(), StatusCode::misaligned);
  EXPECT_NE(sb.message().find("B: ldb*2 bytes = 14"), std::string::npos) << sb.message();

  g.n = 64;
  g.a.pointer_alignment = 8;
  const Status sp = k->supports(g);
  EXPECT_EQ(sp.code(), StatusCode::misaligned);
  EXPECT_NE(sp.message().find("A: base pointer"), std::string::npos) << sp.message();

  g.a.pointer_alignment = 256;
  const Status sok = k->supports(g);
  EXPECT_TRUE(sok.ok()) << sok.message();
  g.a.dtype = g.b.dtype = DType::f16;
  EXPECT_EQ(k->supports(g).code(), StatusCode::unsupported);
  EXPECT_TRUE(find_kernel(kF16Kernel)->supports(g).ok());
  EXPECT_TRUE(find_kernel(kF16Direct)->supports(g).ok());
  EXPECT_EQ(find_kernel(kBf16Direct)->supports(g).code(), StatusCode::unsupported);
  g.d.dtype = DType::e4m3;
  EXPECT_EQ(find_kernel(kF16Kernel)->supports(g).code(), StatusCode::unsupported);
  EXPECT_EQ(find_kernel(kF16Direct)->supports(g).code(), StatusCode::unsupported);
}

// --- benchmark (TCGEMM_BENCH=1) -------------------------------------------------------------
// Times k on args, A and B rotated over the sets: ~1 s of warm-up (the clocks ramp, and the first
// hundred milliseconds measure slow), then 20 samples of kBatch back-to-back launches, so the host's
// per-launch work (tensor-map encoding) overlaps the GPU instead of showing up as idle time between
// events. Returns {median, min} in ms per launch.
std::pair<double, double> time_launches(const KernelEntry* k, GemmArgs args, const std::vector<void*>& as,
                                        const std::vector<void*>& bs) {
  const size_t sets = as.size();
  size_t it = 0;
  auto launch = [&] {
    args.a = as[it % sets];
    args.b = bs[it % sets];
    ++it;
    return k->launch(args);
  };
  cudaEvent_t e0, e1;
  EXPECT_EQ(cudaEventCreate(&e0), cudaSuccess);
  EXPECT_EQ(cudaEventCreate(&e1), cudaSuccess);
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < std::chrono::seconds(1)) {
    for (int i = 0; i < 20; ++i) EXPECT_TRUE(launch().ok());
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  }
  constexpr int kBatch = 10;
  std::vector<float> ms;
  for (int rep = 0; rep < 20; ++rep) {
    EXPECT_EQ(cudaEventRecord(e0), cudaSuccess);
    for (int i = 0; i < kBatch; ++i) EXPECT_TRUE(launch().ok());
    EXPECT_EQ(cudaEventRecord(e1), cudaSuccess);
    EXPECT_EQ(cudaEventSynchronize(e1), cudaSuccess);
    float t = 0;
    EXPECT_EQ(cudaEventElapsedTime(&t, e0, e1), cudaSuccess);
    ms.push_back(t / kBatch);
  }
  (void)cudaEventDestroy(e0);
  (void)cudaEventDestroy(e1);
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms.front()};
}

TEST(Sm90WgmmaBench, Tf32_4096) {
  TCGEMM_REQUIRE_GPU(90);
  const char* env = std::getenv("TCGEMM_BENCH");
  if (env == nullptr || std::string(env) != "1") GTEST_SKIP() << "set TCGEMM_BENCH=1 to time 4096^3 tf32";
  const int64_t n = 4096;
  const size_t bytes = n * n * 4;
  constexpr int kSets = 4;  // 4 x (A + B) = 512 MB, well past the 60 MB L2
  std::vector<void*> as(kSets), bs(kSets);
  for (int i = 0; i < kSets; ++i) {
    CUDA_OK(cudaMalloc(&as[i], bytes));
    CUDA_OK(cudaMalloc(&bs[i], bytes));
    fill(as[i], n * n, DType::tf32);
    fill(bs[i], n * n, DType::tf32);
  }
  void* d = nullptr;
  CUDA_OK(cudaMalloc(&d, bytes));
  for (const char* name : {kTf32Kernel, kTf32MmaSync}) {
    const KernelEntry* k = find_kernel(name);
    ASSERT_NE(k, nullptr) << name;
    GemmArgs args;
    args.desc.m = args.desc.n = args.desc.k = n;
    args.desc.a = {DType::tf32, Layout::row};
    args.desc.b = {DType::tf32, Layout::column};
    args.desc.c = args.desc.d = {DType::f32, Layout::row};
    args.d = d;
    ASSERT_TRUE(k->supports(args.desc).ok()) << name << ": " << k->supports(args.desc).message();
    const auto [median, min] = time_launches(k, args, as, bs);
    const double tflops = 2.0 * n * n * n / (median * 1e-3) / 1e12;
    std::printf("[bench] %s 4096^3 A=row B=column D=f32:row  median %.3f ms  %.1f TFLOP/s (min %.3f ms)\n", name,
                median, tflops, min);
  }
  for (int i = 0; i < kSets; ++i) {
    (void)cudaFree(as[i]);
    (void)cudaFree(bs[i]);
  }
  (void)cudaFree(d);
}

TEST(Sm90WgmmaBench, Bf16_4096) {
  TCGEMM_REQUIRE_GPU(90);
  const char* env = std::getenv("TCGEMM_BENCH");
  if (env == nullptr || std::string(env) != "1") GTEST_SKIP() << "set TCGEMM_BENCH=1 to time 4096^3 bf16";
  const int64_t n = 4096;
  const size_t bytes = n * n * 2;
  constexpr int kSets = 4;  // 4 x (A + B) = 256 MB, well past the 60 MB L2
  std::vector<void*> as(kSets), bs(kSets);
  for (int i = 0; i < kSets; ++i) {
    CUDA_OK(cudaMalloc(&as[i], bytes));
    CUDA_OK(cudaMalloc(&bs[i], bytes));
    fill(as[i], n * n, DType::bf16);
    fill(bs[i], n * n, DType::bf16);
  }
  void* d = nullptr;
  CUDA_OK(cudaMalloc(&d, bytes));
  cudaEvent_t e0, e1;
  CUDA_OK(cudaEventCreate(&e0));
  CUDA_OK(cudaEventCreate(&e1));

  for (const char* name : {kBf16Kernel, kBf16Direct, "sm90_wgmma_bf16_128x256x64_s3_pc2x1_tmastore"})
  for (auto [la, lb] : {std::pair{Layout::row, Layout::column}, std::pair{Layout::row, Layout::row},
                        std::pair{Layout::column, Layout::column}, std::pair{Layout::column, Layout::row}}) {
    const KernelEntry* k = find_kernel(name);
    ASSERT_NE(k, nullptr) << name;
    GemmArgs args;
    args.desc.m = args.desc.n = args.desc.k = n;
    args.desc.a = {DType::bf16, la};
    args.desc.b = {DType::bf16, lb};
    args.desc.d = {DType::bf16, Layout::row};
    args.d = d;
    if (!k->supports(args.desc).ok()) continue;  // the cluster kernel is TN only
    int it = 0;
    auto launch = [&] {
      args.a = as[it % kSets];
      args.b = bs[it % kSets];
      ++it;
      return k->launch(args);
    };
    // Warm-up ~1 s: the clocks ramp, and the first hundred milliseconds measure slow.
    const auto start = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - start < std::chrono::seconds(1)) {
      for (int i = 0; i < 20; ++i) ASSERT_TRUE(launch().ok());
      CUDA_OK(cudaDeviceSynchronize());
    }
    // Each sample times kBatch back-to-back launches, so the host's per-launch work (tensor-map
    // encoding) overlaps the GPU instead of showing up as idle time between events.
    constexpr int kBatch = 10;
    std::vector<float> ms;
    for (int rep = 0; rep < 20; ++rep) {
      CUDA_OK(cudaEventRecord(e0));
      for (int i = 0; i < kBatch; ++i) ASSERT_TRUE(launch().ok());
      CUDA_OK(cudaEventRecord(e1));
      CUDA_OK(cudaEventSynchronize(e1));
      float t = 0;
      CUDA_OK(cudaEventElapsedTime(&t, e0, e1));
      ms.push_back(t / kBatch);
    }
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2];
    const double tflops = 2.0 * n * n * n / (median * 1e-3) / 1e12;
    std::printf("[bench] %s 4096^3 A=%s B=%s D=bf16:row  median %.3f ms  %.1f TFLOP/s (min %.3f ms)\n",
                name, la == Layout::row ? "row" : "column", lb == Layout::row ? "row" : "column", median,
                tflops, ms.front());
  }
  for (int i = 0; i < kSets; ++i) {
    (void)cudaFree(as[i]);
    (void)cudaFree(bs[i]);
  }
  (void)cudaFree(d);
  (void)cudaEventDestroy(e0);
  (void)cudaEventDestroy(e1);
}

}  // namespace
}  // namespace tcgemm
