#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "reference/reference_gemm.hpp"
#include "tcgemm/fp8.hpp"
#include "tcgemm/half.hpp"

using namespace tcgemm;

namespace {

// A stored operand: logical values (already representable in the dtype) and their bytes in the
// layout and leading dimension the desc names. Padding past each row/column holds NaN (or 0x7F
// codes), so reading it by mistake shows up in the result.
struct Operand {
  MatrixDesc desc;
  StoredExtent ext;
  std::vector<double> logical;  // row-major rows x cols
  std::vector<unsigned char> bytes;

  Operand(MatrixDesc d, StoredExtent e) : desc(d), ext(e), logical(static_cast<std::size_t>(e.rows * e.cols)) {
    const int64_t ld = effective_ld(d, e);
    const int64_t outer = d.layout == Layout::row ? e.rows : e.cols;
    bytes.resize(static_cast<std::size_t>(outer * ld) * dtype_bytes(d.dtype));
    const int64_t total = outer * ld;
    for (int64_t i = 0; i < total; ++i)
      write_element(d.dtype, bytes.data(), i, std::numeric_limits<double>::quiet_NaN());
  }
  int64_t offset(int64_t r, int64_t c) const {
    const int64_t ld = effective_ld(desc, ext);
    return desc.layout == Layout::row ? r * ld + c : c * ld + r;
  }
  void set(int64_t r, int64_t c, double v) {
    write_element(desc.dtype, bytes.data(), offset(r, c), v);
    logical[static_cast<std::size_t>(r * ext.cols + c)] = read_element(desc.dtype, bytes.data(), offset(r, c));
  }
  double at(int64_t r, int64_t c) const { return logical[static_cast<std::size_t>(r * ext.cols + c)]; }
  double stored(int64_t r, int64_t c) const { return read_element(desc.dtype, bytes.data(), offset(r, c)); }
  void fill_random(std::mt19937& rng, double lo = -2, double hi = 2) {
    std::uniform_real_distribution<double> d(lo, hi);
    const bool ints = desc.dtype == DType::s8 || desc.dtype == DType::s32;
    for (int64_t r = 0; r < ext.rows; ++r)
      for (int64_t c = 0; c < ext.cols; ++c) set(r, c, ints ? std::round(d(rng) * 60) : d(rng));
  }
};

// The plain triple loop over logical values: the independent answer.
std::vector<double> naive(const GemmDesc& g, const Operand& a, const Operand& b, const Operand* c, double scale_ab = 1) {
  std::vector<double> out(static_cast<std::size_t>(g.m * g.n));
  for (int64_t i = 0; i < g.m; ++i)
    for (int64_t j = 0; j < g.n; ++j) {
      double acc = 0;
      for (int64_t k = 0; k < g.k; ++k) acc += a.at(i, k) * b.at(k, j);
      double v = g.alpha * scale_ab * acc;
      if (g.beta != 0) v += g.beta * c->at(i, j);
      out[static_cast<std::size_t>(i * g.n + j)] = v;
    }
  return out;
}

GemmDesc desc(int64_t m, int64_t n, int64_t k, DType in, DType out) {
  GemmDesc g;
  g.m = m; g.n = n; g.k = k;
  g.a = {in, Layout::row};
  g.b = {in, Layout::column};
  g.c = {out, Layout::row};
  g.d = {out, Layout::row};
  g.accumulate = in == DType::s8 ? DType::s32 : DType::f32;
  return g;
}

}  // namespace

