#include "reference/reference_gemm.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "tcgemm/fp8.hpp"
#include "tcgemm/half.hpp"

namespace tcgemm {

double read_element(DType t, const void* p, int64_t i) {
  switch (t) {
    case DType::f64: return static_cast<const double*>(p)[i];
    case DType::f32:
    case DType::tf32: return static_cast<const float*>(p)[i];
    case DType::f16: return f16_bits_to_float(static_cast<const uint16_t*>(p)[i]);
    case DType::bf16: return bf16_bits_to_float(static_cast<const uint16_t*>(p)[i]);
    case DType::e4m3: return fp8::decode_e4m3(static_cast<const uint8_t*>(p)[i]);
    case DType::e5m2: return fp8::decode_e5m2(static_cast<const uint8_t*>(p)[i]);
    case DType::s8: return static_cast<const int8_t*>(p)[i];
    case DType::s32: return static_cast<const int32_t*>(p)[i];
  }
  return 0.0;
}

template <class I>
static I saturate_int(double v) {
  if (std::isnan(v)) return 0;
  const double r = std::nearbyint(v);  // default rounding mode: nearest even
  if (r <= static_cast<double>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  if (r >= static_cast<double>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  return static_cast<I>(r);
}

void write_element(DType t, void* p, int64_t i, double v) {
  // double -> float rounds to nearest even; the narrower formats then round from that float.
  // For f16/bf16/fp8 that double rounding can differ from one direct rounding only when v is
  // within 2^-29 relative of a tie, far below any tolerance the reference is used with.
  const auto f = static_cast<float>(v);
  switch (t) {
    case DType::f64: static_cast<double*>(p)[i] = v; break;
    case DType::f32:
    case DType::tf32: static_cast<float*>(p)[i] = f; break;
    case DType::f16: static_cast<uint16_t*>(p)[i] = float_to_f16_bits(f); break;
    case DType::bf16: static_cast<uint16_t*>(p)[i] = float_to_bf16_bits(f); break;
    case DType::e4m3: static_cast<uint8_t*>(p)[i] = fp8::encode_e4m3(f, true); break;
    case DType::e5m2: static_cast<uint8_t*>(p)[i] = fp8::encode_e5m2(f, true); break;
    case DType::s8: static_cast<int8_t*>(p)[i] = saturate_int<int8_t>(v); break;
    case DType::s32: static_cast<int32_t*>(p)[i] = saturate_int<int32_t>(v); break;
  }
}

namespace {

// Offset of logical element (r, c) of a stored matrix.
int64_t offset(Layout l, int64_t ld, int64_t r, int64_t c) { return l == Layout::row ? r * ld + c : c * ld + r; }

float round_tf32(float x, Tf32Rounding mode) {
  switch (mode) {
    case Tf32Rounding::nearest_even: return round_to_tf32(x);
    case Tf32Rounding::nearest_away: return round_to_tf32_rna(x);
    case Tf32Rounding::truncate: return truncate_to_tf32(x);
  }
  return x;
}

// Copies an operand into a dense buffer of T where the k index is contiguous: A as M x K
// (outer = i), B as N x K (outer = j); k_is_rows says the stored matrix is K x outer (B).
template <class T>
std::vector<T> pack_k_contiguous(const MatrixDesc& m, StoredExtent e, const void* p, bool k_is_rows,
                                 const ReferenceOptions& opt) {
  const int64_t ld = effective_ld(m, e);
  const int64_t outer = k_is_rows ? e.cols : e.rows, kdim = k_is_rows ? e.rows : e.cols;
  std::vector<T> out(static_cast<std::size_t>(outer * kdim));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t k = 0; k < kdim; ++k) {
      const int64_t off = k_is_rows ? offset(m.layout, ld, k, o) : offset(m.layout, ld, o, k);
      double v = read_element(m.dtype, p, off);
      if (m.dtype == DType::tf32) v = round_tf32(static_cast<float>(v), opt.tf32_rounding);
      out[static_cast<std::size_t>(o * kdim + k)] = static_cast<T>(v);
    }
  return out;
}

void parallel_rows(int64_t m, int threads, auto&& body) {
  unsigned n = threads > 0 ? static_cast<unsigned>(threads) : std::max(1u, std::thread::hardware_concurrency());
  n = static_cast<unsigned>(std::min<int64_t>(n, m));
  if (n <= 1) { body(int64_t{0}, m); return; }
  std::vector<std::thread> pool;
  pool.reserve(n);
  for (unsigned t = 0; t < n; ++t) {
    const int64_t r0 = m * t / n, r1 = m * (t + 1) / n;
    pool.emplace_back([&body, r0, r1] { body(r0, r1); });
  }
  for (auto& th : pool) th.join();
}

// T: the packed operand type (exact for every input dtype), Acc: the accumulator.
template <class T, class Acc>
void run(const GemmDesc& g, const void* A, const void* B, const void* C, void* D, const ReferenceOptions& opt) {
  const std::vector<T> a = pack_k_contiguous<T>(g.a, extent_a(g), A, false, opt);
  const std::vector<T> b = pack_k_contiguous<T>(g.b, extent_b(g), B, true, opt);
  const int64_t ldc = effective_ld(g.c, extent_c(g)), ldd = effective_ld(g.d, extent_c(g));
  const double scale = static_cast<double>(g.alpha) * opt.scale_a * opt.scale_b;
  const bool read_c = g.beta != 0.0f;
  parallel_rows(g.m, opt.threads, [&](int64_t r0, int64_t r1) {
    for (int64_t i = r0; i < r1; ++i) {
      const T* ai = a.data() + i * g.k;
      for (int64_t j = 0; j < g.n; ++j) {
        const T* bj = b.data() + j * g.k;
        Acc acc = 0;
        for (int64_t k = 0; k < g.k; ++k) acc += static_cast<Acc>(ai[k]) * static_cast<Acc>(bj[k]);
        double v = scale * static_cast<double>(acc);
        if (read_c) v += static_cast<double>(g.beta) * read_element(g.c.dtype, C, offset(g.c.layout, ldc, i, j));
        write_element(g.d.dtype, D, offset(g.d.layout, ldd, i, j), v);
      }
    }
  });
}

}  // namespace

Status reference_gemm(const GemmDesc& g, const void* A, const void* B, const void* C, void* D,
                      const ReferenceOptions& opt) {
  if (Status s = validate(g); !s.ok()) return s;
  if (A == nullptr || B == nullptr || D == nullptr)
    return Status::invalid(std::string("reference_gemm: ") + (A == nullptr ? "A" : B == nullptr ? "B" : "D") +
                           " is null");
  if (C == nullptr && g.beta != 0.0f) return Status::invalid("reference_gemm: C is null but beta != 0");
  if (opt.threads < 0) return Status::invalid("reference_gemm: threads must be >= 0 (0 = all cores)");
  try {
    const bool ints = g.a.dtype == DType::s8;
    const bool f64_in = g.a.dtype == DType::f64 || g.b.dtype == DType::f64;
    if (ints) run<int32_t, int64_t>(g, A, B, C, D, opt);
    else if (f64_in) run<double, double>(g, A, B, C, D, opt);
    else if (opt.fp64_accumulate) run<float, double>(g, A, B, C, D, opt);
    else run<float, float>(g, A, B, C, D, opt);
  } catch (const std::bad_alloc&) {
    return {StatusCode::internal, "reference_gemm: out of host memory packing A and B"};
  } catch (const std::system_error& e) {
    return {StatusCode::internal, std::string("reference_gemm: could not start threads: ") + e.what()};
  }
  return Status::success();
}

}  // namespace tcgemm
