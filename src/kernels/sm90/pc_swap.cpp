// Host side of the swapped fitting widths (pc_swap.hpp): the rules and the launch of the cluster
// kernel on D^T = B^T A^T.
#include "kernels/sm90/pc_swap.hpp"

#include <string>

#include "kernels/common/tensor_map.hpp"
#include "kernels/sm90/swap_ab.hpp"

namespace tcgemm {

PcTile pc_fit_tile(int64_t width) {
  return width == 144   ? PcTile::m128n144
         : width == 160 ? PcTile::m128n160
         : width == 176 ? PcTile::m128n176
                        : PcTile::m128n192;
}

Status sm90_pc_swap_supports(const GemmDesc& g, DType input) {
  if (input != DType::bf16 && input != DType::f16)
    return Status::unsupported("the swapped fitting widths take bf16 or f16 inputs");
  if (g.a.layout != Layout::row || g.b.layout != Layout::column)
    return Status::unsupported("the swapped fitting widths need K-major A and B (A row-major, B column-major): "
                               "B^T and A^T are then K-major too");
  if (g.d.layout != Layout::row || g.d.dtype != input)
    return Status::unsupported("the swapped fitting widths store D row-major in the input type (" +
                               std::string(to_string(input)) + ")");
  if (g.beta != 0.0f) {
    // C^T is TMA-loaded as D^T's own box: the same type, layout and 16-byte rules.
    if (g.c.layout != Layout::row || g.c.dtype != input)
      return Status::unsupported("with beta != 0 the swapped fitting widths read C row-major in the input type");
    if (Status st = check_tma_operand("C", g.c.dtype, g.c.pointer_alignment, effective_ld(g.c, extent_c(g))); !st.ok())
      return st;
  }
  if (g.m < 1 || g.n < 1 || g.k < 1) return Status::unsupported("m, n and k must be at least 1");
  // The D box's lines are 64 columns of a row; TMA stores whole 16-byte chunks of a line, so a
  // row's last chunk must end at N.
  if (g.n % 8 != 0) return Status::unsupported("the swapped fitting widths need N % 8 == 0 (N is " + std::to_string(g.n) + ")");
  const GemmDesc s = swapped_desc(g);
  if (Status st = sm90_wgmma_ws_supports(s, input); !st.ok()) return st;  // dtypes, A/B TMA rules, extents
  return check_tma_operand("D", g.d.dtype, g.d.pointer_alignment, effective_ld(g.d, extent_c(g)));
}

Status sm90_pc_swap_launch(const GemmArgs& args, DType input, PcTile tile, int max_clusters) {
  if (args.a == nullptr || args.b == nullptr || args.d == nullptr) return Status::invalid("A, B and D must be non-null");
  if (!is_pc_fit_tile(tile)) return Status(StatusCode::internal, "swapped fitting widths: not a fitting tile");
  return sm90_wgmma_ws_pc_launch(swapped_args(args), input, 4, max_clusters, PcDStore::tma, tile);
}

}  // namespace tcgemm
