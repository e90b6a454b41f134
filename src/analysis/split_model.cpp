#include "analysis/split_model.hpp"

#include <algorithm>

namespace tcgemm {
namespace {

constexpr double kSmL2Bytes = 90e9;  // what one SM's TMA loads sustain from L2 (s4 points, run 13)
// What the producer's thread loads sustain a SM with every SM loading: 1000x1000x1001's 128 CTAs
// ran 16 k-blocks of 24 KB in ~38 of its 40.4 us (run 80), ~10 GB/s.
constexpr double kSmThreadLoadBytes = 10e9;
// The three rates below are fitted, not measured directly:
// - L2: a 128x64 tile x 128 CTAs re-reading a 7 MB A panel at 128x8192x28672 moved 1.41 GB in
//   155 us end to end (run 14), 9.1 TB/s; 9.5 leaves room for the launch and fill in those 155 us.
// - DRAM: 128x256 x4 streamed 470 MB of B there in 138-141 us with its slabs and reduce, 3.4 TB/s
//   end to end; 3.6 once those are charged separately.
// - Slabs: chosen so that V128 x32 loses to V64 x16 at 256x256x65536 by about what run 13 measured
//   (33.2 against 28.9 us), with the old, slower reduce pass.
constexpr double kL2Bytes = 9.5e12;
constexpr double kDramBytes = 3.6e12;
constexpr double kSlabBytes = 3.2e12;
constexpr double kLaunchUs = 2.0;  // a kernel's fill/drain and launch gap on the timeline
// A 1x2 pair's cost beyond its bytes (cluster launch, the pair's shared empty barriers): fitted so
// that at 128x8192x8192 the pair (with half of A's L2 reads) does not win over the plain 128x64
// tile, where it ran 2.4% behind (run 256, H100) and 1.4% behind on the H200 (run 217); at
// 128x8192x28672 it ran 5-7% ahead of the 128x256 x3 split on the H100 (runs 255-256).
constexpr double kPairFixedUs = 4.0;

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

double SplitPassTerms::pass_us() const { return std::max({cta_us, dram_us, l2_us}); }

const char* SplitPassTerms::binding() const {
  if (cta_us >= dram_us && cta_us >= l2_us) return load_kblock_us >= mma_kblock_us ? "a CTA's loads" : "a CTA's MMAs";
  return l2_us >= dram_us ? "L2" : "DRAM";
}

SplitPassTerms split_pass_model_terms(int64_t m, int64_t n, int64_t k, double elem_bytes, double peak_flops,
                                      const SplitPassTile& s, int splits, int sm_count) {
  const int64_t tiles = cdiv(m, s.tile_m) * cdiv(n, s.tile_n);
  const int64_t k_blocks = std::max<int64_t>(1, cdiv(k, s.tile_k));
  const int64_t per = cdiv(k_blocks, std::max(splits, 1));
  const int64_t used = cdiv(k_blocks, per);
  const int64_t ctas = tiles * used;
  const int64_t sms = std::max(sm_count, 1);
  const int64_t rounds = cdiv(ctas, sms);
  const double peak_sm = peak_flops / 132.0;
  const double mma_kb = 2.0 * s.tile_m * s.tile_n * s.tile_k / (peak_sm * s.mma_efficiency);
  const double load_kb = s.load_kblock_seconds > 0
                             ? s.load_kblock_seconds
                             : static_cast<double>(s.tile_m + s.tile_n) * s.tile_k * elem_bytes /
                                   (s.thread_loads ? kSmThreadLoadBytes : kSmL2Bytes);
  const double cta = static_cast<double>(per) * std::max(mma_kb, load_kb);
  const double dram = (static_cast<double>(m) + static_cast<double>(n)) * static_cast<double>(k) * elem_bytes / kDramBytes;
  // Every CTA loads all of its stages: the narrow tiles re-read the other operand's panel.
  const double l2 = static_cast<double>(ctas) * static_cast<double>(per) *
                    (static_cast<double>(s.tile_m) / std::max(s.a_share, 1) + s.tile_n) * s.tile_k * elem_bytes / kL2Bytes;
  SplitPassTerms r;
  r.ctas = ctas;
  r.rounds = rounds;
  r.k_blocks_per_cta = per;
  r.mma_kblock_us = mma_kb * 1e6;
  r.load_kblock_us = load_kb * 1e6;
  r.cta_us = static_cast<double>(rounds) * cta * 1e6;
  r.dram_us = dram * 1e6;
  r.l2_us = l2 * 1e6;
  r.launch_us = kLaunchUs;
  r.fill_us = s.extra_fill_us + (s.a_share > 1 ? kPairFixedUs : 0.0);
  double t = std::max({static_cast<double>(rounds) * cta, dram, l2}) * 1e6 + kLaunchUs + r.fill_us;
  if (used > 1) {
    r.slabs_us = 2.0 * static_cast<double>(used) * static_cast<double>(m) * static_cast<double>(n) * 4.0 / kSlabBytes * 1e6;
    r.reduce_launch_us = kLaunchUs;
    t += r.slabs_us + kLaunchUs;
  }
  r.total_us = t;
  return r;
}

double split_pass_model_us(int64_t m, int64_t n, int64_t k, double elem_bytes, double peak_flops,
                           const SplitPassTile& s, int splits, int sm_count) {
  return split_pass_model_terms(m, n, k, elem_bytes, peak_flops, s, splits, sm_count).total_us;
}

SplitPassPlan best_split_pass(int64_t m, int64_t n, int64_t k, double elem_bytes, double peak_flops,
                              const SplitPassTile* tiles, const bool* allowed, int count, int sm_count, int forced) {
  SplitPassPlan best;
  for (int i = 0; i < count; ++i) {
    if (!allowed[i]) continue;
    const SplitPassTile& t = tiles[i];
    const int64_t k_blocks = std::max<int64_t>(1, cdiv(k, t.tile_k));
    const int64_t cap = std::max<int64_t>(1, std::min<int64_t>({64, k_blocks / 2, t.max_splits}));
    if (forced > t.max_splits) continue;
    for (int64_t s = forced > 0 ? forced : 1; s <= (forced > 0 ? forced : cap); ++s) {
      const int64_t per = cdiv(k_blocks, s);
      const int64_t used = cdiv(k_blocks, per);
      if (forced == 0 && used != s) continue;  // the same split as a smaller count
      const SplitPassTerms terms =
          split_pass_model_terms(m, n, k, elem_bytes, peak_flops, t, static_cast<int>(used), sm_count);
      const double us = terms.total_us;
      if (us < best.us * 0.98) {
        best.terms = terms;
        best.tile = i;
        best.splits = static_cast<int>(used);
        best.k_blocks_per_split = static_cast<int>(per);
        best.ctas = terms.ctas;
        best.us = us;
      }
    }
  }
  return best;
}

}  // namespace tcgemm
