// The persistent cluster kernel behind the repack copies: when A, B or D breaks TMA's 16-byte rule
// (4097^3 bf16, the cliff this project exists to remove), A and B are copied into aligned padded
// buffers (common/repack.hpp) and the fastest core kernel reads the copies; a misaligned D is
// written in place by the kernel's threads (PcDStore::threads) instead of by TMA. Same problem rules as the kernel otherwise: bf16/f16,
// A row-major and B column-major, D row-major of the input type, beta == 0.
#pragma once

#include <cstddef>
#include <string>

#include "runtime/registry.hpp"

namespace tcgemm {

// ok only where A, B or D is misaligned for TMA and the copied problem meets the kernel's rules;
// an aligned problem is refused (the kernel runs it as it is, by TMA throughout).
Status sm90_pc_repack_supports(const GemmDesc& g, DType input);
// The A/B copies, 256-byte aligned pieces (0 when only D is misaligned).
std::size_t sm90_pc_repack_workspace(const GemmDesc& g);
// Bytes the copies move, read plus written (for explain's prediction).
std::size_t sm90_pc_repack_copy_bytes(const GemmDesc& g);
Status sm90_pc_repack_launch(const GemmArgs& args, DType input);

// The same behind stream-K on the cluster kernel (4097^3: 289 pair-tiles, 4.4 rounds on 66
// clusters); its flags and partials follow the copies in the workspace.
std::size_t sm90_pc_repack_streamk_workspace(const GemmDesc& g);
Status sm90_pc_repack_streamk_launch(const GemmArgs& args, DType input);

// The same with D's thin edge computed inside the copies (common/repack_strips.hpp): where A and B
// are both copied and D's partial last tile row or column holds at most kMaxStripLines rows or
// columns, the kernel (stream-K where the core shares a tail) runs the tile-exact core only.
Status sm90_pc_repack_strips_supports(const GemmDesc& g, DType input);
std::size_t sm90_pc_repack_strips_workspace(const GemmDesc& g);
Status sm90_pc_repack_strips_launch(const GemmArgs& args, DType input);
// What the path runs for g (strips, core, schedule), for `tcgemm explain`.
std::string sm90_pc_repack_strips_describe(const GemmDesc& g, DType input);

}  // namespace tcgemm