TEST(ReferenceGemm, HandComputed2x2) {
  GemmDesc g = desc(2, 2, 2, DType::f32, DType::f32);
  g.b.layout = Layout::row;
  g.alpha = 2.f;
  g.beta = 1.f;
  const float A[] = {1, 2, 3, 4}, B[] = {5, 6, 7, 8}, C[] = {1, 1, 1, -100};
  float D[4] = {};
  ASSERT_TRUE(reference_gemm(g, A, B, C, D).ok());
  // A*B = [[19, 22], [43, 50]]
  EXPECT_EQ(D[0], 39.f);
  EXPECT_EQ(D[1], 45.f);
  EXPECT_EQ(D[2], 87.f);
  EXPECT_EQ(D[3], 0.f);
  // The same B read column-major is B^T: A*B^T = [[17, 23], [39, 53]].
  g.b.layout = Layout::column;
  g.beta = 0.f;
  ASSERT_TRUE(reference_gemm(g, A, B, nullptr, D).ok());
  EXPECT_EQ(D[0], 34.f);
  EXPECT_EQ(D[1], 46.f);
  EXPECT_EQ(D[2], 78.f);
  EXPECT_EQ(D[3], 106.f);
}

// Every layout of A, B, C and D, padded leading dimensions, several dtypes.
TEST(ReferenceGemm, EveryLayoutAndDtypeMatchesNaiveLoop) {
  std::mt19937 rng(7);
  const int64_t m = 13, n = 9, k = 21;
  for (DType in : {DType::f32, DType::f16, DType::bf16, DType::e4m3, DType::f64})
    for (int layouts = 0; layouts < 16; ++layouts) {
      GemmDesc g = desc(m, n, k, in, DType::f32);
      auto pick = [&](int bit) { return (layouts >> bit) & 1 ? Layout::column : Layout::row; };
      g.a.layout = pick(0); g.b.layout = pick(1); g.c.layout = pick(2); g.d.layout = pick(3);
      g.a.ld = tight_ld(extent_a(g), g.a.layout) + 3;
      g.b.ld = tight_ld(extent_b(g), g.b.layout) + 1;
      g.c.ld = tight_ld(extent_c(g), g.c.layout) + 5;
      g.d.ld = tight_ld(extent_c(g), g.d.layout) + 2;
      g.alpha = 0.75f;
      g.beta = -1.5f;
      Operand a(g.a, extent_a(g)), b(g.b, extent_b(g)), c(g.c, extent_c(g)), d(g.d, extent_c(g));
      a.fill_random(rng); b.fill_random(rng); c.fill_random(rng);
      ReferenceOptions opt;
      opt.threads = 3;
      ASSERT_TRUE(reference_gemm(g, a.bytes.data(), b.bytes.data(), c.bytes.data(), d.bytes.data(), opt).ok());
      const auto want = naive(g, a, b, &c);
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j)
          ASSERT_EQ(d.stored(i, j), static_cast<float>(want[static_cast<std::size_t>(i * n + j)]))
              << to_string(in) << " layouts " << layouts << " at " << i << "," << j;
      // The padding of D was not written.
      const int64_t outer = g.d.layout == Layout::row ? m : n, inner = g.d.layout == Layout::row ? n : m;
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t p = inner; p < g.d.ld; ++p)
          ASSERT_TRUE(std::isnan(read_element(DType::f32, d.bytes.data(), o * g.d.ld + p)));
    }
}

TEST(ReferenceGemm, NarrowOutputsRoundOnce) {
  std::mt19937 rng(11);
  for (DType out : {DType::f16, DType::bf16, DType::f64}) {
    GemmDesc g = desc(5, 7, 33, DType::bf16, out);
    g.d.layout = Layout::column;
    Operand a(g.a, extent_a(g)), b(g.b, extent_b(g)), d(g.d, extent_c(g));
    a.fill_random(rng); b.fill_random(rng);
    ASSERT_TRUE(reference_gemm(g, a.bytes.data(), b.bytes.data(), nullptr, d.bytes.data()).ok());
    const auto want = naive(g, a, b, nullptr);
    for (int64_t i = 0; i < g.m; ++i)
      for (int64_t j = 0; j < g.n; ++j) {
        const double w = want[static_cast<std::size_t>(i * g.n + j)];
        const double expect = out == DType::f64 ? w
                              : out == DType::f16 ? f16_bits_to_float(float_to_f16_bits(static_cast<float>(w)))
                                                  : bf16_bits_to_float(float_to_bf16_bits(static_cast<float>(w)));
        ASSERT_EQ(d.stored(i, j), expect) << to_string(out);
      }
  }
}

