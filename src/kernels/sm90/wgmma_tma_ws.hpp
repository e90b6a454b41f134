// Host entry points of the warp-specialized TMA + wgmma kernel (wgmma_tma_ws.cu), for the
// registry. Input is bf16 or f16 (any A/B layout) or tf32 (f32 storage; A row-major and B
// column-major only); every other choice (layouts, tails, epilogue) is run time.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "kernels/common/in_kernel_copy.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {

struct Sm90WsShape {
  int tile_m, tile_n, tile_k, stages, threads, smem_bytes;
};

// A compiled tile variant: (64 * consumers) x tile_n with `stages` pipeline stages. {256, 4} is the
// large-problem kernel (every layout and epilogue, tf32). sm90_wgmma_ws_narrow_variant(n) for n in
// {128, 64, 32, 16} fills shared memory with stages and takes a column-major (K-major) B: the
// swap-A/B path runs on it. {256, 3}, {128, 4} and {64, 4} exist for the tile/stage sweep (A
// row-major, B column-major, bf16).
// consumers = 1 halves the tile to 64 rows (narrow tiles 16, 32 and 64); 4 doubles it to 256
// (narrow tile 64 only).
// thread_loads: the `_ldg` kernels ({128, max} and {64, max}, 16-bit inputs): the producer
// warpgroup loads A and B with plain loads, so any alignment and layout runs without a copy.
// row_classes: the `_rowclass` kernels (the same two tiles, 16-bit, A row-major and B column-major):
// any ld and element-aligned base, loaded by TMA as eight row classes each (tensor_map.hpp), no copy.
// in_copy: the `_repack_fused` kernels ({256, 4}, {128, max}, {64, max}; 16-bit, A row-major and B
// column-major): the grid copies misaligned operands itself before loading them (in_kernel_copy.hpp).
struct Sm90WsVariant {
  int tile_n = 256;
  int stages = 4;
  int consumers = 2;
  bool thread_loads = false;
  bool row_classes = false;
  bool in_copy = false;
  // K-blocks a pipeline stage holds (one barrier round trip for all): 1, or 2 on the two-k-block
  // split tiles (K-major A and B: the planner's 64x64, bf16 and f16, and 128x64x128 s4 by name;
  // bench/NOTES.md, session 50).
  int stage_k_blocks = 1;
  friend bool operator==(const Sm90WsVariant&, const Sm90WsVariant&) = default;
};
Sm90WsVariant sm90_wgmma_ws_narrow_variant(int tile_n, int consumers = 2);
// The split planner's 64x64 tile (bf16 and f16): one consumer, 7 stages of two k-blocks. Run 276
// streamed 256x512x16384 x4 at 312 cycles a k-block against the 14 one-k-block stages' 418.
inline constexpr Sm90WsVariant kSm90Ws64x64TwoKBlocks{.tile_n = 64, .stages = 7, .consumers = 1, .stage_k_blocks = 2};
std::string to_string(Sm90WsVariant v);

// TMA multicast: clusters of m x n CTAs (1 or 2 each, along x) run m x n neighbouring tiles; the
// CTAs of a tile row load 1/n of its A rows each into all of them, those of a tile column 1/m of
// its B rows, so L2 sends each operand's box once a cluster row or column. K-major A and B only,
// the tiles dividing into whole clusters (sm90_wgmma_ws_multicast_supports says why not).
struct Sm90Multicast {
  int m = 1, n = 1;
  friend bool operator==(const Sm90Multicast&, const Sm90Multicast&) = default;
};
Status sm90_wgmma_ws_supports(const GemmDesc& g, DType input, Sm90WsVariant v = {});
// allow_direct_store: a row-major, 16-bit (input type) D with beta == 0 is stored straight from
// registers, edge tiles bounded (the `_ds` kernel is {256, 4}'s); otherwise, and with false (the
// plain `_ws` kernel, kept to measure the staged epilogue against), the smem-staged epilogue runs.
// copy: exactly when v.in_copy, the operands the grid copies first (args then name the copies).
Status sm90_wgmma_ws_launch(const GemmArgs& args, DType input, bool allow_direct_store = true,
                            Sm90WsVariant v = {}, const InCopy* copy = nullptr);
