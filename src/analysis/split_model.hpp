// The split-K planner's time model for one pass of the warp-specialized kernel (split_k.cu plans
// gemm()'s tile and split with it) and the row-class path's constants, so that `explain`'s advice
// prices that path exactly as gemm()'s gate does (advice.cpp). Fitted and measured numbers; the
// notes beside each say where they come from.
#pragma once

#include <cstdint>

namespace tcgemm {

// A row-class k-block (TMA's 16 small boxes, then the realign warps' 4-byte loads and funnel
// shifts): 0.84-0.87 us at 128x8192x28673 and ~0.8 at 64x8192x8193 (128x128, traced; session 13,
// calls 3 and 5); 1.5 us with session 12's loader. The narrow tile's 1.0 is inferred, not traced: the
// totals of 333x777x4099 at 1-3 forced splits less the fill, launches and slabs give ~0.85-1.0 us a
// k-block, and the profile does not record which tile the plan took. It is not the realign's work
// (call 6: with its loads and stores skipped, 128x8192x28673 ran 215 us against 232), so a narrower
// tile saves little.
inline constexpr double kRowClassKBlockSeconds = 0.9e-6, kRowClassNarrowKBlockSeconds = 1.0e-6;
// ...and its first stage comes ~4 us later than TMA's on aligned operands: a median of 4.6-4.9 us
// after the PDL wait (session 13, the traces of calls 3 and 5) against 0.77.
inline constexpr double kRowClassFillUs = 4.5;

// gemm()'s gate between row classes and the copies (register_sm90.cu) and explain's advice: the
// copies cost ~3.6 TB/s read + write plus ~1.5 us (timed alone, session 14, call 5), and row classes
// are taken where their model is 5% below the copies plus the repacked problem's own plan (the
// model is within 5% at 128x128 and undershoots where a CTA has few k-blocks; NOTES in the gate).
inline constexpr double kRepackBytesPerUs = 3.6e6;
inline constexpr double kRepackLaunchUs = 1.5;
inline constexpr double kRowClassMargin = 0.95;

// One pass's tile: its extent, the fraction of the MMA peak its main loop sustains, what a k-block's
// loads take (seconds; 0: its bytes at one SM's TMA rate from L2, or at the thread-load rate), and a
// fill beyond TMA's (row classes).
struct SplitPassTile {
  int tile_m, tile_n, tile_k;
  double mma_efficiency;
  double load_kblock_seconds;
  bool thread_loads;
  double extra_fill_us;
  // A pair in TMA multicast clusters along N (1x2): L2 sends each A box once for both CTAs, so the
  // L2 term counts half of A's rows; a pair runs unsplit only (max_splits 1) and pays a fixed
  // cost of its own (kPairFixedUs, split_model.cpp says from what).
  int a_share = 1;
  int max_splits = 64;
};

// Fraction of the dense MMA peak one CTA of each tile width sustains in its main loop (run 13 fit:
// the 128x256 kernels' ~650 TFLOP/s on full waves, the narrower tiles' measured per-k-block times).
constexpr double split_tile_efficiency(int tile_n) { return tile_n >= 256 ? 0.68 : tile_n >= 128 ? 0.62 : 0.55; }

// The part the model's rates (split_model.cpp) were fitted on: the H200, whose attributes report
// 4814 GB/s of DRAM (run 28). Other parts keep those rates: scaling the DRAM rate by the part's
// peak lost on the H100 (run 260, bench/NOTES.md), so describe() says where the part differs.
inline constexpr double kSplitModelFitPeakGbs = 4814.0;

// The model's terms for one plan, so that `explain` can say which one binds. The pass is the
// longest of the CTAs' work (rounds x k-blocks a CTA x the slower of a k-block's MMAs and loads),
// DRAM (A and B once) and L2 (every CTA's stages); then a launch and any extra fill; a split adds
// its slabs (written and read back) and the reduce's launch.
struct SplitPassTerms {
  int64_t ctas = 0, rounds = 0, k_blocks_per_cta = 0;
  double mma_kblock_us = 0, load_kblock_us = 0;
  double cta_us = 0, dram_us = 0, l2_us = 0;
  double launch_us = 0, fill_us = 0;
  double slabs_us = 0, reduce_launch_us = 0;  // 0 unsplit
  double total_us = 0;
  // The pass: the longest of its three terms; binding() names it ("a CTA's loads", "a CTA's
  // MMAs", "L2" or "DRAM").
  double pass_us() const;
  const char* binding() const;
};
SplitPassTerms split_pass_model_terms(int64_t m, int64_t n, int64_t k, double elem_bytes, double peak_flops,
                                      const SplitPassTile& t, int splits, int sm_count);

// The pass's time in us at `splits` K slices of whole k-blocks on sm_count SMs, the slabs and the
// reduce included when it splits; elem_bytes and peak_flops (the device's dense MMA peak) for A/B.
double split_pass_model_us(int64_t m, int64_t n, int64_t k, double elem_bytes, double peak_flops,
                           const SplitPassTile& t, int splits, int sm_count);

// The best pass over candidate tiles (those with allowed[i]) at 1..min(64, k-blocks / 2) splits, or
// exactly `forced` (> 0): a later tile or more splits must be 2% faster to be taken (the model is
// coarse). Split counts that give the same k-blocks a split as a smaller count are skipped unless forced.
struct SplitPassPlan {
  int tile = -1;  // index into the candidates; -1: none allowed
  int splits = 1, k_blocks_per_split = 0;
  int64_t ctas = 0;
  double us = 1e30;
  SplitPassTerms terms;  // the chosen plan's
};
SplitPassPlan best_split_pass(int64_t m, int64_t n, int64_t k, double elem_bytes, double peak_flops,
                              const SplitPassTile* tiles, const bool* allowed, int count, int sm_count, int forced);

}  // namespace tcgemm