TEST(ReferenceGemm, Fp8InputsWithDequantScales) {
  // E4M3 A times E5M2 B, each with the per-tensor scale_inv a TransformerEngine GEMM would get.
  GemmDesc g = desc(4, 6, 64, DType::e4m3, DType::f32);
  g.b.dtype = DType::e5m2;
  std::mt19937 rng(5);
  Operand a(g.a, extent_a(g)), b(g.b, extent_b(g)), d(g.d, extent_c(g));
  a.fill_random(rng, -448, 448);
  b.fill_random(rng, -1000, 1000);
  ReferenceOptions opt;
  opt.scale_a = 1.f / 64;
  opt.scale_b = 0.5f;
  ASSERT_TRUE(reference_gemm(g, a.bytes.data(), b.bytes.data(), nullptr, d.bytes.data(), opt).ok());
  const auto want = naive(g, a, b, nullptr, 1.0 / 128);
  for (int64_t i = 0; i < g.m; ++i)
    for (int64_t j = 0; j < g.n; ++j) ASSERT_EQ(d.stored(i, j), static_cast<float>(want[static_cast<std::size_t>(i * g.n + j)]));
  // And a hand-checked element: codes 0x38 (1.0) and 0x40 (2.0) against 0x3C (1.0) and 0x40 (2.0).
  GemmDesc h = desc(1, 1, 2, DType::e4m3, DType::f32);
  h.b.dtype = DType::e5m2;
  const uint8_t A[] = {0x38, 0x40}, B[] = {0x3C, 0x40};
  float D = 0;
  ASSERT_TRUE(reference_gemm(h, A, B, nullptr, &D, opt).ok());
  EXPECT_EQ(D, (1.f * 1.f + 2.f * 2.f) / 128);
}

TEST(ReferenceGemm, Int8AccumulatesExactlyInS32) {
  GemmDesc g = desc(3, 4, 1000, DType::s8, DType::s32);
  g.beta = 1.f;
  Operand a(g.a, extent_a(g)), b(g.b, extent_b(g)), c(g.c, extent_c(g)), d(g.d, extent_c(g));
  for (int64_t i = 0; i < g.m; ++i)
    for (int64_t kk = 0; kk < g.k; ++kk) a.set(i, kk, i == 0 ? -128 : 127);
  for (int64_t kk = 0; kk < g.k; ++kk)
    for (int64_t j = 0; j < g.n; ++j) b.set(kk, j, j == 0 ? -128 : 127);
  for (int64_t i = 0; i < g.m; ++i)
    for (int64_t j = 0; j < g.n; ++j) c.set(i, j, 7);
  ASSERT_TRUE(reference_gemm(g, a.bytes.data(), b.bytes.data(), c.bytes.data(), d.bytes.data()).ok());
  EXPECT_EQ(d.stored(0, 0), 128.0 * 128 * 1000 + 7);
  EXPECT_EQ(d.stored(0, 1), -128.0 * 127 * 1000 + 7);
  EXPECT_EQ(d.stored(2, 3), 127.0 * 127 * 1000 + 7);
  std::mt19937 rng(9);
  a.fill_random(rng); b.fill_random(rng); c.fill_random(rng);
  ASSERT_TRUE(reference_gemm(g, a.bytes.data(), b.bytes.data(), c.bytes.data(), d.bytes.data()).ok());
  const auto want = naive(g, a, b, &c);
  for (int64_t i = 0; i < g.m; ++i)
    for (int64_t j = 0; j < g.n; ++j) ASSERT_EQ(d.stored(i, j), want[static_cast<std::size_t>(i * g.n + j)]);
}

