// Wave peeling for the non-persistent 128x256 kernel: when the partial last tile row/column of D
// pushes the grid into one more wave (4097^3: 561 tiles = 5 waves on 132 SMs, against 4 for the
// 512 full tiles), the full-tile core runs alone and the thin strips that remain run through
// split-K, which spreads their few tiles over the SMs. The copies of the repack path come first
// when an operand breaks TMA's 16-byte rule, so this entry serves aligned and unaligned problems.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/registry.hpp"

namespace tcgemm {

struct PeelPlan {
  bool rows = false, cols = false;  // peel the last partial tile row / tile column
  int64_t m_core = 0, n_core = 0;   // the core is D[0:m_core, 0:n_core]
  // Cost model in k-block-times of one CTA (one CTA per SM): waves * k-blocks per CTA.
  double cost_plain = 0, cost_peeled = 0;
};

// The best peel for g on sm_count SMs; rows/cols both false when peeling does not pay.
PeelPlan plan_peel(const GemmDesc& g, int sm_count);

// The launches of a peeled problem, in order: the core (plain kernel), then the right strip
// [0, m_core) x [n_core, N) and the bottom strip [m_core, M) x [0, N) when planned (split-K). Each
// is `args` with a smaller m/n, explicit ld's and A/B/C/D moved to the piece's first row/column;
// the workspace fields are left as in `args`. A/B must already meet TMA's rule (after any copy).
std::vector<GemmArgs> peel_pieces(const GemmArgs& args, const PeelPlan& plan);

Status sm90_wgmma_ws_peel_supports(const GemmDesc& g, DType input);
std::size_t sm90_wgmma_ws_peel_workspace(const GemmDesc& g);
Status sm90_wgmma_ws_peel_launch(const GemmArgs& args, DType input);

}  // namespace tcgemm