// Split-K's first pass (split_k.cu runs it, then the reduce): gridDim.z = splits, split z multiplies
// k-blocks [z*k_blocks_per_split, (z+1)*k_blocks_per_split) (the last one clipped to K) and stores
// its raw f32 sum, no alpha/beta, to partials + z*M*N (in D's layout, tight ld: N for row-major
// D, M for column-major). The splits must tile the
// k-blocks with none empty. args.d/args.c are not touched, unless folded (below).
Status sm90_wgmma_ws_launch_partials(const GemmArgs& args, DType input, int k_blocks_per_split, int splits,
                                     float* partials, Sm90WsVariant v = {}, const InCopy* copy = nullptr,
                                     Sm90Multicast mc = {}, uint32_t* fold_counters = nullptr);
// fold_counters: the split pass also reduces (slab_fold.cuh) and writes D, meeting at
// fold_counters[tile] (zero before, left zero); only where sm90_wgmma_ws_can_fold() says so.
inline constexpr int kFoldCounterWords = 2048;
bool sm90_wgmma_ws_can_fold(const GemmDesc& g, Sm90WsVariant v, int splits, int sm_count);
Status sm90_wgmma_ws_multicast_supports(const GemmDesc& g, DType input, Sm90WsVariant v, Sm90Multicast mc);
// The plain GEMM (one split, D written directly) in multicast clusters.
Status sm90_wgmma_ws_launch_multicast(const GemmArgs& args, DType input, Sm90WsVariant v, Sm90Multicast mc);
// CTAs of v resident at once in clusters of mc (cudaOccupancyMaxActiveClusters x the cluster size;
// the SM count for 1 x 1; 0 without a GPU or an instance).
int sm90_wgmma_ws_multicast_resident_ctas(DType input, Sm90WsVariant v, Sm90Multicast mc);
// The multicast instance of v (bf16, K-major A and B), for attributes; nullptr where none is compiled.
const void* sm90_wgmma_ws_multicast_function(DType input, Sm90WsVariant v);
// Split-K without slabs: a tile's splits are one cluster; rank 0 adds the peers' f32 sums from
// their shared memory in rank order and stores D with alpha/beta, so no workspace and no reduce
// launch. For the narrow swap tiles, whose sums are a few KB (swap_ab.cu decides). Either every
// tile splits (splits of k_blocks_per_split: gridDim.z = splits, clusters along z), or only the
// tail (splits = 1): tiles [0, tail_first) run unsplit and the rest in tail_splits splits of
// tail_k_blocks_per_split (clusters of tail_splits along x; tail_first a multiple of it), so a
// last partial round of tiles spreads over more SMs.
inline constexpr int kMaxClusterSplits = 8;    // the portable cluster size
inline constexpr int kMaxClusterSumWidth = 128;  // the tiles it is compiled for: N <= 128
struct Sm90ClusterSplit {
  int splits = 1;
  int k_blocks_per_split = 0;
  int64_t tail_first = 0;
  int tail_splits = 1;
  int tail_k_blocks_per_split = 0;
};
Status sm90_wgmma_ws_launch_cluster_split(const GemmArgs& args, DType input, Sm90WsVariant v,
                                          const Sm90ClusterSplit& split);
// The TN instance, for attributes (tf32 has no direct-store instance: its D is f32; direct_store
// is ignored for it and for every variant but {256, 4}).
const void* sm90_wgmma_ws_function(DType input, bool direct_store = false, Sm90WsVariant v = {});
// tile_k is 64 for the 16-bit inputs, 32 for tf32 (one 128-byte row either way); all zeros for a
// variant that is not compiled.
Sm90WsShape sm90_wgmma_ws_shape(DType input = DType::bf16, Sm90WsVariant v = {});
// What every sm90 registry entry shares (register_sm90.cu): the family, the tile as registered,
// the launch shape; supports/launch are the caller's.
KernelEntry wgmma_entry(std::string_view name, DType input, const Sm90WsShape& s);

// Diagnosis: while set (a device buffer of trace_ctas() x trace_words() uint64), every launch of
// this kernel (and of swap_steal.cu's) writes each CTA's globaltimer stamps there (entry, after the PDL wait, SM id, first
// and last stage full, last MMA done); nullptr turns it off. Not thread-safe; for tests and notes.
void sm90_wgmma_ws_set_trace(uint64_t* stamps);
uint64_t* sm90_wgmma_ws_trace();  // the buffer set (swap_steal.cu stamps the same words)
int sm90_wgmma_ws_trace_words();
int sm90_wgmma_ws_trace_ctas();

}  // namespace tcgemm
