// The persistent cluster kernel's compile-time configuration (tile, stages, shared-memory layout,
// register split) and its launch parameters, shared by the kernel (wgmma_ws_persistent_cluster_kernel.cuh),
// its work schedule (..._schedule.cuh) and its epilogue helpers (..._epilogue.cuh). The design notes
// are at the top of the kernel file.
#pragma once

#include <cstdint>

#include "kernels/common/wgmma.cuh"
#include "kernels/sm90/wgmma_ws_persistent_cluster.hpp"

namespace tcgemm::sm90_pc {

using dev::WgmmaInput;

// --- config ----------------------------------------------------------------------------------
// Templated on the input through byte counts only: BK is one 128-byte swizzle row (64 16-bit or
// 32 tf32 elements) and the wgmma K is 32 bytes (k16 or k8), so a stage holds the same bytes and
// every descriptor offset is the same for bf16, f16 and tf32. D is the input type for bf16/f16
// (or f32: kF32D) and f32 for tf32 (kDBytes); the C buffer's size depends on the stage count only.
// Tile: 128x256 (two consumer warpgroups of m64n256) or 192x192 (three of m64n192: the tile that
// divides 4224 where 128x256 pads, cuBLAS's choice there; bench/NOTES.md "A 192x192 tile").

template <WgmmaInput In, int Stages, PcTile Tile = PcTile::m128n256, bool kF32D = false>
struct Config {
  static constexpr bool kSquare = Tile == PcTile::m192n192;
  static constexpr bool kTall = Tile == PcTile::m256n128;
  static constexpr bool kFit192 = is_pc_fit192_tile(Tile);
  // The grid-fitting widths (PcTile::m128n144/160/176/192): 128 rows, N chosen per shape so the pair
  // grid fills the clusters (fit_tile_width, analysis/path_rules.hpp); a width not a multiple of the 64-column store box ends
  // in a partial box, stored by the threads.
  static constexpr bool kFit = is_pc_fit_tile(Tile);
  // The C buffer holds a consumer's whole tile row, rounded up to whole boxes (one store chunk a
  // tile; a width not a multiple of 64 ends in a partial box, stored by the threads).
  static constexpr bool kRowBuffer = kFit || kFit192;
  static constexpr int kTileM = kSquare || kFit192 ? 192 : kTall ? 256 : 128;
  static constexpr int kTileN = kSquare                       ? 192
                                : Tile == PcTile::m192n160 ? 160
                                : Tile == PcTile::m192n176 ? 176
                                : kTall                    ? 128
                                : Tile == PcTile::m128n144 ? 144
                                : Tile == PcTile::m128n160 ? 160
                                : Tile == PcTile::m128n176 ? 176
                                : Tile == PcTile::m128n192 ? 192
                                                           : 256;
  static constexpr int kElementBytes = dev::kWgmmaElementBytes<In>;  // A and B in shared memory
  static constexpr int kTileK = 128 / kElementBytes;  // one 128-byte swizzle row: 64 or 32 (tf32)
  static constexpr int kMmaK = dev::kWgmmaK<In>;     // 32 bytes of K: 16 or 8 (tf32)
  static constexpr int kDBytes = In == WgmmaInput::tf32 || kF32D ? 4 : 2;  // D: f32 for tf32
  static constexpr int kStages = Stages;
  static constexpr int kConsumers = kTileM / 64;          // warpgroups, 64 rows of the tile each
  static constexpr int kThreads = 128 * (1 + kConsumers);  // warpgroup 0 is the producer
  static constexpr int kClusterM = 2;   // CTAs per cluster, along M, sharing B

  static constexpr uint32_t kSwizzleBytes = 128;
  static constexpr uint32_t kAtomBytes = 8 * kSwizzleBytes;                      // 1024
  static constexpr uint32_t kABytes = kTileM * kTileK * kElementBytes;           // 16 (24) KB
  static constexpr uint32_t kBBytes = kTileN * kTileK * kElementBytes;           // 32 (24) KB
  static constexpr uint32_t kBHalfBytes = kBBytes / 2;                           // 16 (12) KB
  static constexpr uint32_t kStageBytes = kABytes + kBBytes;                     // 48 KB either tile

