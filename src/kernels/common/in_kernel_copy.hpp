// The GEMM grid's own copies of A and B (the `_ws_repack_fused` entry): where an operand breaks
// TMA's 16-byte rule, the CTAs of each split first copy that split's K range of it into the aligned
// workspace, meet at a per-split counter, and only then load it by TMA. No copy launch: the copies
// kernel's ~4 us of launch, ramp and drain (run 148: 4.0-4.1 us for copies of 1-2 MB) is the cost
// it removes. K-major operands only (lines of K elements), one round of CTAs (every CTA of a split
// must be resident while it waits).
// Beside other grids: two such launches on concurrent streams could each hold part of the SMs and
// wait for CTAs that cannot become resident, so the grid is launched cooperatively (with PDL), which
// guarantees co-residency. NOTES: run 163, the fused tests (352) passed and the sanitizers were
// clean that way, and six small shapes timed within noise of the PDL-only launch. The concurrent-stream
// case itself rests on the cooperative launch's guarantee; no test runs it. The entry is by name
// (its speed: faster only where the copies are small, bench/NOTES.md runs 155, 162).
#pragma once

#include <cstdint>

namespace tcgemm {

// One K-major operand: `lines` lines of K elements at ld_src, copied to ld_dst (a multiple of 64).
struct InCopyOperand {
  const uint16_t* src;
  uint16_t* dst;
  int64_t lines, ld_src, ld_dst;
  uintptr_t end;  // one past the source's last byte: no aligned 16-byte load leaves [src, end)
};

struct InCopy {
  InCopyOperand op[2];
  int32_t count;       // operands copied (1 or 2)
  uint32_t* counters;  // one word a split, zero on entry and left zero (tile_counters.hpp)
};

}  // namespace tcgemm
