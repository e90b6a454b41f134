// A deliberately simple, stated time model. It is a bound with the wave and padding losses put
// back in, not a simulator: the advice compares plans under the same model, and
// `explain --measure` checks it against the GPU.
#include <algorithm>
#include <cmath>

#include "tcgemm/analysis.hpp"

namespace tcgemm {
namespace {
int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Lead, not a measurement: about half of an H100/H200's SMs can saturate HBM, so a grid on
// fewer SMs than that gets a proportional share of the bandwidth.
constexpr double kSmFractionToSaturateDram = 0.5;

// NOTES: compute and memory never overlap perfectly (TMA issue, barrier round trips, and padded
// MMAs spend the power budget that sets the clock), so the smaller of the two is charged at this
// fraction. It is what makes a 128-row tile at M = 16, whose 8x padded MMAs still hide under the
// memory time, lose to the narrow swap-A/B tile, as measured (bench/NOTES.md).
constexpr double kOverlapLoss = 0.15;

// NOTES: measured on the H200 (run 14, bench/NOTES.md): a 128x64 tile on 128 CTAs re-reading a
// 7 MB A panel at 128x8192x28672 moved 1.41 GB from L2 into the SMs in 155 us end to end, 9.1 TB/s,
// about twice the 4.8 TB/s datasheet DRAM rate; other devices are assumed to keep the same ratio
// (not measured).
constexpr double kL2OverDram = 2.0;

// NOTES: measured, not derived (bench/NOTES.md, tile/stage sweep, H200, one CTA/SM): the rate a
// 128 x N wgmma tile sustains relative to 128x256, because wgmma re-reads its B operand from
// shared memory for every 64-row slice, so narrower tiles move more bytes per FLOP.
// 128x128: 534/580 and 569/641 TFLOP/s at 4096^3 and 8192^3 (0.92, 0.89) -> 0.89; 128x64:
// 366/580, 413/641 (0.63, 0.64) -> 0.64. Narrower tiles are only run memory-bound (swap A/B), where this term does not bind.
// 192x192 (three m64n192 warpgroups, the cluster kernel): 648-654 TFLOP/s at 4224^3 and 3072^3
// against 669 for 128x256 at 4096^3 with fewer idle SMs (runs 60-62) -> 0.98. 192x176 (three
// m64n176): 674 TFLOP/s at 4224^3 in one process (H100, run 259), 222.6-223.0 us alone against
// 192x192's 230.8-234.3 (run 262) -> the same 0.98.
double wgmma_tile_efficiency(const TileConfig& t) {
  if (t.family != MmaFamily::wgmma) return 1.0;
  if (t.tile_m >= 192 && t.tile_n >= 176) return 0.98;  // 192x192 included
  const int lo = std::min(t.tile_m, t.tile_n), hi = std::max(t.tile_m, t.tile_n);
  if (lo >= 128) return hi >= 256 ? 1.0 : 0.89;
  if (lo >= 64) return 0.64;
  return 0.4;
}

// NOTES: the time of the last wave relative to a full one. Where the board sustains full load
// below its boost clock (the power cap), a last wave with a fraction f of the CTA slots busy
// draws less power, so its clock rises until the cap binds again or the boost clock is reached:
// with dynamic power ~ f x clock^3 (voltage follows clock), the wave takes max(f^(1/3),
// sustained / boost) of a full one. A lead, checked against one pair of measurements (4224^3,
// runs 54 and 60-62): a 38%-full last round made 128x256 stream-K gain ~1% where a full-clock
// model predicted ~14%, while 192x192 tiles (3.67 rounds against 4.38) gained 9%.
double partial_wave_cost(const DeviceProfile& d, int64_t tiles, int64_t resident) {
  const int64_t rest = tiles % resident;
  if (rest == 0) return 1.0;
  const double f = static_cast<double>(rest) / static_cast<double>(resident);
  if (d.sustained_clock_mhz <= 0 || d.boost_clock_mhz <= d.sustained_clock_mhz) return 1.0;
  return std::max(std::cbrt(f), d.sustained_clock_mhz / d.boost_clock_mhz);
}
}  // namespace

TimeModel predict_time(const GemmDesc& g, const DeviceProfile& d, const TileConfig& t,
                       int ctas_per_sm, double peak_tflops, int split_k) {
  TimeModel tm;
  if (ctas_per_sm < 1 || peak_tflops <= 0) return tm;
  split_k = std::max(split_k, 1);
  const int64_t k_slice = ceil_div(g.k, split_k);
  const int64_t tiles = cluster_tile_rows(g.m, t) * ceil_div(g.n, t.tile_n) * split_k;
  const int64_t resident = int64_t{d.sm_count} * ctas_per_sm;
  const int64_t waves = ceil_div(tiles, resident);
  const double k_padded = static_cast<double>(ceil_div(k_slice, t.tile_k) * t.tile_k);
  // Each wave runs b CTAs per SM at the SM's share of the peak.
  const double per_sm_flops = peak_tflops * wgmma_tile_efficiency(t) * 1e12 / d.sm_count;
  const double tile_us = 2.0 * t.tile_m * t.tile_n * k_padded / per_sm_flops * 1e6;
  tm.compute_us = (static_cast<double>(waves - 1) + partial_wave_cost(d, tiles, resident)) * ctas_per_sm * tile_us;

  const double bw = d.mem_bandwidth_gbs * 1e9;
  const double busy_sms = static_cast<double>(std::min<int64_t>(tiles, d.sm_count));
  const double bw_share = std::min(1.0, busy_sms / (kSmFractionToSaturateDram * d.sm_count));
  const double ab = static_cast<double>(g.m * g.k * static_cast<int64_t>(dtype_bytes(g.a.dtype)) +
                                        g.k * g.n * static_cast<int64_t>(dtype_bytes(g.b.dtype)));
  const double mn = static_cast<double>(g.m * g.n);
  const double cd = mn * static_cast<double>(dtype_bytes(g.d.dtype)) +
                    (g.beta != 0.0f ? mn * static_cast<double>(dtype_bytes(g.c.dtype)) : 0.0);
  const double partials = split_k > 1 ? mn * 4.0 * split_k : 0.0;  // f32 partial tiles written
  tm.memory_us = (ab + (split_k > 1 ? partials : cd)) / (bw * bw_share) * 1e6;
  // Every CTA loads its own A and B tiles from L2: narrow tiles re-read the other operand's panel
  // once per tile, which can bind before DRAM does. A cluster along M reads each B tile once and
  // multicasts it to its CTAs.
  const double b_share = cluster_ctas_m(g.m, t);
  const double tile_loads = static_cast<double>(tiles) * k_padded *
                            (static_cast<double>(t.tile_m) * dtype_bytes(g.a.dtype) +
                             static_cast<double>(t.tile_n) * dtype_bytes(g.b.dtype) / b_share);
  tm.memory_us = std::max(tm.memory_us, tile_loads / (bw * kL2OverDram * bw_share) * 1e6);
  // The combine pass reads every partial and writes D, on the whole device.
  if (split_k > 1) tm.combine_us = (partials + cd) / bw * 1e6 + kKernelLaunchUs;
  // A non-persistent grid exposes each wave's epilogue (the tile leaving at the SM's share of
  // bandwidth) once per wave.
  const double tile_out = static_cast<double>(t.tile_m) * t.tile_n * dtype_bytes(g.d.dtype) * ctas_per_sm;
  tm.epilogue_us = static_cast<double>(waves) * tile_out / (bw / d.sm_count) * 1e6;
  tm.launch_us = kKernelLaunchUs;
  tm.extra_us = tm.launch_us + tm.epilogue_us + tm.combine_us;
  tm.total_us = overlapped_us(tm.compute_us, tm.memory_us) + tm.extra_us;
  return tm;
}

double overlapped_us(double compute_us, double memory_us) {
  return std::max(compute_us, memory_us) + kOverlapLoss * std::min(compute_us, memory_us);
}

}  // namespace tcgemm