  // C staging: each consumer writes kStoreCols columns of its 64 rows at a time, as boxes of 64
  // rows x 128 bytes (kBoxCols: 64 16-bit or 32 f32 values), 128B-swizzled (the TMA store box;
  // 128 bytes is the swizzle's row limit). 128x256: 32 KB a consumer at 3 stages, 16 KB at 4;
  // 192x192: the whole 64x192 16-bit slab (24 KB) at 3 stages, one 8 KB box at 4 (what is left
  // beside 192 KB of stages for three consumers).
  // The fitting widths, 128 or 192 rows (16-bit D): the whole tile row, rounded up to whole boxes
  // (192 rows: 3 x 24 KB, beside 3 stages of 44-46 KB only).
  // 256x128 (4 stages): one 8 KB box a consumer, as 192x192 at 4 stages (four consumers' 16 KB
  // rows would not fit beside 192 KB of stages).
  static constexpr uint32_t kConsumerCBytes = kRowBuffer ? 64 * 2 * ((kTileN + 63) / 64 * 64)
                                              : kSquare ? (Stages == 3 ? 24576 : 8192)
                                              : kTall   ? 8192
                                                        : (Stages == 3 ? 32768 : 16384);
  static constexpr int kStoreCols = kConsumerCBytes / (64 * kDBytes);  // 256/128 16-bit, 128/64 f32
  static constexpr int kBoxCols = kSwizzleBytes / kDBytes;
  static constexpr uint32_t kBoxBytes = 64 * kSwizzleBytes;                      // 8 KB
  static constexpr uint32_t kCBytes = kConsumers * kConsumerCBytes;              // 64 or 32 KB
  // TMA stores whole 16-byte chunks of a row (NOTES): 8 16-bit or 4 f32 columns.
  static constexpr int kChunkCols = 16 / kDBytes;

  // Store chunks a tile, and the tile's columns in one (a fitting width: one chunk wider than the
  // tile), and the boxes wholly inside the tile (the fitting widths' TMA-stored ones).
  static constexpr int kChunks = (kTileN + kStoreCols - 1) / kStoreCols;
  static constexpr int kChunkTileCols = kStoreCols < kTileN ? kStoreCols : kTileN;
  static constexpr int kFullBoxes = kTileN / kBoxCols;
  // full + empty per stage, then one per consumer for its C tile's TMA load (beta != 0)
  static constexpr uint32_t kBarrierBytes = 2 * kStages * 8 + kConsumers * 8;
  // NOTES: dynamic shared memory is only guaranteed 16-byte aligned; 128B swizzle wants every
  // tile on a 1024-byte boundary, so we over-allocate one atom and align by hand.
  static constexpr uint32_t kSmemBytes = kStages * kStageBytes + kCBytes + kBarrierBytes + kAtomBytes;

