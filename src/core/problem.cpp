#include <algorithm>
#include <cstdint>
#include "tcgemm/problem.hpp"

#include <string>

namespace tcgemm {

StoredExtent extent_a(const GemmDesc& g) { return {g.m, g.k}; }
StoredExtent extent_b(const GemmDesc& g) { return {g.k, g.n}; }
StoredExtent extent_c(const GemmDesc& g) { return {g.m, g.n}; }

int64_t effective_ld(const MatrixDesc& m, StoredExtent e) {
  return m.ld == 0 ? tight_ld(e, m.layout) : m.ld;
}

int64_t stored_elements(const MatrixDesc& m, StoredExtent e) {
  const int64_t outer = m.layout == Layout::row ? e.rows : e.cols;
  const int64_t inner = m.layout == Layout::row ? e.cols : e.rows;
  return (outer - 1) * effective_ld(m, e) + inner;
}

static Status check_dim(const char* name, int64_t v) {
  if (v < 1) return Status::invalid(std::string(name) + " must be >= 1 (got " + std::to_string(v) + ")");
  if (v > kMaxDim)
    return Status::invalid(std::string(name) + " must be <= 2^31 (got " + std::to_string(v) + ")");
  return Status::success();
}

static Status check_matrix(const char* name, const MatrixDesc& m, StoredExtent e) {
  const int64_t need = tight_ld(e, m.layout);
  if (m.ld < 0) return Status::invalid(std::string("ld") + name + " must be >= 0 (got " + std::to_string(m.ld) + ")");
  if (m.ld != 0 && m.ld < need)
    return Status::invalid(std::string("ld") + name + " = " + std::to_string(m.ld) + " is smaller than the " +
                           (m.layout == Layout::row ? "row" : "column") + " length " + std::to_string(need) +
                           " of " + name + " (" + std::string(to_string(m.layout)) + "-major)");
  const uint32_t al = m.pointer_alignment;
  if (al == 0 || (al & (al - 1)) != 0)
    return Status::invalid(std::string("alignment of ") + name + " must be a power of two (got " +
                           std::to_string(al) + ")");
  return Status::success();
}

static bool is_float_input(DType t) {
  return t == DType::f32 || t == DType::tf32 || t == DType::f16 || t == DType::bf16 || is_fp8(t) ||
         t == DType::f64;
}

Status validate(const GemmDesc& g) {
  for (auto [name, v] : {std::pair{"m", g.m}, std::pair{"n", g.n}, std::pair{"k", g.k}})
    if (Status s = check_dim(name, v); !s.ok()) return s;
  if (Status s = check_matrix("A", g.a, extent_a(g)); !s.ok()) return s;
  if (Status s = check_matrix("B", g.b, extent_b(g)); !s.ok()) return s;
  if (Status s = check_matrix("C", g.c, extent_c(g)); !s.ok()) return s;
  if (Status s = check_matrix("D", g.d, extent_c(g)); !s.ok()) return s;

  const bool ints = g.a.dtype == DType::s8 || g.b.dtype == DType::s8;
  if (ints) {
    if (g.a.dtype != DType::s8 || g.b.dtype != DType::s8 || g.accumulate != DType::s32)
      return Status::unsupported("integer GEMM needs A=s8, B=s8 and s32 accumulation");
  } else {
    if (!is_float_input(g.a.dtype) || !is_float_input(g.b.dtype))
      return Status::unsupported("A and B must be floating-point (or both s8)");
    const bool a8 = is_fp8(g.a.dtype), b8 = is_fp8(g.b.dtype);
    if (a8 != b8) return Status::unsupported("FP8 A needs FP8 B (e4m3 or e5m2), and the reverse");
    if (!a8 && g.a.dtype != g.b.dtype)
      return Status::unsupported("A and B must have the same dtype (got " + std::string(to_string(g.a.dtype)) +
                                 " and " + std::string(to_string(g.b.dtype)) + ")");
    if (g.accumulate != DType::f32 && g.accumulate != DType::f64)
      return Status::unsupported("floating-point GEMM accumulates in f32 (or f64 for the reference)");
    if (g.c.dtype == DType::s8 || g.c.dtype == DType::s32 || g.d.dtype == DType::s8 || g.d.dtype == DType::s32)
      return Status::unsupported("C and D of a floating-point GEMM must be floating-point");
  }
  return Status::success();
}

uint32_t address_alignment(const void* p) {
  const auto v = reinterpret_cast<std::uintptr_t>(p);
  if (v == 0) return 256;
  return static_cast<uint32_t>(std::min<std::uintptr_t>(v & (~v + 1), 256));
}

}  // namespace tcgemm
