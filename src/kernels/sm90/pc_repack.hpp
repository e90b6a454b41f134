// The persistent cluster kernel behind the repack copies: when A, B or D breaks TMA's 16-byte rule
// (4097^3 bf16, the cliff this project exists to remove), A and B are copied into aligned padded
// buffers (common/repack.hpp), D is computed into an aligned temporary and copied out afterwards,
// and the fastest core kernel runs in between. Same problem rules as the kernel otherwise: bf16/f16,
// A row-major and B column-major, D row-major of the input type, beta == 0.
#pragma once

#include <cstddef>

#include "runtime/registry.hpp"

namespace tcgemm {

// ok only where the copies are needed (A, B or D misaligned for TMA) and the copied problem meets
// the kernel's rules; an aligned problem is refused (the kernel runs it without copies).
Status sm90_pc_repack_supports(const GemmDesc& g, DType input);
// A/B copies, then D's temporary (M x round_up(N, 8)) when D needs one; 256-byte aligned pieces.
std::size_t sm90_pc_repack_workspace(const GemmDesc& g);
// Bytes the copies move, read plus written (for explain's prediction).
std::size_t sm90_pc_repack_copy_bytes(const GemmDesc& g);
Status sm90_pc_repack_launch(const GemmArgs& args, DType input);

// The same behind stream-K on the cluster kernel (4097^3: 289 pair-tiles, 4.4 rounds on 66
// clusters); its flags and partials follow the copies (and D's temporary) in the workspace.
std::size_t sm90_pc_repack_streamk_workspace(const GemmDesc& g);
Status sm90_pc_repack_streamk_launch(const GemmArgs& args, DType input);

}  // namespace tcgemm
