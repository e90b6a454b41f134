// The repack path for operands that break TMA's 16-byte rule (base pointer not 16-byte aligned, or
// ld * element bytes not a multiple of 16; 4097^3 bf16 is the classic case). The operand is copied,
// same layout, into the workspace with ld = its line length rounded up to 64 elements (a 128-byte
// pitch: repack.cu says why) and a 256-byte aligned base; the TMA kernel then reads the copy. The tensor map's extents stay the logical
// M/N/K, so TMA never reads the pad columns (they are written as zero all the same).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "runtime/registry.hpp"

namespace tcgemm {

// Copies `lines` lines of `line_length` 16-bit elements, ld_src apart (src only 2-byte aligned),
// to dst with ld_dst (a multiple of 8, >= line_length; dst 16-byte aligned); columns
// [line_length, ld_dst) of dst are zeroed. Bandwidth-bound: coalesced 2-byte loads, 16-byte stores.
Status repack_16bit(const void* src, int64_t lines, int64_t line_length, int64_t ld_src, void* dst,
                    int64_t ld_dst, cudaStream_t stream);

// A 16-bit operand whose base pointer (as the desc records it) or ld breaks TMA's 16-byte rule.
bool breaks_tma_rule(const MatrixDesc& m, StoredExtent e);

// Which operands need the copy, their padded ld's and where they go in the workspace.
struct TmaRepackPlan {
  bool a = false, b = false;
  int64_t lda = 0, ldb = 0;          // the copies' ld's (the originals' when not copied)
  std::size_t a_offset = 0, b_offset = 0;  // in the workspace, 256-byte aligned
  std::size_t workspace_bytes = 0;  // 0 when neither is copied
};

// From the desc (its pointer_alignment and ld's). Only 16-bit A/B are ever copied.
TmaRepackPlan plan_tma_repack(const GemmDesc& g);
// The desc the TMA kernel sees after the plan: copied operands get the padded ld and
// pointer_alignment 256.
GemmDesc repacked_desc(const GemmDesc& g, const TmaRepackPlan& plan);

// Runs the copies the problem needs (judged by the desc and by the real pointers, whichever is
// stricter) on args.stream and returns the args to hand to the TMA kernel. Needs a 256-byte
// aligned workspace of plan_tma_repack(desc with the real pointer alignments).workspace_bytes.
// used_bytes (optional) receives the workspace bytes the copies took (0 when none ran).
Result<GemmArgs> apply_tma_repack(const GemmArgs& args, std::size_t* used_bytes = nullptr);

// The copies apply_tma_repack launches, described instead (the `_repack_fused` grid does them).
struct RepackJob {
  const void* src;
  int64_t lines, line_length, ld_src;
  void* dst;
  int64_t ld_dst;
};
struct DeferredCopies {
  RepackJob job[2];
  int count = 0;
};
// As above, but the copies are not launched: *deferred receives them.
Result<GemmArgs> apply_tma_repack(const GemmArgs& args, std::size_t* used_bytes, DeferredCopies* deferred);
// Launches deferred copies after all (one launch, as apply_tma_repack does).
Status launch_deferred_copies(const DeferredCopies& copies, cudaStream_t stream);

}  // namespace tcgemm