  // setmaxnreg: 40*128 + 232*256 = 64512 <= 65536 (the producer computes 64-bit tile coordinates);
  // three consumers: 40*128 + 152*384 = 63488 (96 accumulators each); four: 40*128 + 104*512 =
  // 58368 (64 accumulators each). NOTES: setmaxnreg only moves registers inside what the CTA was
  // launched with (640 threads: 96 each, 61440), so .inc past it waits forever (40 + 112: a hang,
  // run 180). At 104 the consumers spill 16 bytes; 32 + 112 moved a 32-byte spill to the producer.
  static constexpr int kProducerRegisters = 40;
  static constexpr int kConsumerRegisters = kConsumers == 2 ? 232 : kConsumers == 3 ? 152 : 104;
  static constexpr int kAccumulators = kTileN / 2;  // m64nN: N/2 floats per thread
};

template <WgmmaInput In, int S, PcTile T = PcTile::m128n256, bool kF32D = false>
constexpr bool check_config() {
  using C = Config<In, S, T, kF32D>;
  static_assert(S == 3 || S == 4, "3 stages + a larger C buffer, or 4 stages + a smaller one");
  static_assert(C::kTileK * C::kElementBytes == C::kSwizzleBytes, "BK must fill exactly one 128-byte swizzle row");
  static_assert(C::kMmaK * C::kElementBytes == 32, "the wgmma K step is 32 bytes for every input");
  static_assert(C::kTileM == 64 * C::kConsumers, "each consumer warpgroup owns 64 rows (m64)");
  static_assert((C::kRowBuffer ? C::kStoreCols >= C::kTileN : C::kTileN % C::kStoreCols == 0) &&
                    C::kStoreCols % C::kBoxCols == 0,
                "C is stored in whole 128-byte-wide boxes (a fitting width in one chunk)");
  static_assert(!C::kRowBuffer || (C::kDBytes == 2 && C::kTileN % 16 == 0),
                "whole-row C buffers (the fitting widths): 16-bit D, N in steps of 16");
  static_assert(C::kBoxCols * C::kDBytes == C::kSwizzleBytes && C::kBoxCols % 8 == 0,
                "a box row is one 128-byte swizzle row of whole 8-column fragment blocks");
  static_assert(C::kABytes % C::kAtomBytes == 0 && C::kBHalfBytes % C::kAtomBytes == 0 &&
                    C::kBoxBytes % C::kAtomBytes == 0,
                "every stage, B half and C box must start on a 1024-byte swizzle atom");
  static_assert(C::kSmemBytes <= 227 * 1024, "over the 227 KB per-block shared-memory limit");
  static_assert(128 * C::kProducerRegisters + 128 * C::kConsumers * C::kConsumerRegisters <=
                    C::kThreads * (65536 / C::kThreads / 8 * 8),
                "setmaxnreg budget over the registers the CTA is launched with");
  return true;
}
static_assert(check_config<WgmmaInput::bf16, 3>() && check_config<WgmmaInput::bf16, 4>() &&
              check_config<WgmmaInput::tf32, 3>() && check_config<WgmmaInput::tf32, 4>() &&
              check_config<WgmmaInput::bf16, 3, PcTile::m128n256, true>() &&
              check_config<WgmmaInput::bf16, 3, PcTile::m192n192>() &&
              check_config<WgmmaInput::bf16, 4, PcTile::m192n192>() &&
              check_config<WgmmaInput::bf16, 4, PcTile::m128n144>() &&
              check_config<WgmmaInput::bf16, 4, PcTile::m128n160>() &&
              check_config<WgmmaInput::bf16, 4, PcTile::m128n176>() &&
              check_config<WgmmaInput::bf16, 4, PcTile::m128n192>() &&
              check_config<WgmmaInput::bf16, 4, PcTile::m256n128>() &&
              check_config<WgmmaInput::bf16, 3, PcTile::m192n160>() &&
              check_config<WgmmaInput::bf16, 3, PcTile::m192n176>());
static_assert(Config<WgmmaInput::tf32, 3>::kSmemBytes == Config<WgmmaInput::bf16, 3>::kSmemBytes &&
                  Config<WgmmaInput::tf32, 4>::kSmemBytes == Config<WgmmaInput::bf16, 4>::kSmemBytes,
              "tf32 stages and C buffers hold the same bytes as 16-bit ones");

// --- kernel parameters -----------------------------------------------------------------------
struct Params {
  int64_t m, n;
  int64_t n_tma;  // n rounded down to 16 bytes (8 16-bit or 4 f32): the columns the TMA store writes
  void* d;        // for the tail columns past n_tma, stored by ordinary st.global
  int64_t ldd;
  int d_by_threads;  // PcDStore::threads: no TMA store; the storer warps copy C out (any ld)
  // D column-major (the fitting widths only): the swapped problem's D^T, i.e. the caller's
  // row-major D. Each consumer's 64 x width tile goes out as one box of width lines x 64 elements.
  int d_trans;
  int64_t tiles_m, tiles_n;
  int64_t pairs_m;     // ceil(tiles_m / 2): clusters along M
  int64_t pair_tiles;  // pairs_m * tiles_n: the work items of a cluster
  int k_tiles;
  float alpha;
  // beta != 0: each C chunk is TMA-loaded (map_c, C row-major in D's type) into the C buffer the
  // epilogue then overwrites with D, at the same swizzled addresses.
  float beta;
  // Tile order (set_pc_raster): groups of `group` pair rows (along_n == 0) or tile columns.
  // NOTES: the default, 8 pair rows = 16 tile rows: for a wave of ~132 tiles of 128x256, r tile
  // rows x c tile columns, L2->DRAM traffic per wave is ~ r*|A row| + c*|B column| = (r + 2c) x
  // 128 rows of K, least at r = 2c: ~16 x 8.
  int group;
  int along_n;
  // Stream-K (plan_pc_streamk; all 0 in the plain kernel): pair-tiles [0, sk_tiles) are shared
  // along K by clusters [0, sk_clusters), sk_share k-blocks each (the first sk_extra one more).
  int64_t sk_tiles, sk_clusters, sk_share, sk_extra;
  uint32_t* flags;  // per sharing CTA, one per consumer warpgroup
  float* partials;  // per sharing CTA, kTileM x kTileN f32 in register-fragment order
  // Split-K (sm90_wgmma_ws_pc_slabs_launch; 1 / k_tiles / 0 otherwise): work item i is pair-tile
  // i % pair_tiles over k-blocks [s * k_per_split, +k_per_split) of split s = i / pair_tiles, its
  // D rows stored at row s * slab_rows + r of the slab stack (rows past M land in the padding).
  int splits;
  int k_per_split;
  int64_t slab_rows;
  // Diagnosis (sm90_wgmma_ws_set_trace, shared with the ws kernel): per-CTA stamps in
  // common/cta_trace.cuh's layout; [3]-[5] are the first unit's first full stage and the last
  // unit's last full stage and last MMA, [6] consumer 0's last store read out; nullptr: off.
  uint64_t* trace;
};

}  // namespace tcgemm::sm90_pc
