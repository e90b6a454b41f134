// The cuBLASLt provider against the device reference, across layouts and dtypes; and the
// verifier's own rules (NaN never passes, a wrong element fails).
#include <algorithm>
#include <cmath>
#include <vector>

#include "gpu/gpu_test_util.hpp"
#include "runtime/cublaslt_provider.hpp"
#include "runtime/device_reference.hpp"
#include "runtime/verify.hpp"

using namespace tcgemm;

namespace {

struct Buf {
  void* p = nullptr;
  explicit Buf(std::size_t bytes) { EXPECT_EQ(cudaMalloc(&p, bytes), cudaSuccess); }
  ~Buf() { if (p) EXPECT_EQ(cudaFree(p), cudaSuccess); }
  float* f() const { return static_cast<float*>(p); }
};

std::size_t span(const MatrixDesc& m, StoredExtent e) {
  return static_cast<std::size_t>(effective_ld(m, e)) *
         static_cast<std::size_t>(m.layout == Layout::row ? e.rows : e.cols);
}

// Runs cuBLASLt on fresh random inputs; *out gets the verification against the FP32 reference.
Status run_and_verify(CublasLtProvider& lt, const GemmDesc& g, VerifyResult* out) {
  const std::size_t na = span(g.a, extent_a(g)), nb = span(g.b, extent_b(g));
  const std::size_t nc = span(g.c, extent_c(g)), nd = span(g.d, extent_c(g));
  Buf a(na * dtype_bytes(g.a.dtype)), b(nb * dtype_bytes(g.b.dtype));
  Buf c(nc * dtype_bytes(g.c.dtype)), d(nd * dtype_bytes(g.d.dtype));
  Buf ref(static_cast<std::size_t>(g.m * g.n) * 4), scratch(static_cast<std::size_t>(g.m * g.n) * 4);
  EXPECT_TRUE(fill_random_device(a.p, na, g.a.dtype, -1, 1, 1).ok());
  EXPECT_TRUE(fill_random_device(b.p, nb, g.b.dtype, -1, 1, 2).ok());
  EXPECT_TRUE(fill_random_device(c.p, nc, g.c.dtype, -1, 1, 3).ok());
  EXPECT_TRUE(poison_device(d.p, nd * dtype_bytes(g.d.dtype)).ok());
  const void* cp = g.beta != 0.0f ? c.p : nullptr;
  Status st = lt.run(g, a.p, b.p, cp, d.p);
  if (!st.ok()) return st;
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_TRUE(reference_gemm_device(g, a.p, b.p, cp, ref.f(), false).ok());
  auto v = verify_gemm_output(g, d.p, ref.f(), scratch.f(), default_tolerance(g));
  EXPECT_TRUE(v.ok()) << v.status().message();
  if (v.ok()) *out = *v;
  return st;
}

GemmDesc make(int64_t m, int64_t n, int64_t k, DType in, Layout la, Layout lb, DType out,
              Layout ld) {
  GemmDesc g;
  g.m = m; g.n = n; g.k = k;
  g.a = {in, la};
  g.b = {in, lb};
  g.c = {out, ld};
  g.d = {out, ld};
  return g;
}

}  // namespace

TEST(CublasLtProvider, MatchesReferenceAcrossLayoutsAndDtypes) {
  TCGEMM_REQUIRE_GPU(80);
  auto lt = CublasLtProvider::create();
  ASSERT_TRUE(lt.ok()) << lt.status().message();
  const Layout R = Layout::row, C = Layout::column;
  std::vector<GemmDesc> cases{
      make(256, 384, 512, DType::bf16, R, C, DType::bf16, R),   // TN, the fast path
      make(256, 384, 512, DType::bf16, R, R, DType::bf16, R),
      make(256, 384, 512, DType::bf16, C, C, DType::bf16, C),
      make(256, 384, 512, DType::bf16, C, R, DType::f32, C),
      make(97, 65, 33, DType::bf16, R, C, DType::bf16, R),      // unaligned everything
      make(128, 256, 64, DType::f16, R, C, DType::f16, R),
      make(128, 256, 64, DType::f32, R, C, DType::f32, R),
      make(128, 256, 64, DType::tf32, C, R, DType::f32, R),
      make(1, 1, 1, DType::bf16, R, C, DType::bf16, R),
  };
  GemmDesc with_c = make(192, 160, 96, DType::f16, R, C, DType::f16, R);
  with_c.alpha = 0.5f;
  with_c.beta = -1.5f;
  cases.push_back(with_c);
  GemmDesc with_ld = make(64, 80, 48, DType::bf16, R, C, DType::bf16, R);
  with_ld.a.ld = 56; with_ld.b.ld = 64; with_ld.d.ld = 88;
  cases.push_back(with_ld);
  for (const GemmDesc& g : cases) {
    SCOPED_TRACE(testing::Message() << g.m << "x" << g.n << "x" << g.k << " " << to_string(g.a.dtype)
                                    << " A " << to_string(g.a.layout) << " B " << to_string(g.b.layout)
                                    << " D " << to_string(g.d.dtype) << ":" << to_string(g.d.layout)
                                    << " beta " << g.beta);
    VerifyResult v;
    const Status st = run_and_verify(**lt, g, &v);
    ASSERT_TRUE(st.ok()) << st.message();
    EXPECT_TRUE(v.passed) << v.message;
    EXPECT_EQ(v.nan_count, 0u);
  }
}

