// Every registered kernel against the device reference: each input dtype it serves, all four A/B
// layouts, tails in every dimension, beta with C in each dtype, loose leading dimensions, NaN/Inf
// propagation; and gemm()'s refusal of bad input. TCGEMM_TEST_SMALL=1 keeps sizes <= 127 (for
// compute-sanitizer runs).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gpu/gemm_test_util.cuh"
#include "gpu/gpu_test_util.hpp"
#include "runtime/registry.hpp"
#include "tcgemm/gemm.hpp"

namespace tcgemm::test {
namespace {

bool small_only() {
  const char* v = std::getenv("TCGEMM_TEST_SMALL");
  return v && std::strcmp(v, "1") == 0;
}

bool runs_on_device(const KernelEntry& k) {
  const int sm = gpu_sm();
  return k.family == MmaFamily::wgmma ? sm == 90 : sm >= k.min_sm;
}

DType output_dtype(DType input) {
  return input == DType::f16 || input == DType::bf16 ? input : DType::f32;
}

GemmDesc make_desc(const KernelEntry& k, Layout la, Layout lb, int64_t m, int64_t n, int64_t kk) {
  GemmDesc g;
  g.m = m;
  g.n = n;
  g.k = kk;
  g.a = {k.input, la};
  g.b = {k.input, lb};
  g.c = {output_dtype(k.input), Layout::row};
  g.d = g.c;
  return g;
}

const char* layout_letter(Layout l) { return l == Layout::row ? "r" : "c"; }

// Runs one kernel on fresh buffers and checks it. A refusal by supports() is reported as a skip
// after checking that gemm_with_kernel refuses the same way and leaves D untouched.
void run_and_check(const KernelEntry& k, const GemmDesc& g, uint64_t seed = 1) {
  GemmBuffers buf(g, seed);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const Status s = gemm_with_kernel(k.name, g, buf.a.get(), buf.b.get(), buf.c_or_null(), buf.d.get());
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << k.name;
  if (!s.ok()) {
    ASSERT_TRUE(s.code() == StatusCode::unsupported || s.code() == StatusCode::misaligned) << s.to_string();
    const std::vector<float> d = download_d(g, buf.d.get());
    for (float v : d) ASSERT_TRUE(std::isnan(v)) << "a refused launch wrote D";
    GTEST_SKIP() << k.name << " refuses this problem: " << s.message();
  }
  const Comparison c = compare_with_reference(g, buf.a.get(), buf.b.get(), buf.c_or_null(),
                                              buf.d.get(), tolerance_for(g));
  EXPECT_TRUE(c.ok) << k.name << " " << c.message;
}

// --- every kernel x layouts x sizes ------------------------------------------------------------

struct Case {
  std::string kernel;
  Layout la, lb;
  int64_t m, n, k;
};

std::vector<Case> all_cases() {
  struct Size { int64_t m, n, k; bool large; };
  std::vector<Size> sizes;
  for (int64_t s : {1, 7, 33, 64, 127, 1000}) sizes.push_back({s, s, s, false});
  sizes.push_back({33, 1000, 7, false});
  sizes.push_back({4097, 64, 129, false});
  sizes.push_back({2048, 2048, 1024, true});
  const bool small = small_only();
  std::vector<Case> cases;
  for (const KernelEntry& k : kernel_registry()) {
    const bool naive = std::string_view(k.name).find("naive") != std::string_view::npos;
    const bool tensor_cores = k.family != MmaFamily::simt;
    for (Layout la : {Layout::row, Layout::column})
      for (Layout lb : {Layout::row, Layout::column})
        for (const Size& s : sizes) {
          const int64_t biggest = std::max({s.m, s.n, s.k});
          if (small && biggest > 127) continue;
          if (naive && biggest > 1000) continue;  // the naive rungs are slow at scale
          if (s.large && !tensor_cores) continue;
          cases.push_back({std::string(k.name), la, lb, s.m, s.n, s.k});
        }
  }
  return cases;
}

class KernelSweep : public ::testing::TestWithParam<Case> {};

TEST_P(KernelSweep, MatchesReference) {
  TCGEMM_REQUIRE_GPU(80);
  const Case& c = GetParam();
  const KernelEntry* k = find_kernel(c.kernel);
  ASSERT_NE(k, nullptr);
  if (!runs_on_device(*k)) GTEST_SKIP() << c.kernel << " does not run on sm_" << gpu_sm();
  const GemmDesc tight = make_desc(*k, c.la, c.lb, c.m, c.n, c.k);
  GemmDesc g = tight;
  if (k->supports(tight).code() == StatusCode::misaligned) {
    // The kernel needs 16-byte row starts: it must refuse the tight lds, and still get the same
    // M/N/K tails right (partial 16-byte chunks included) once the lds are padded.
    GemmBuffers buf(tight);
    EXPECT_FALSE(gemm_with_kernel(k->name, tight, buf.a.get(), buf.b.get(), nullptr, buf.d.get()).ok());
    auto padded = [](int64_t ld) { return (ld + 15) / 16 * 16; };
    g.a.ld = padded(tight_ld(extent_a(g), g.a.layout));
    g.b.ld = padded(tight_ld(extent_b(g), g.b.layout));
    g.d.ld = padded(tight_ld(extent_c(g), g.d.layout));
  }
  run_and_check(*k, g);
}

INSTANTIATE_TEST_SUITE_P(
    AllKernels, KernelSweep, ::testing::ValuesIn(all_cases()),
    [](const ::testing::TestParamInfo<Case>& info) {
      const Case& c = info.param;
      return c.kernel + "_" + layout_letter(c.la) + layout_letter(c.lb) + "_" +
             std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k);
    });

// --- per-kernel properties ---------------------------------------------------------------------

std::vector<std::string> kernel_names() {
  std::vector<std::string> v;
  for (const KernelEntry& k : kernel_registry()) v.emplace_back(k.name);
  return v;
}

class KernelProperty : public ::testing::TestWithParam<std::string> {
 protected:
  const KernelEntry& kernel() const { return *find_kernel(GetParam()); }
  // Multiples of 16 in m, n, k so even the naive WMMA rung takes them.
  static constexpr int64_t kM = 96, kN = 80, kK = 48;
};

#define TCGEMM_REQUIRE_KERNEL()                                                         \
  TCGEMM_REQUIRE_GPU(80);                                                               \
  if (!runs_on_device(kernel())) GTEST_SKIP() << GetParam() << " does not run here"

TEST_P(KernelProperty, BetaWithCInEachDtype) {
  TCGEMM_REQUIRE_KERNEL();
  for (DType out : {DType::f32, DType::f16, DType::bf16}) {
    for (Layout lc : {Layout::row, Layout::column}) {
      SCOPED_TRACE(std::string("C/D dtype ") + std::string(to_string(out)) + ", " +
                   std::string(to_string(lc)) + "-major");
      GemmDesc g = make_desc(kernel(), Layout::row, Layout::column, kM, kN, kK);
      g.c = {out, lc};
      g.d = {out, lc == Layout::row ? Layout::column : Layout::row};
      g.alpha = 0.75f;
      g.beta = -0.5f;
      run_and_check(kernel(), g, 7);
    }
  }
}

TEST_P(KernelProperty, LeadingDimensionsLargerThanTight) {
  TCGEMM_REQUIRE_KERNEL();
  // +8 keeps 16-byte row starts (every kernel should take it); +3 breaks them (some refuse).
  for (int64_t extra : {8, 3}) {
    for (Layout l : {Layout::row, Layout::column}) {
      SCOPED_TRACE("ld = tight + " + std::to_string(extra) + ", " + std::string(to_string(l)));
      GemmDesc g = make_desc(kernel(), l, l, kM, kN, kK);
      g.a.ld = tight_ld(extent_a(g), l) + extra;
      g.b.ld = tight_ld(extent_b(g), l) + extra * 2;
      g.d.ld = tight_ld(extent_c(g), g.d.layout) + extra;
      // The ladder kernels (general: any shape) all take 16-byte row starts; a wgmma kernel, or one
      // built for sm_90a alone for a kind of shape (the tiny kernel), may have other limits.
      const bool ladder = kernel().family != MmaFamily::wgmma && kernel().min_sm < 90;
      if (extra == 8 && (ladder || kernel().supports(g).ok())) {
        GemmBuffers buf(g, 11);
        const Status s = gemm_with_kernel(kernel().name, g, buf.a.get(), buf.b.get(), nullptr, buf.d.get());
        ASSERT_TRUE(s.ok()) << s.to_string();
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        const Comparison c = compare_with_reference(g, buf.a.get(), buf.b.get(), nullptr,
                                                    buf.d.get(), tolerance_for(g));
        EXPECT_TRUE(c.ok) << c.message;
      } else if (extra != 8) {
        const Status ok_or_refused = kernel().supports(g);
        if (!ok_or_refused.ok()) continue;
        run_and_check(kernel(), g, 11);
      }
    }
  }
}

TEST_P(KernelProperty, NanAndInfPropagate) {
  TCGEMM_REQUIRE_KERNEL();
  // The first of these shapes the kernel takes: aligned (most kernels), an odd K so the tight ld
  // breaks TMA's rule (repack paths), and long K on one tile (split-K paths, with and without repack).
  GemmDesc g;
  std::string refusals;
  for (int64_t k : {kK, kK + 1, int64_t{16384}, int64_t{16385}}) {
    g = make_desc(kernel(), Layout::row, Layout::column, kM, kN, k);
    g.d = {DType::f32, Layout::row};
    const Status why = kernel().supports(g);
    if (why.ok()) break;
    refusals += "\n  k=" + std::to_string(k) + ": " + why.message();
    g.k = 0;
  }
  if (g.k == 0) GTEST_SKIP() << kernel().name << " takes none of the NaN/Inf shapes:" << refusals;
  GemmBuffers buf(g, 5);
  constexpr int64_t kNanRow = 5, kNanK = 3, kInfK = 7, kInfCol = 11;
  set_element(buf.a.get(), kNanRow * g.k + kNanK, g.a.dtype, std::nanf(""));           // A(5, 3)
  set_element(buf.b.get(), kInfCol * g.k + kInfK, g.b.dtype, INFINITY);                // B(7, 11)
  const Status s = gemm_with_kernel(kernel().name, g, buf.a.get(), buf.b.get(), nullptr, buf.d.get());
  ASSERT_TRUE(s.ok()) << s.to_string();
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::vector<float> d = download_d(g, buf.d.get());
  int bad = 0;
  for (int64_t r = 0; r < g.m; ++r)
    for (int64_t c = 0; c < g.n; ++c) {
      const float v = d[r * g.n + c];
      const bool good = r == kNanRow ? std::isnan(v) : c == kInfCol ? std::isinf(v) : std::isfinite(v);
      if (!good && bad++ < 8)
        ADD_FAILURE() << "D(" << r << "," << c << ") = " << v
                      << (r == kNanRow ? ", expected NaN (row of the NaN in A)"
                          : c == kInfCol ? ", expected Inf (column of the Inf in B)" : ", expected finite");
    }
  EXPECT_EQ(bad, 0);
}

INSTANTIATE_TEST_SUITE_P(AllKernels, KernelProperty, ::testing::ValuesIn(kernel_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// --- gemm(): dispatch and refusal ---------------------------------------------------------------

GemmDesc bf16_desc(int64_t m, int64_t n, int64_t k) {
  GemmDesc g;
  g.m = m;
  g.n = n;
  g.k = k;
  g.a = {DType::bf16, Layout::row};
  g.b = {DType::bf16, Layout::column};
  g.c = g.d = {DType::bf16, Layout::row};
  return g;
}

// A bad call returns a Status and leaves D (poisoned with NaN) exactly as it was.
void expect_refused(const GemmDesc& g, const void* A, const void* B, const void* C, void* D,
                    const GemmDesc& d_shape) {
  const Status s = gemm(g, A, B, C, D);
  EXPECT_EQ(s.code(), StatusCode::invalid_argument) << s.to_string();
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (float v : download_d(d_shape, D)) ASSERT_TRUE(std::isnan(v)) << "gemm() wrote D after refusing";
}

TEST(Gemm, RejectsBadInputAndWritesNothing) {
  TCGEMM_REQUIRE_GPU(80);
  const GemmDesc good = bf16_desc(64, 48, 32);
  GemmBuffers buf(good);
  GemmDesc g = good;
  g.m = 0;
  expect_refused(g, buf.a.get(), buf.b.get(), nullptr, buf.d.get(), good);
  expect_refused(good, nullptr, buf.b.get(), nullptr, buf.d.get(), good);
  expect_refused(good, buf.a.get(), nullptr, nullptr, buf.d.get(), good);
  g = good;
  g.a.ld = good.k - 1;
  expect_refused(g, buf.a.get(), buf.b.get(), nullptr, buf.d.get(), good);
  g = good;
  g.beta = 1.0f;
  expect_refused(g, buf.a.get(), buf.b.get(), nullptr, buf.d.get(), good);  // beta != 0, C null
  EXPECT_EQ(gemm(good, buf.a.get(), buf.b.get(), nullptr, nullptr).code(), StatusCode::invalid_argument);
  // D aliasing A: same element type and size, so the call would otherwise be valid.
  GemmDesc alias = good;
  alias.k = alias.n;
  GemmBuffers abuf(alias);
  EXPECT_EQ(gemm(alias, abuf.a.get(), abuf.b.get(), nullptr, abuf.a.get()).code(),
            StatusCode::invalid_argument);
  EXPECT_EQ(gemm_with_kernel("no_such_kernel", good, buf.a.get(), buf.b.get(), nullptr, buf.d.get()).code(),
            StatusCode::invalid_argument);
}

TEST(Gemm, PicksTheHighestRungThatFits) {
  TCGEMM_REQUIRE_GPU(80);
  Result<std::string_view> aligned = pick_kernel(bf16_desc(4096, 4096, 4096));
  ASSERT_TRUE(aligned.ok()) << aligned.status().to_string();
  const KernelEntry* k = find_kernel(*aligned);
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(k->family == MmaFamily::mma_sync || k->family == MmaFamily::wgmma) << *aligned;

  // An odd ld breaks 16-byte copies: the pick drops to a rung that stages element by element.
  GemmDesc odd = bf16_desc(4097, 4097, 4097);
  Result<std::string_view> unaligned = pick_kernel(odd);
  ASSERT_TRUE(unaligned.ok()) << unaligned.status().to_string();
  EXPECT_TRUE(find_kernel(*unaligned)->supports(odd).ok());

  GemmDesc f32 = bf16_desc(256, 256, 256);
  f32.a.dtype = f32.b.dtype = f32.c.dtype = f32.d.dtype = DType::f32;
  Result<std::string_view> simt = pick_kernel(f32);
  ASSERT_TRUE(simt.ok());
  EXPECT_EQ(find_kernel(*simt)->family, MmaFamily::simt) << "f32 inputs stay off the Tensor Cores";
}

TEST(Gemm, DefaultPathIsCorrectOnUnalignedShapes) {
  TCGEMM_REQUIRE_GPU(80);
  for (DType t : {DType::bf16, DType::f16, DType::tf32, DType::f32}) {
    SCOPED_TRACE(std::string(to_string(t)));
    GemmDesc g = bf16_desc(small_only() ? 77 : 4097, small_only() ? 33 : 64, small_only() ? 65 : 129);
    g.a.dtype = g.b.dtype = t;
    g.c.dtype = g.d.dtype = output_dtype(t);
    GemmBuffers buf(g, 3);
    const Status s = gemm(g, buf.a.get(), buf.b.get(), nullptr, buf.d.get());
    ASSERT_TRUE(s.ok()) << s.to_string();
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const Comparison c = compare_with_reference(g, buf.a.get(), buf.b.get(), nullptr, buf.d.get(),
                                                tolerance_for(g));
    EXPECT_TRUE(c.ok) << c.message;
  }
}

}  // namespace
}  // namespace tcgemm::test