TEST(ReferenceGemm, Tf32InputsAreRoundedFirst) {
  GemmDesc g = desc(1, 1, 1, DType::tf32, DType::f32);
  const float A = 1.f + 0x1p-11f, B = 1.f;  // a tie at TF32 precision
  float D = 0;
  ReferenceOptions opt;
  ASSERT_TRUE(reference_gemm(g, &A, &B, nullptr, &D, opt).ok());
  EXPECT_EQ(D, 1.f);
  opt.tf32_rounding = Tf32Rounding::nearest_away;
  ASSERT_TRUE(reference_gemm(g, &A, &B, nullptr, &D, opt).ok());
  EXPECT_EQ(D, 1.f + 0x1p-10f);
  g.a.dtype = g.b.dtype = DType::f32;  // plain f32 keeps every bit
  ASSERT_TRUE(reference_gemm(g, &A, &B, nullptr, &D, opt).ok());
  EXPECT_EQ(D, A);
}

TEST(ReferenceGemm, AccumulatorWidthIsAChoice) {
  GemmDesc g = desc(1, 1, 3, DType::f32, DType::f32);
  const float A[] = {1e8f, 1.f, -1e8f}, B[] = {1.f, 1.f, 1.f};
  float D = -1;
  ReferenceOptions opt;
  ASSERT_TRUE(reference_gemm(g, A, B, nullptr, &D, opt).ok());
  EXPECT_EQ(D, 1.f);
  opt.fp64_accumulate = false;  // 1e8 + 1 == 1e8 in float
  ASSERT_TRUE(reference_gemm(g, A, B, nullptr, &D, opt).ok());
  EXPECT_EQ(D, 0.f);
}

TEST(ReferenceGemm, ThreadCountDoesNotChangeResult) {
  GemmDesc g = desc(37, 23, 19, DType::f16, DType::f32);
  std::mt19937 rng(3);
  Operand a(g.a, extent_a(g)), b(g.b, extent_b(g)), d1(g.d, extent_c(g)), d2(g.d, extent_c(g));
  a.fill_random(rng); b.fill_random(rng);
  ReferenceOptions one, many;
  one.threads = 1;
  many.threads = 64;  // more threads than rows of some chunks: clamps to m
  many.fp64_accumulate = one.fp64_accumulate = false;
  ASSERT_TRUE(reference_gemm(g, a.bytes.data(), b.bytes.data(), nullptr, d1.bytes.data(), one).ok());
  ASSERT_TRUE(reference_gemm(g, a.bytes.data(), b.bytes.data(), nullptr, d2.bytes.data(), many).ok());
  EXPECT_EQ(0, std::memcmp(d1.bytes.data(), d2.bytes.data(), d1.bytes.size()));
}

TEST(ReferenceGemm, BadInputGivesStatus) {
  GemmDesc g = desc(2, 2, 2, DType::f32, DType::f32);
  float A[4] = {}, B[4] = {}, C[4] = {}, D[4] = {};
  EXPECT_TRUE(reference_gemm(g, A, B, nullptr, D).ok());
  EXPECT_EQ(reference_gemm(g, nullptr, B, C, D).code(), StatusCode::invalid_argument);
  EXPECT_FALSE(reference_gemm(g, A, B, C, nullptr).ok());
  g.beta = 1.f;
  Status s = reference_gemm(g, A, B, nullptr, D);
  EXPECT_EQ(s.code(), StatusCode::invalid_argument);
  EXPECT_NE(s.message().find("C is null"), std::string::npos) << s.message();
  g.beta = 0.f;
  g.k = 0;
  EXPECT_FALSE(reference_gemm(g, A, B, C, D).ok());
  g.k = 2;
  g.d.ld = 1;
  EXPECT_NE(reference_gemm(g, A, B, C, D).message().find("ldD"), std::string::npos);
  g.d.ld = 0;
  g.b.dtype = DType::bf16;
  EXPECT_EQ(reference_gemm(g, A, B, C, D).code(), StatusCode::unsupported);
  g.b.dtype = DType::f32;
  ReferenceOptions opt;
  opt.threads = -2;
  EXPECT_FALSE(reference_gemm(g, A, B, C, D, opt).ok());
}
