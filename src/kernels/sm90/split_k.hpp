// Split-K for the warp-specialized wgmma kernel: small M*N with long K (256x256x65536 is 2 output
// tiles on 132 SMs). Each split multiplies a range of whole 64-wide k-blocks into an f32 slab of
// the workspace; a reduce pass sums the slabs in a fixed order (bitwise deterministic) and applies
// alpha, beta*C and D's dtype.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "analysis/split_model.hpp"
#include "kernels/common/splitk_reduce.hpp"
#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {

// Test/profiler only: every split-K kernel uses this split count (clipped to what K allows) instead
// of choosing one; 0 restores the automatic choice. Process-wide, not for concurrent use.
void set_forced_split_k(int splits);
int forced_split_k();

// The split count the split-K kernels will use for g on a GPU with sm_count SMs (the forced count
// when one is set): clamp(floor(SMs / tiles), 1, min(64, k_blocks / 2)), then reduced so that every
// split gets at least one k-block and the splits use ceil(k_blocks / splits) blocks each.
int choose_splits(const GemmDesc& g, int sm_count, Sm90WsVariant v = {});
// ceil(k_blocks / splits): the k-blocks of every split but the last.
int split_k_blocks_per_split(const GemmDesc& g, int splits, Sm90WsVariant v = {});

// SMs of the current device (132 when there is none, the H200's count, so that host-only callers
// get a stable answer).
int current_sm_count();

Status sm90_wgmma_ws_splitk_supports(const GemmDesc& g, DType input, Sm90WsVariant v = {});
// splits * M * N * 4 bytes; 0 when one split is chosen (the plain kernel runs, writing D directly).
std::size_t sm90_wgmma_ws_splitk_workspace(const GemmDesc& g, Sm90WsVariant v = {});
// The GEMM pass then the reduce, both on args.stream. Needs args.workspace (16-byte aligned for
// vector loads; any alignment works) of at least sm90_wgmma_ws_splitk_workspace() bytes.
Status sm90_wgmma_ws_splitk_launch(const GemmArgs& args, DType input, Sm90WsVariant v = {});
// The two passes for a given tile variant and split (splits >= 2, every split non-empty): the
// building block the swap-A/B path shares. Checks the workspace (splits*M*N*4 bytes, 16-aligned).
// copy: the operands the split pass copies first (v.in_copy; in_kernel_copy.hpp), or nullptr.
// mc: the split pass in TMA multicast clusters (wgmma_tma_ws.hpp), 1 x 1 = off.
Status sm90_wgmma_ws_run_split_k(const GemmArgs& args, DType input, Sm90WsVariant v, int splits,
                                 int k_blocks_per_split, const InCopy* copy = nullptr, Sm90Multicast mc = {});
// The reduce's arguments for args (alpha, beta, C and D as the problem says) over `splits` tight
// M x N slabs at `partials`, row-major or column-major.
SplitKReduceArgs split_k_reduce_args(const GemmArgs& args, const float* partials, int splits, bool row_major_slabs);

}  // namespace tcgemm

namespace tcgemm {

// The tile and split count for a small-output problem, chosen by a stated time model (per CTA:
// k-blocks x max(MMA time at the tile's measured efficiency, stage bytes over the ~90 GB/s one SM
// pulls from L2); whole problem: at least A+B over ~3.6 TB/s of DRAM and every CTA's stage loads
// over ~9.5 TB/s of L2; plus, when split, the f32 slabs written and read back at ~3.2 TB/s and a
// launch; the three rates are fits to the calibration runs, split_k.cu says from what). Candidates: 128x256 s4, 128x128 s7 and
// 128x64 s9, where each supports g; splits 1 up to min(64, k-blocks/2) (only the forced count when
// one is set); for TMA plans also the 128x64 s9 tile unsplit in 1x2 multicast pairs sharing A. Calibrated on runs 13-14 (bench/NOTES.md): 256x256x65536, 512x1024x32768,
// 333x777x4099, 1000x1000x1001, 128x8192x28672.
struct SplitKPlan {
  Sm90WsVariant variant;
  Sm90Multicast mc;           // 1x2: the unsplit 128x64 pair sharing A (TMA plans only)
  int splits = 1;
  int k_blocks_per_split = 0;
  int ctas = 0;               // tiles x splits
  double predicted_us = 0;    // the model's time, launch overheads included
  std::size_t workspace_bytes = 0;
  SplitPassTerms terms;       // what the model's time is made of (analysis/split_model.hpp)
  // A tuned plan's (tcgemm/tuning.hpp): what `tcgemm tune` measured, or -1 where it gave no time;
  // 0 where the model chose.
  double tuned_us = 0;
};
// How the planned tiles load A and B: TMA (one map each), the producer's plain loads (the `_ldg`
// tiles, 128x128 s7 and 128x64 s9, any alignment and layout, priced at the rate those loads
// sustain), or TMA over eight row classes (the `_rowclass` tiles, the same two, K-major A and B with
// any ld, priced as TMA), or TMA behind the grid's own copies (the two-consumer tiles only: the
// in-copy instances).
enum class WsLoads { tma, threads, row_classes, in_copy };
SplitKPlan plan_split_k(const GemmDesc& g, DType input, int sm_count, WsLoads loads = WsLoads::tma);
// "tile 128x64 s9, 3 K slices of 22 k-blocks, 117 CTAs; model 12.6 us = pass 6.7, bound by L2 (...)
// + launch 2.0 + slabs 1.9 + reduce launch 2.0" (for `tcgemm explain`): the model's terms, the
// binding one named.
std::string describe(const SplitKPlan& p);
// The model for one candidate (exposed for tests and the profiler's notes).
double split_k_model_us(const GemmDesc& g, DType input, Sm90WsVariant v, int splits, int sm_count);

// The planned path: the plan's tile, split or not. Needs plan_split_k(...).workspace_bytes.
Status sm90_wgmma_ws_planned_launch(const GemmArgs& args, DType input, WsLoads loads = WsLoads::tma);
// The TMA plan on args (which name the aligned copies), its grid first copying `copy`'s operands
// itself: the `_repack_fused` entry. The plan must be one round of CTAs (internal error otherwise).
Status sm90_wgmma_ws_planned_launch_in_copy(const GemmArgs& args, DType input, const InCopy& copy);
// How many launches took the in-kernel copies in this process (tests check which path ran).
int64_t sm90_in_copy_launches();

}  // namespace tcgemm
