// The shape doctor: what a GEMM shape costs on a device and a kernel configuration, and why.
// Pure host code: plain structs in, plain structs out, no CUDA runtime.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tcgemm/device.hpp"
#include "tcgemm/occupancy.hpp"
#include "tcgemm/problem.hpp"

namespace tcgemm {

// A kernel configuration as the analyzer sees it. Real figures from a compiled kernel where known
// (registers from ptxas, smem from the kernel's layout); otherwise the family's defaults.
struct TileConfig {
  MmaFamily family = MmaFamily::wgmma;
  int tile_m = 128, tile_n = 256, tile_k = 64;
  int stages = 4;
  int threads = 384;
  int regs_per_thread = 168;
  int64_t smem_per_cta = 0;  // 0: derived from the tile and stages (see estimated_smem_bytes)
  // CTAs a cluster holds along M (2: the persistent cluster kernel's pairs of tile rows). The grid's
  // tile rows round up to a multiple: an odd count leaves a ghost row that holds an SM and a round
  // slot like a real one (320 x N on 128-row tiles: 3 rows run as 4).
  int cluster_m = 1;
};

// The configuration tcgemm's best kernel of that family uses on this device and dtype.
TileConfig default_tile_config(MmaFamily family, DType input);
// stages * (TM + TN) * TK * element bytes + barrier/epilogue bookkeeping.
int64_t estimated_smem_bytes(const TileConfig& t, DType input);

// ---- roofline ------------------------------------------------------------------------------
struct Roofline {
  double flops = 0;                 // 2 M N K
  double min_bytes = 0;             // A and B read once, C read if beta != 0, D written once
  double arithmetic_intensity = 0;  // flops / min_bytes
  double ridge_intensity = 0;       // peak flops / bandwidth: above it compute binds
  double peak_tflops = 0;           // for the MMA family the problem gets
  double compute_us = 0, memory_us = 0;
  double floor_us = 0;              // the larger of the two
  bool compute_bound = true;
  // A plain stream of min_bytes on this board, by the device's measured model (0: not measured):
  // how close the memory floor can be approached at all.
  double stream_us = 0;
};
Roofline roofline(const GemmDesc& g, const DeviceProfile& d, double peak_tflops);

// ---- tile grid and waves ---------------------------------------------------------------------
// eta_wave = G / (ceil(G / (S b)) S b)
double wave_efficiency(int64_t grid_ctas, int sm_count, int ctas_per_sm);
// eta_pad = M N K / (M' N' K'), each dimension rounded up to its tile
double padding_efficiency(int64_t m, int64_t n, int64_t k, int tm, int tn, int tk);
// The CTAs a cluster holds along M for this M: t.cluster_m, but 1 where M is a single tile row
// (gemm() never pairs one row: the swap, ping-pong and split-K paths take it).
int cluster_ctas_m(int64_t m, const TileConfig& t);
// ceil(M / TM) rounded up to a multiple of cluster_ctas_m: the grid's tile rows.
int64_t cluster_tile_rows(int64_t m, const TileConfig& t);

struct WaveModel {
  int64_t tiles_m = 0, tiles_n = 0, grid_ctas = 0;
  int ctas_per_sm = 0;
  int64_t resident_ctas = 0;  // S * b
  double waves = 0;           // G / (S b)
  int64_t wave_count = 0;     // ceil
  double wave_efficiency = 0;
  double padding_efficiency = 0;
  int64_t m_padded = 0, n_padded = 0, k_padded = 0;
};
WaveModel wave_model(const GemmDesc& g, const DeviceProfile& d, const TileConfig& t, int ctas_per_sm);

// ---- alignment and Tensor Core eligibility ---------------------------------------------------
struct OperandCheck {
  bool ok = true;
  std::string reason;  // why it fails the rule, or what it satisfies
  int64_t ld = 0;
  int64_t ld_bytes = 0;
  uint32_t pointer_alignment = 0;
};
struct FamilyCheck {
  MmaFamily family = MmaFamily::simt;
  bool available = false;  // the device and dtype have this instruction at all
  bool eligible = false;   // and this problem's layout/alignment satisfies it
  std::string reason;
  OperandCheck a, b, c;
};
struct AlignmentRecord {
  std::vector<FamilyCheck> families;  // wgmma, mma.sync, wmma, simt: each rule checked
  MmaFamily chosen = MmaFamily::simt; // what the problem gets
  bool tensor_core_eligible = false;
  std::string reason;                 // one sentence: which family and why
  bool needs_repack = false;          // wgmma only after tcgemm's copy into an aligned workspace
  double repack_us = 0;               // that copy's predicted cost (in the plan's predicted time)
};
AlignmentRecord alignment_record(const GemmDesc& g, const DeviceProfile& d);
const FamilyCheck& family_check(const AlignmentRecord& r, MmaFamily f);

// ---- advice ------------------------------------------------------------------------------------
struct Advice {
  std::string action;       // "split-K x8", "stream-K", "tile 128x128x64", "swap A/B", ...
  double predicted_gain = 1;  // predicted time of the current plan / predicted time with this
  std::string reason;
};

// A plain, stated time model: wave-quantized padded FLOPs over the family's peak, against the
// bytes over bandwidth limited by how many SMs issue loads; the larger binds.
// NOTES: fitted with the split-K planner's rates (split_k.cu, runs 13-14): a kernel's fill, drain
// and the gap before it on the timeline, charged once per launch a plan makes. Without it a tiny
// problem's prediction was its bytes over bandwidth: 78x1096x28 predicted 2.6 us where its four
// paths measured 7.0-12.8 us (run 80).
inline constexpr double kKernelLaunchUs = 2.0;

struct TimeModel {
  double compute_us = 0, memory_us = 0;
  double epilogue_us = 0;  // epilogues a non-persistent grid exposes, one per wave
  double launch_us = 0;    // the GEMM kernel's launch: fill, drain and the gap before it
  double combine_us = 0;   // split-K's reduction pass, its launch included
  double copy_us = 0;      // the repack copies, when the plan needs them, their launch included
  double extra_us = 0;     // launch + epilogue + combine + copy
  double total_us = 0;     // max(compute, memory) + 0.15 * min(compute, memory) + extra
};
TimeModel predict_time(const GemmDesc& g, const DeviceProfile& d, const TileConfig& t,
                       int ctas_per_sm, double peak_tflops, int split_k = 1);
// The model's charge for a compute and a memory time that run together: the larger, plus a
// fixed fraction of the smaller (they never overlap perfectly). Shared by every plan the advice prices.
double overlapped_us(double compute_us, double memory_us);

struct ShapeReport {
  GemmDesc desc;
  DeviceProfile device;
  TileConfig tile;
  Roofline roofline;
  WaveModel waves;
  Occupancy occupancy;
  AlignmentRecord alignment;
  TimeModel predicted;
  std::vector<Advice> advice;  // best first; empty when nothing beats the current plan
};

Result<ShapeReport> explain(const GemmDesc& g, const DeviceProfile& d, const TileConfig& t);

}  // namespace tcgemm
