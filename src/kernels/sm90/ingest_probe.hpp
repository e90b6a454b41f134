// The SM's operand ingest, measured apart from the GEMM that needs it: a split-K tile grid of the
// ws kernel's shape (one TMA producer thread, one consumer warpgroup a 64 rows of the tile, a ring of
// stages on mbarriers) that runs with the loads alone, the MMAs alone (operands left resident in
// shared memory), or both. Cycles a k-block per CTA come from clock64 in each CTA, so the three modes
// say whether a tile's k-block rate is held by what arrives (TMA, L2, the fabric) or by what the
// Tensor Cores and shared memory do with it (bench/NOTES.md, session 49).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tcgemm/types.hpp"

namespace tcgemm {

enum class IngestMode { tma, mma, both };
const char* ingest_mode_name(IngestMode m);
Result<IngestMode> parse_ingest_mode(const std::string& s);

struct IngestRequest {
  int64_t m = 256, n = 512, k = 16384;  // the grid: ceil(m/tile_m) x ceil(n/tile_n) x splits CTAs
  int tile_m = 64, tile_n = 64;         // tile_m in {64, 128}; tile_n in {64, 128, 256}
  int splits = 4;                       // K cut into this many equal slices (whole 64-deep k-blocks)
  int stages = 8;
  int stage_k_blocks = 1;               // k-blocks of 64 a stage (1 or 2): one barrier round trip each
  bool chunked = false;                 // a stage's k-blocks in one 3D TMA box an operand (needs 2 a stage)
  int k_ways = 1;                       // consumer warpgroups a 64 rows taking stages in turn (1, or 2 at N = 64)
  int mma_depth = 1;                    // stages whose MMAs stay in flight before the oldest is released (1..3)
  IngestMode mode = IngestMode::both;
  int iterations = 20;
};

struct IngestPoint {
  IngestRequest request;
  int ctas = 0, k_blocks = 0;          // CTAs launched; k-blocks each CTA streams
  double median_us = 0;                // launch to launch, CUDA events, median
  double cycles_per_k_block = 0;       // median over CTAs of (last - first stage's arrival) / (k_blocks - 1)
  double bytes_per_clock_sm = 0;       // operand bytes a k-block (A + B boxes) over the cycles above
  double sm_mhz = 0;                   // clock64 over globaltimer in the CTAs, median
};

// Host-only: the request's shape rules (tile set, the ring fitting shared memory, at least 2 stages'
// worth of k-blocks a split). Empty when valid.
std::string check_ingest_request(const IngestRequest& r);
// Shared memory the ring takes (bytes, with its barriers and the 1024-byte alignment slack).
int64_t ingest_smem_bytes(const IngestRequest& r);

// Needs an sm_90 GPU: no_device without one, invalid for a request check_ingest_request refuses.
Result<IngestPoint> measure_ingest(const IngestRequest& r);

}  // namespace tcgemm
