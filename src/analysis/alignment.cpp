// The alignment record: every operand checked against the rule of every MMA family, and the
// one family the problem gets. Rules (PTX ISA, CUDA programming guide):
//   wgmma + TMA (sm_90 only): operands arrive by TMA, whose global base must be 16-byte aligned
//     and whose strides must be multiples of 16 bytes; tf32 and 8-bit operands must be K-major
//     (wgmma transposes only 16-bit types in shared memory).
//   mma.sync (sm_80+): operands staged by cp.async; 16-byte copies need a 16-byte-aligned base
//     and ld*bytes % 16 == 0, otherwise narrower copies still work, slower.
//   WMMA: load_matrix_sync from global needs a 256-bit-aligned pointer and ldm a multiple of
//     16 bytes; a kernel staging through shared memory has no such rule.
//   SIMT: no rule.
#include <algorithm>
#include <string>

#include "tcgemm/analysis.hpp"

namespace tcgemm {
namespace {

std::string bytes_str(int64_t v) { return std::to_string(v) + " B"; }

OperandCheck check_operand(const char* name, const MatrixDesc& m, StoredExtent e, uint32_t base_align,
                           int64_t stride_multiple, bool must_be_k_major, bool is_k_major) {
  OperandCheck c;
  c.ld = effective_ld(m, e);
  c.ld_bytes = c.ld * static_cast<int64_t>(dtype_bytes(m.dtype));
  c.pointer_alignment = m.pointer_alignment;
  std::string why;
  if (m.pointer_alignment < base_align)
    why += std::string(name) + " base pointer is " + std::to_string(m.pointer_alignment) +
           "-byte aligned, needs " + std::to_string(base_align) + "; ";
  // A single row/column (one stride never taken) has no stride rule.
  const int64_t strided_extent = m.layout == Layout::row ? e.rows : e.cols;
  if (strided_extent > 1 && c.ld_bytes % stride_multiple != 0)
    why += std::string(name) + " ld=" + std::to_string(c.ld) + " is " + bytes_str(c.ld_bytes) +
           ", not a multiple of " + std::to_string(stride_multiple) + " B; ";
  if (must_be_k_major && !is_k_major)
    why += std::string(name) + " must be K-major for " + std::string(to_string(m.dtype)) +
           " (only 16-bit types are transposed in shared memory); ";
  if (why.empty()) {
    c.reason = std::string(name) + " ld=" + std::to_string(c.ld) + " (" + bytes_str(c.ld_bytes) +
               "), base " + std::to_string(m.pointer_alignment) + "-byte aligned: ok";
  } else {
    c.ok = false;
    why.resize(why.size() - 2);
    c.reason = why;
  }
  return c;
}

bool is_16bit(DType t) { return t == DType::f16 || t == DType::bf16; }

// NOTES: legal for TMA, but a pitch 16 bytes past a multiple of 128 ran tcgemm's TMA kernels 23-64%
// slower on the H200 and cuBLAS up to 31% (bench/NOTES.md, session 14, run 149: 1024x1024x8192 at
// ld 8200 60.0 us against 36.6 at 8192 or 8256). Other pitches off 128 were not all measured (+32
// bytes cost 4%), so only this one is named.
void note_tma_pitch(OperandCheck& c, const MatrixDesc& m, StoredExtent e) {
  const int64_t strided_extent = m.layout == Layout::row ? e.rows : e.cols;
  if (!c.ok || strided_extent <= 1 || c.ld_bytes % 128 != 16) return;
  c.reason += "; but a pitch 16 B past a multiple of 128 B measured 23-64% slower through TMA (ld rounded up to " +
              std::to_string(128 / static_cast<int64_t>(dtype_bytes(m.dtype))) + " elements avoids it)";
}

// Whether the device has the instruction for this input type at all.
bool family_available(MmaFamily f, DType t, const DeviceProfile& d, std::string& why) {
  const int sm = d.cc_major * 10 + d.cc_minor;
  switch (f) {
    case MmaFamily::simt:
      return true;
    case MmaFamily::wgmma:
      if (d.cc_major != 9) {
        why = "wgmma exists only on sm_90 (Hopper); this device is sm_" + std::to_string(sm);
        return false;
      }
      if (!(is_16bit(t) || t == DType::tf32 || is_fp8(t) || t == DType::s8)) {
        why = "wgmma has no " + std::string(to_string(t)) + " form";
        return false;
      }
      return true;
    case MmaFamily::mma_sync:
    case MmaFamily::wmma: {
      if (sm < 80) { why = "needs sm_80 or newer"; return false; }
      if (is_fp8(t) && (f == MmaFamily::wmma || sm < 89)) {
        why = f == MmaFamily::wmma ? "WMMA has no FP8 form" : "FP8 mma.sync needs sm_89 or newer";
        return false;
      }
      if (!(is_16bit(t) || t == DType::tf32 || is_fp8(t) || t == DType::s8)) {
        why = std::string(to_string(t)) + " inputs do not run on Tensor Cores" +
              (t == DType::f32 ? " (declare them tf32 to use them)" : "");
        return false;
      }
      return true;
    }
  }
  return false;
}

FamilyCheck check_family(MmaFamily f, const GemmDesc& g, const DeviceProfile& d) {
  FamilyCheck fc;
  fc.family = f;
  std::string why;
  fc.available = family_available(f, g.a.dtype, d, why);
  const bool a_kmajor = g.a.layout == Layout::row, b_kmajor = g.b.layout == Layout::column;
  switch (f) {
    case MmaFamily::wgmma: {
      const bool k_major_only = !is_16bit(g.a.dtype);
      fc.a = check_operand("A", g.a, extent_a(g), 16, 16, k_major_only, a_kmajor);
      fc.b = check_operand("B", g.b, extent_b(g), 16, 16, k_major_only, b_kmajor);
      fc.c = check_operand("C/D", g.d, extent_c(g), 1, 1, false, true);
      fc.c.reason = "C/D written by a predicated epilogue: any alignment";
      note_tma_pitch(fc.a, g.a, extent_a(g));
      note_tma_pitch(fc.b, g.b, extent_b(g));
      break;
    }
    case MmaFamily::mma_sync:
      fc.a = check_operand("A", g.a, extent_a(g), 16, 16, false, true);
      fc.b = check_operand("B", g.b, extent_b(g), 16, 16, false, true);
      fc.c = check_operand("C/D", g.d, extent_c(g), 1, 1, false, true);
      fc.c.reason = "C/D written by a predicated epilogue: any alignment";
      break;
    case MmaFamily::wmma:
      fc.a = check_operand("A", g.a, extent_a(g), 32, 16, false, true);
      fc.b = check_operand("B", g.b, extent_b(g), 32, 16, false, true);
      fc.c = check_operand("C/D", g.d, extent_c(g), 32, 16, false, true);
      break;
    case MmaFamily::simt:
      fc.a = fc.b = fc.c = OperandCheck{};
      fc.a.reason = fc.b.reason = fc.c.reason = "no alignment rule";
      break;
  }
  const bool operands_ok = fc.a.ok && fc.b.ok && fc.c.ok;
  if (!fc.available) {
    fc.reason = why;
  } else if (f == MmaFamily::mma_sync) {
    // Staged through cp.async: misalignment narrows the copies, it does not disqualify.
    fc.eligible = true;
    fc.reason = operands_ok ? "16-byte cp.async copies for A and B"
                            : "eligible with narrower cp.async copies (" + (fc.a.ok ? fc.b.reason : fc.a.reason) + ")";
  } else {
    fc.eligible = operands_ok;
    fc.reason = operands_ok ? "all operands satisfy the rule"
                            : (!fc.a.ok ? fc.a.reason : !fc.b.ok ? fc.b.reason : fc.c.reason);
  }
  return fc;
}

}  // namespace

const FamilyCheck& family_check(const AlignmentRecord& r, MmaFamily f) {
  for (const FamilyCheck& fc : r.families)
    if (fc.family == f) return fc;
  return r.families.back();
}

AlignmentRecord alignment_record(const GemmDesc& g, const DeviceProfile& d) {
  AlignmentRecord r;
  for (MmaFamily f : {MmaFamily::wgmma, MmaFamily::mma_sync, MmaFamily::wmma, MmaFamily::simt})
    r.families.push_back(check_family(f, g, d));

  const FamilyCheck& wg = family_check(r, MmaFamily::wgmma);
  const FamilyCheck& ms = family_check(r, MmaFamily::mma_sync);
  if (wg.eligible) {
    r.chosen = MmaFamily::wgmma;
    r.reason = "wgmma (HGMMA/QGMMA): sm_90, " + std::string(to_string(g.a.dtype)) +
               " inputs, A and B meet TMA's 16-byte base and stride rule";
  } else if (wg.available && is_16bit(g.a.dtype)) {
    // For 16-bit inputs the only wgmma rule they can break is TMA's 16-byte one, and tcgemm
    // keeps the problem on wgmma by copying the offending operands into a padded, aligned
    // workspace first (the `_repack` paths); the copy is part of the plan and of its time.
    r.chosen = MmaFamily::wgmma;
    r.needs_repack = true;
    double bytes = 0;
    if (!wg.a.ok) bytes += 2.0 * static_cast<double>(g.m * g.k) * static_cast<double>(dtype_bytes(g.a.dtype));
    if (!wg.b.ok) bytes += 2.0 * static_cast<double>(g.k * g.n) * static_cast<double>(dtype_bytes(g.b.dtype));
    r.repack_us = bytes / (d.mem_bandwidth_gbs * 1e9) * 1e6;
    // Where gemm() takes the thread-load or row-class variants, no copy runs; the record still
    // prices the copy, an upper bound for those problems.
    r.reason = "wgmma after repacking into an aligned workspace (or, for one round of <= 2 k-blocks a CTA, with "
               "the producer's own loads and no copy; or, with A row-major and B column-major where the copies "
               "would cost more than its slower k-blocks, TMA over eight row classes and no copy): " + wg.reason;
  } else if (ms.eligible) {
    r.chosen = MmaFamily::mma_sync;
    r.reason = "mma.sync (HMMA): " + (wg.available ? "wgmma refused: " + wg.reason : wg.reason);
  } else {
    r.chosen = MmaFamily::simt;
    r.reason = "SIMT (FFMA), no Tensor Cores: " + ms.reason;
  }
  r.tensor_core_eligible = r.chosen != MmaFamily::simt;
  return r;
}

}  // namespace tcgemm
