// Edge strips computed inside the repack copies. When A and B both break TMA's 16-byte rule (4097^3
// bf16: every ld odd), the copy pass streams every element of both operands anyway; if D's last
// tile row or column holds only a few rows or columns (4097 = 32 x 128 + 1), those few rows and
// columns are thin GEMVs whose operands the copy is already reading. The copy computes them on the
// side (each copied segment dotted with the same columns of the other operand's last lines; the
// per-segment sums added in order by the last block of a line group), so the TMA kernel runs a
// tile-exact core: at 4097^3 that is 512 pair-halves of
// 128x256 instead of 561, no tile computed for one row or one column.
//
// Contract: TN (A row-major, B column-major, both K-contiguous lines), D row-major, same 16-bit
// type for A, B and D, beta == 0 (the persistent cluster kernel's epilogue), both A and B copied.
#pragma once

#include <cstddef>
#include <cstdint>

#include "analysis/path_rules.hpp"
#include "kernels/common/repack.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {

// kMaxStripLines and thin_edge_lines() (analysis/path_rules.hpp): how wide a strip may be.
// Workspace for the strips' per-segment sums beside the copies (a line's sums over K / 512
// segments, for each strip line): past this, K is too long for the strips.
inline constexpr std::size_t kMaxStripWorkspaceBytes = std::size_t{64} << 20;

struct StripPeelPlan {
  int64_t rows = 0, cols = 0;        // D's last `rows` rows and last `cols` columns go to the copy
  int64_t m_core = 0, n_core = 0;    // the TMA kernel's part: D[0:m_core, 0:n_core]
  bool any() const { return rows > 0 || cols > 0; }
};

// The strips for g on a core kernel of tile_m x tile_n tiles; `why` (optional) receives the reason
// when nothing is peeled. Judged by the desc (its pointer alignments and ld's).
StripPeelPlan plan_strip_peel(const GemmDesc& g, int64_t tile_m, int64_t tile_n, std::string* why = nullptr);

// The workspace the copies and the strips take (the copies first, as plan_tma_repack lays them out).
std::size_t strips_workspace_bytes(const GemmDesc& g, const StripPeelPlan& peel);

// The core problem the TMA kernel runs after the copies: m_core x n_core x K on the copies' ld's,
// D at its own address and ld.
GemmDesc strip_core_desc(const GemmDesc& g, const TmaRepackPlan& copies, const StripPeelPlan& peel);

// Runs the A and B copies (one launch) with the strips of `peel` computed on the side, on
// args.stream; returns the args of the core problem (strip_core_desc, A/B pointing at the
// copies). The workspace must hold plan_tma_repack(desc with the real pointer alignments);
// used_bytes receives what the copies took. Refuses (status) what the contract above excludes.
Result<GemmArgs> apply_repack_with_strips(const GemmArgs& args, const StripPeelPlan& peel,
                                          std::size_t* used_bytes = nullptr);

}  // namespace tcgemm