TEST(CublasLtProvider, Fp8TnRunsAndOtherFormsAreRefusedWithAReason) {
  TCGEMM_REQUIRE_GPU(90);
  auto lt = CublasLtProvider::create();
  ASSERT_TRUE(lt.ok()) << lt.status().message();
  const Layout R = Layout::row, C = Layout::column;
  GemmDesc tn = make(128, 256, 128, DType::e4m3, R, C, DType::bf16, R);
  VerifyResult v;
  const Status st = run_and_verify(**lt, tn, &v);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_TRUE(v.passed) << v.message;

  GemmDesc nn = make(128, 256, 128, DType::e4m3, R, R, DType::bf16, R);
  const Status st_nn = run_and_verify(**lt, nn, &v);
  EXPECT_EQ(st_nn.code(), StatusCode::unsupported);
  EXPECT_NE(st_nn.message().find("TN"), std::string::npos) << st_nn.message();

  GemmDesc e5 = make(128, 256, 128, DType::e5m2, R, C, DType::bf16, R);
  const Status st_e5 = run_and_verify(**lt, e5, &v);
  EXPECT_EQ(st_e5.code(), StatusCode::unsupported);

  GemmDesc odd = make(128, 256, 129, DType::e4m3, R, C, DType::bf16, R);  // K breaks 16-byte lds
  const Status st_odd = run_and_verify(**lt, odd, &v);
  EXPECT_EQ(st_odd.code(), StatusCode::unsupported) << st_odd.message();
}

TEST(Verify, NanNeverPassesAndAWrongElementFails) {
  TCGEMM_REQUIRE_GPU(80);
  const int64_t m = 64, n = 48;
  std::vector<float> ref(m * n), d;
  for (int64_t i = 0; i < m * n; ++i) ref[i] = 0.25f + static_cast<float>(i % 7);
  Buf dr(ref.size() * 4), dd(ref.size() * 4);
  auto check = [&](const std::vector<float>& host) {
    EXPECT_EQ(cudaMemcpy(dr.p, ref.data(), ref.size() * 4, cudaMemcpyHostToDevice), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(dd.p, host.data(), host.size() * 4, cudaMemcpyHostToDevice), cudaSuccess);
    auto v = compare_device(dd.f(), dr.f(), m, n, Tolerance{1e-2, 5e-2});
    EXPECT_TRUE(v.ok());
    return v.ok() ? *v : VerifyResult{};
  };
  d = ref;
  EXPECT_TRUE(check(d).passed);
  d[100] = std::nanf("");
  VerifyResult v = check(d);
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(v.nan_count, 1u);
  d = ref;
  d[7] *= 1.5f;
  v = check(d);
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(v.failures, 1u);
  Buf p(16);
  ASSERT_TRUE(poison_device(p.p, 16).ok());
  float host[4];
  ASSERT_EQ(cudaMemcpy(host, p.p, 16, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_TRUE(std::isnan(host[0]));
}

TEST(Verify, RandomFillIsSeededAndNeverAllZero) {
  TCGEMM_REQUIRE_GPU(80);
  Buf a(4096 * 2), b(4096 * 2);
  ASSERT_TRUE(fill_random_device(a.p, 4096, DType::bf16, -1, 1, 7).ok());
  ASSERT_TRUE(fill_random_device(b.p, 4096, DType::bf16, -1, 1, 7).ok());
  std::vector<uint16_t> ha(4096), hb(4096);
  ASSERT_EQ(cudaMemcpy(ha.data(), a.p, 8192, cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(hb.data(), b.p, 8192, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(ha, hb);
  EXPECT_GT(std::count_if(ha.begin(), ha.end(), [](uint16_t x) { return (x & 0x7fff) != 0; }), 4000);
  // Too narrow a range for e4m3: every element rounds to zero, which must be refused.
  EXPECT_EQ(fill_random_device(a.p, 4096, DType::e4m3, -1e-9, 1e-9, 7).code(),
            StatusCode::invalid_argument);
}
