#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <optional>
#include <string>

#include "analysis/path_rules.hpp"
#include "tcgemm/analysis.hpp"

using namespace tcgemm;

namespace {
GemmDesc bf16_tn(int64_t m, int64_t n, int64_t k) {
  GemmDesc g;
  g.m = m; g.n = n; g.k = k;
  return g;
}
const DeviceProfile& h200() { return *find_device_profile("h200"); }
}  // namespace

TEST(Waves, EfficiencyFormula) {
  // 512 tiles on 132 SMs x 1: ceil(512/132) = 4 waves of 132 -> 512/528.
  EXPECT_DOUBLE_EQ(wave_efficiency(512, 132, 1), 512.0 / 528.0);
  EXPECT_DOUBLE_EQ(wave_efficiency(132, 132, 1), 1.0);
  EXPECT_DOUBLE_EQ(wave_efficiency(133, 132, 1), 133.0 / 264.0);
  EXPECT_DOUBLE_EQ(wave_efficiency(24, 148, 1), 24.0 / 148.0);
  EXPECT_DOUBLE_EQ(wave_efficiency(300, 132, 2), 300.0 / 528.0);
  EXPECT_EQ(wave_efficiency(0, 132, 1), 0.0);
}

TEST(Waves, PaddingFormula) {
  EXPECT_DOUBLE_EQ(padding_efficiency(4096, 4096, 4096, 128, 256, 64), 1.0);
  // 4097 pads to 4224 on M (128) and 4352 on N (256) and 4160 on K (64).
  EXPECT_DOUBLE_EQ(padding_efficiency(4097, 4097, 4097, 128, 256, 64),
                   (4097.0 / 4224.0) * (4097.0 / 4352.0) * (4097.0 / 4160.0));
  EXPECT_DOUBLE_EQ(padding_efficiency(16, 8192, 8192, 128, 256, 64), 16.0 / 128.0);
}

TEST(Waves, ModelOf4224Cubed) {
  TileConfig t = default_tile_config(MmaFamily::wgmma, DType::bf16);
  WaveModel w = wave_model(bf16_tn(4224, 4224, 4224), h200(), t, 1);
  EXPECT_EQ(w.tiles_m, 34);  // 33 tile rows in 2-CTA clusters along M: a ghost row
  EXPECT_EQ(w.tiles_n, 17);  // 4224/256 = 16.5
  EXPECT_EQ(w.grid_ctas, 578);
  EXPECT_EQ(w.wave_count, 5);
  EXPECT_DOUBLE_EQ(w.wave_efficiency, 578.0 / 660.0);
  EXPECT_EQ(w.m_padded, 4352);
  EXPECT_EQ(w.n_padded, 4352);
  t.cluster_m = 1;  // unclustered: 33 rows
  EXPECT_EQ(wave_model(bf16_tn(4224, 4224, 4224), h200(), t, 1).grid_ctas, 561);
  EXPECT_EQ(wave_model(bf16_tn(128, 8192, 8192), h200(), default_tile_config(MmaFamily::wgmma, DType::bf16), 1).tiles_m,
            1);  // one tile row is never paired
}

TEST(Roofline, FloorsOf4096CubedOnH200) {
  const DeviceProfile& d = h200();
  Roofline r = roofline(bf16_tn(4096, 4096, 4096), d, peak_tflops(d, DType::bf16));
  EXPECT_DOUBLE_EQ(r.flops, 2.0 * 4096.0 * 4096.0 * 4096.0);
  EXPECT_DOUBLE_EQ(r.min_bytes, 3.0 * 4096.0 * 4096.0 * 2.0);  // A, B, D once; beta = 0
  EXPECT_NEAR(r.arithmetic_intensity, 4096.0 / 3.0, 1e-9);
  EXPECT_TRUE(r.compute_bound);
  EXPECT_NEAR(r.compute_us, r.flops / (d.peak.fp16 * 1e12) * 1e6, 1e-9);
  EXPECT_DOUBLE_EQ(r.floor_us, r.compute_us);
}

TEST(Roofline, DecodeShapeIsMemoryBound) {
  GemmDesc g = bf16_tn(16, 8192, 8192);
  g.beta = 1.0f;
  Roofline r = roofline(g, h200(), peak_tflops(h200(), DType::bf16));
  EXPECT_DOUBLE_EQ(r.min_bytes, (16.0 * 8192 + 8192.0 * 8192 + 2 * 16.0 * 8192) * 2.0);
  EXPECT_FALSE(r.compute_bound);
}

TEST(Roofline, PlainStreamModelWhereMeasured) {
  // H200: 3.8 us + bytes / 4.56 TB/s (run 109): 16x8192x8192's 134.5 MB take ~33.3 us, the
  // measured read of 134 MB at 4 CTAs a SM 33.25.
  const Roofline r = roofline(bf16_tn(16, 8192, 8192), h200(), peak_tflops(h200(), DType::bf16));
  EXPECT_NEAR(r.stream_us, 3.8 + r.min_bytes / 4.56e12 * 1e6, 1e-9);
  EXPECT_NEAR(r.stream_us, 33.3, 0.1);
  EXPECT_GT(r.stream_us, r.memory_us);
  const DeviceProfile* a100 = find_device_profile("a100");
  ASSERT_NE(a100, nullptr);
  EXPECT_EQ(roofline(bf16_tn(16, 8192, 8192), *a100, peak_tflops(*a100, DType::bf16)).stream_us, 0.0);
}

TEST(Alignment, AlignedBf16GetsWgmmaOnHopper) {
  AlignmentRecord a = alignment_record(bf16_tn(4096, 4096, 4096), h200());
  EXPECT_EQ(a.chosen, MmaFamily::wgmma);
  EXPECT_TRUE(a.tensor_core_eligible);
  EXPECT_FALSE(a.needs_repack);
}

TEST(Alignment, OddLeadingDimensionLosesTmaButKeepsTensorCores) {
  AlignmentRecord a = alignment_record(bf16_tn(4097, 4097, 4097), h200());
  const FamilyCheck& wg = family_check(a, MmaFamily::wgmma);
  EXPECT_FALSE(wg.eligible);
  EXPECT_FALSE(wg.a.ok);
  EXPECT_NE(wg.a.reason.find("8194 B, not a multiple of 16"), std::string::npos) << wg.a.reason;
  // tcgemm keeps it on wgmma by copying A and B into an aligned workspace first.
  EXPECT_EQ(a.chosen, MmaFamily::wgmma);
  EXPECT_TRUE(a.tensor_core_eligible);
  EXPECT_TRUE(a.needs_repack);
  EXPECT_NE(a.reason.find("repacking"), std::string::npos) << a.reason;
  // Both A and B copied once each way: 2 * 2 * 4097^2 * 2 bytes over 4.8 TB/s.
  EXPECT_NEAR(a.repack_us, 4.0 * 4097.0 * 4097.0 * 2.0 / 4.8e12 * 1e6, 0.5);
}

TEST(Alignment, MisalignedPointerBreaksTma) {
  GemmDesc g = bf16_tn(4096, 4096, 4096);
  g.b.pointer_alignment = 8;
  AlignmentRecord a = alignment_record(g, h200());
  EXPECT_FALSE(family_check(a, MmaFamily::wgmma).b.ok);
  EXPECT_EQ(a.chosen, MmaFamily::wgmma);
  EXPECT_TRUE(a.needs_repack);
}

TEST(Alignment, NamesTheSlowTmaPitch) {
  // ld 8200: 16400 B, legal for TMA but 16 B past a multiple of 128 (60.0 us against 36.6 at
  // 1024x1024x8192 on the H200, run 149); 8192 and 8256 are not named.
  GemmDesc g = bf16_tn(1024, 1024, 8192);
  g.a.ld = 8200;
  const FamilyCheck& wg = family_check(alignment_record(g, h200()), MmaFamily::wgmma);
  EXPECT_TRUE(wg.a.ok);
  EXPECT_NE(wg.a.reason.find("16 B past a multiple of 128 B"), std::string::npos) << wg.a.reason;
  EXPECT_NE(wg.a.reason.find("64 elements"), std::string::npos) << wg.a.reason;
  EXPECT_EQ(wg.b.reason.find("past a multiple"), std::string::npos) << wg.b.reason;
  g.a.ld = 8256;
  EXPECT_EQ(family_check(alignment_record(g, h200()), MmaFamily::wgmma).a.reason.find("past a multiple"),
            std::string::npos);
}

TEST(Alignment, SingleRowHasNoStrideRule) {
  // M = 1 row-major A: ld is never stepped, so an odd K does not break TMA for A.
  GemmDesc g = bf16_tn(1, 4096, 4095);
  AlignmentRecord a = alignment_record(g, h200());
  EXPECT_TRUE(family_check(a, MmaFamily::wgmma).a.ok);
  EXPECT_FALSE(family_check(a, MmaFamily::wgmma).b.ok);  // B column-major, ld 4095
}

TEST(Alignment, Fp32IsSimtAndTf32IsTensorCore) {
  GemmDesc g = bf16_tn(1024, 1024, 1024);
  g.a.dtype = g.b.dtype = DType::f32;
  AlignmentRecord a = alignment_record(g, h200());
  EXPECT_EQ(a.chosen, MmaFamily::simt);
  EXPECT_FALSE(a.tensor_core_eligible);
  g.a.dtype = g.b.dtype = DType::tf32;
  EXPECT_EQ(alignment_record(g, h200()).chosen, MmaFamily::wgmma);
}

TEST(Alignment, Fp8MustBeKMajorForWgmma) {
  GemmDesc g = bf16_tn(1024, 1024, 1024);
  g.a.dtype = g.b.dtype = DType::e4m3;
  EXPECT_EQ(alignment_record(g, h200()).chosen, MmaFamily::wgmma);
  g.a.layout = Layout::column;
  AlignmentRecord a = alignment_record(g, h200());
  EXPECT_FALSE(family_check(a, MmaFamily::wgmma).a.ok);
  EXPECT_NE(family_check(a, MmaFamily::wgmma).a.reason.find("K-major"), std::string::npos);
  EXPECT_EQ(a.chosen, MmaFamily::mma_sync);
}

TEST(Alignment, NoWgmmaOffHopper) {
  AlignmentRecord a = alignment_record(bf16_tn(4096, 4096, 4096), *find_device_profile("b200"));
  EXPECT_FALSE(family_check(a, MmaFamily::wgmma).available);
  EXPECT_EQ(a.chosen, MmaFamily::mma_sync);
  GemmDesc g = bf16_tn(4096, 4096, 4096);
  g.a.dtype = g.b.dtype = DType::e4m3;
  EXPECT_EQ(alignment_record(g, *find_device_profile("a100")).chosen, MmaFamily::simt);
}

TEST(Explain, DefaultShapeOnH200) {
  const TileConfig t = default_tile_config(MmaFamily::wgmma, DType::bf16);
  Result<ShapeReport> r = explain(bf16_tn(4096, 4096, 4096), h200(), t);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(r->waves.grid_ctas, 512);
  EXPECT_EQ(r->occupancy.ctas_per_sm, 1);
  EXPECT_EQ(r->waves.wave_count, 4);
  EXPECT_GT(r->predicted.total_us, r->roofline.floor_us);
  for (const Advice& a : r->advice) EXPECT_GT(a.predicted_gain, 1.0) << a.action;
}

TEST(Explain, LongKSmallMNAdvisesSplitK) {
  const TileConfig t = default_tile_config(MmaFamily::wgmma, DType::bf16);
  Result<ShapeReport> r = explain(bf16_tn(256, 256, 65536), h200(), t);
  ASSERT_TRUE(r.ok());
  ASSERT_FALSE(r->advice.empty());
  EXPECT_EQ(r->advice.front().action.rfind("split-K", 0), 0u) << r->advice.front().action;
  EXPECT_GT(r->advice.front().predicted_gain, 4.0);
}

TEST(Explain, UnalignedPlanChargesTheRepack) {
  const TileConfig t = default_tile_config(MmaFamily::wgmma, DType::bf16);
  Result<ShapeReport> aligned = explain(bf16_tn(4096, 4096, 4096), h200(), t);
  Result<ShapeReport> odd = explain(bf16_tn(4097, 4097, 4097), h200(), t);
  ASSERT_TRUE(aligned.ok() && odd.ok());
  EXPECT_TRUE(odd->alignment.needs_repack);
  // The copy is in the plan's time: at least the repack over an aligned shape of the same waves.
  EXPECT_GE(odd->predicted.extra_us, odd->alignment.repack_us);
  EXPECT_GT(odd->predicted.total_us, aligned->predicted.total_us + odd->alignment.repack_us * 0.99);
}

// The cliff shapes whose top advice matched the fastest measured path on the H200
// (bench/NOTES.md, "Where the two issues stand"; 64x28672x8192: the wide swap tile, 256 rows of N a CTA, run 224;
// 128x8192x28672: the unsplit 128x64 pair sharing A, ~7% ahead of the split on the H100, runs 255-256;
// 4224^3: the 192x176 tile, 4.8% ahead of 192x192 alone at the power cap on the H100, run 262):
// the advice must keep naming it.
TEST(Explain, TopAdviceIsTheMeasuredCure) {
  const TileConfig t = default_tile_config(MmaFamily::wgmma, DType::bf16);
  const struct {
    int64_t m, n, k;
    const char* action;
  } cases[] = {{4097, 4097, 4097, "repack"},  {4095, 4095, 4095, "repack"},   {1000, 1000, 1001, "repack"},
               {256, 256, 65536, "split-K"},  {512, 1024, 32768, "split-K"}, {333, 777, 4099, "split-K"},
               {16, 8192, 8192, "swap A/B"},  {64, 28672, 8192, "swap A/B"}, {128, 8192, 28672, "128x64 tiles in 1x2 multicast pairs sharing A"},
               {4224, 4224, 4224, "tile 192x176"}};
  for (const auto& c : cases) {
    Result<ShapeReport> r = explain(bf16_tn(c.m, c.n, c.k), h200(), t);
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    ASSERT_FALSE(r->advice.empty()) << c.m << "x" << c.n << "x" << c.k;
    EXPECT_EQ(r->advice.front().action.rfind(c.action, 0), 0u)
        << c.m << "x" << c.n << "x" << c.k << ": top advice is " << r->advice.front().action;
  }
}

// The pair advice stands where gemm()'s split planner takes the pair, and not at K = 8192, where the
// pair ran 2.4% behind the plain 128x64 tile (run 256); 256x256x65536 still splits.
TEST(Explain, PairAdviceOnlyWhereThePlannerTakesIt) {
  const TileConfig t = default_tile_config(MmaFamily::wgmma, DType::bf16);
  auto names_pair = [&](int64_t m, int64_t n, int64_t k) {
    Result<ShapeReport> r = explain(bf16_tn(m, n, k), h200(), t);
    EXPECT_TRUE(r.ok()) << r.status().to_string();
    if (!r.ok()) return false;
    for (const Advice& a : r->advice)
      if (a.action.find("pairs sharing A") != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(names_pair(128, 8192, 28672));
  EXPECT_FALSE(names_pair(128, 8192, 8192));
  EXPECT_FALSE(names_pair(256, 256, 65536));
}

// Widths 16 and 32 split K in clusters whose partials are summed in shared memory (run 190: 16x4096x4096
// 17.4 -> 15.3 us against the slab plan); the advice names that plan and prices it without the combine
// pass, and a half-empty last round's split (run 191: 16x28672x8192 125.7 -> 118.9 us) is named.
TEST(Explain, SwapAdviceNamesTheClusterSplitPlan) {
  const TileConfig t = default_tile_config(MmaFamily::wgmma, DType::bf16);
  Result<ShapeReport> r = explain(bf16_tn(16, 4096, 4096), h200(), t);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  ASSERT_FALSE(r->advice.empty());
  EXPECT_EQ(r->advice.front().action, "swap A/B + split-K x2 summed in clusters of 2");
  Result<ShapeReport> tail = explain(bf16_tn(16, 28672, 8192), h200(), t);
  ASSERT_TRUE(tail.ok()) << tail.status().to_string();
  ASSERT_FALSE(tail->advice.empty());
  EXPECT_EQ(tail->advice.front().action, "swap A/B");
  EXPECT_NE(tail->advice.front().reason.find("last round's 52 of 448 tiles run in 2 K splits"), std::string::npos)
      << tail->advice.front().reason;
  // M of 33-64 runs 64x64 tiles where they fit one round (run 194: 64x4096x4096 18.3 us against
  // 21.4 on 128 rows; run 199: unswapped, 15.7), split in clusters as the narrow tiles; past one
  // round, the swapped 128-row tile.
  Result<ShapeReport> w = explain(bf16_tn(64, 4096, 4096), h200(), t);
  ASSERT_TRUE(w.ok()) << w.status().to_string();
  ASSERT_FALSE(w->advice.empty());
  EXPECT_EQ(w->advice.front().action, "64x64 tiles + split-K x2 summed in clusters of 2");
  EXPECT_NE(w->advice.front().reason.find("(64x64, 14 stages)"), std::string::npos) << w->advice.front().reason;
  // A column-major: the unswapped 64x64 tile takes it where K is long (run 215), and no swap advice
  // is given elsewhere: the swapped tiles need a row-major A.
  GemmDesc col_a = bf16_tn(64, 3072, 12288);
  col_a.a = {DType::bf16, Layout::column, 64};
  Result<ShapeReport> wc = explain(col_a, h200(), t);
  ASSERT_TRUE(wc.ok()) << wc.status().to_string();
  ASSERT_FALSE(wc->advice.empty());
  EXPECT_TRUE(wc->advice.front().action.starts_with("64x64 tiles")) << wc->advice.front().action;
  col_a.k = 4096;
  Result<ShapeReport> wk = explain(col_a, h200(), t);
  ASSERT_TRUE(wk.ok()) << wk.status().to_string();
  for (const auto& a : wk->advice) EXPECT_FALSE(a.action.starts_with("64x64 tiles")) << a.action;
  col_a.m = 16;
  col_a.a.ld = 16;
  Result<ShapeReport> wd = explain(col_a, h200(), t);
  ASSERT_TRUE(wd.ok()) << wd.status().to_string();
  for (const auto& a : wd->advice) EXPECT_FALSE(a.action.starts_with("swap A/B")) << a.action;
  Result<ShapeReport> past = explain(bf16_tn(64, 12288, 4096), h200(), t);
  ASSERT_TRUE(past.ok()) << past.status().to_string();
  ASSERT_FALSE(past->advice.empty());
  EXPECT_NE(past->advice.front().reason.find("(128x64, 9 stages)"), std::string::npos) << past->advice.front().reason;
}

// The tiny kernel is advised where gemm()'s gate takes it and models a gain (run 170: 1x617x633 with
// a row-major B ran 6.5 us on it against 17.3 through the copies, 21x4x1457 6.3 against 14.9), and
// never past the gate (16x8192x8192: the swap tile).
TEST(Explain, TinyAdviceWhereTheGateTakesIt) {
  const TileConfig t = default_tile_config(MmaFamily::wgmma, DType::bf16);
  const auto tiny_rank = [&](GemmDesc g) {
    Result<ShapeReport> r = explain(g, h200(), t);
    EXPECT_TRUE(r.ok()) << r.status().to_string();
    for (size_t i = 0; r.ok() && i < r->advice.size(); ++i)
      if (r->advice[i].action.find("tiny kernel") != std::string::npos) return static_cast<int>(i);
    return -1;
  };
  GemmDesc gemv = bf16_tn(1, 617, 633);
  gemv.b.layout = Layout::row;
  EXPECT_EQ(tiny_rank(gemv), 0);
  EXPECT_EQ(tiny_rank(bf16_tn(21, 4, 1457)), 0);
  EXPECT_EQ(tiny_rank(bf16_tn(16, 8192, 8192)), -1);
  EXPECT_EQ(tiny_rank(bf16_tn(8593, 2, 765)), -1);  // 13M multiply-adds: lost 51 us against 17
}

// The skinny kernel is advised where gemm()'s gate takes it (run 188: 2x2332x10604 29.9 us on it
// against 52.3 on the copies, 4x11007x4097 49.2 against 100.5), priced at its measured 2.3x the plain
// stream; not where the row-class kernel takes the problem (16x8191x8191), below 1024 k (8593x2x765),
// on TMA-legal operands (16x8192x8192: the swap tile) or with B row-major.
TEST(Explain, SkinnyAdviceWhereTheGateTakesIt) {
  const TileConfig t = default_tile_config(MmaFamily::wgmma, DType::bf16);
  const auto skinny = [&](GemmDesc g) -> std::optional<std::string> {  // the advice's reason
    Result<ShapeReport> r = explain(g, h200(), t);
    EXPECT_TRUE(r.ok()) << r.status().to_string();
    for (size_t i = 0; r.ok() && i < r->advice.size(); ++i)
      if (r->advice[i].action.find("the skinny kernel") != std::string::npos) return r->advice[i].reason;
    return std::nullopt;
  };
  const std::optional<std::string> a = skinny(bf16_tn(2, 2332, 10604));
  ASSERT_TRUE(a.has_value());
  EXPECT_NE(a->find("2.3 x the plain stream"), std::string::npos) << *a;
  EXPECT_TRUE(skinny(bf16_tn(4, 11007, 4097)).has_value());
  EXPECT_FALSE(skinny(bf16_tn(16, 8191, 8191)).has_value());
  EXPECT_FALSE(skinny(bf16_tn(8593, 2, 765)).has_value());
  EXPECT_FALSE(skinny(bf16_tn(16, 8192, 8192)).has_value());
  GemmDesc b_row = bf16_tn(2, 2332, 10604);
  b_row.b.layout = Layout::row;
  EXPECT_FALSE(skinny(b_row).has_value());
}

// Row classes (TMA over eight row classes, no copy) are advised exactly where gemm()'s gate takes
// them, priced with the same model (analysis/split_model.hpp). Measured (runs 140, 150, the row-class
// suite): row classes beat the copies at 128x8192x28673 (2.2x cuBLAS), 256x256x65537 (1.8x) and
// 64x8192x8193 (1.8x; padding the ld's and swapping A/B stays first there, a caller's cure); the
// copies beat them at 333x777x4099, 1000x1000x1001 (session 13, call 3), 1024x1024x8193,
// 768x768x8193, 2048x512x16385 (run 141) and 512x1024x32769 (run 150).
TEST(Explain, RowClassAdviceWhereTheyMeasuredFaster) {
  const TileConfig t = default_tile_config(MmaFamily::wgmma, DType::bf16);
  const std::string row = "load A/B by TMA as eight row classes";
  const auto rank = [&](int64_t m, int64_t n, int64_t k) {
    Result<ShapeReport> r = explain(bf16_tn(m, n, k), h200(), t);
    EXPECT_TRUE(r.ok());
    for (size_t i = 0; i < r->advice.size(); ++i)
      if (r->advice[i].action.rfind(row, 0) == 0) return static_cast<int>(i);
    return -1;
  };
  EXPECT_EQ(rank(128, 8192, 28673), 0);
  EXPECT_EQ(rank(256, 256, 65537), 0);
  EXPECT_EQ(rank(64, 8192, 8193), 1);
  for (const auto& s : {std::array<int64_t, 3>{333, 777, 4099}, {1000, 1000, 1001}, {1024, 1024, 8193},
                        {768, 768, 8193}, {2048, 512, 16385}, {512, 1024, 32769}, {128, 8192, 28672}})
    EXPECT_EQ(rank(s[0], s[1], s[2]), -1) << s[0] << "x" << s[1] << "x" << s[2];
}

// The mid-size shapes whose measured fastest path is the swapped or the unswapped fitting width
// (runs 95, 101, 105 on the H200): the pair grid's ghost rows and M padding put it first.
TEST(Explain, MidSizeTopAdviceIsTheMeasuredWidth) {
  const TileConfig t = default_tile_config(MmaFamily::wgmma, DType::bf16);
  const struct {
    int64_t m, n, k;
    const char* action;
  } cases[] = {{320, 8192, 8192, "swap A/B onto a 128x160 tile"}, {384, 8192, 8192, "swap A/B onto a 128x192 tile"},
               {640, 8192, 8192, "swap A/B onto a 128x160 tile"}, {154, 11328, 13808, "swap A/B onto a 128x160 tile"},
               {192, 11008, 4096, "swap A/B onto a 128x192 tile"}, {256, 9216, 8192, "tile 128x144x64"}};
  for (const auto& c : cases) {
    Result<ShapeReport> r = explain(bf16_tn(c.m, c.n, c.k), h200(), t);
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    ASSERT_FALSE(r->advice.empty()) << c.m << "x" << c.n << "x" << c.k;
    EXPECT_EQ(r->advice.front().action, c.action)
        << c.m << "x" << c.n << "x" << c.k << ": top advice is " << r->advice.front().action;
  }
  // 320 = 3 tile rows of 128, run as 4 in CTA pairs: the report's grid says so.
  Result<ShapeReport> r = explain(bf16_tn(320, 8192, 8192), h200(), t);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->waves.tiles_m, 4);
  EXPECT_EQ(r->waves.m_padded, 512);
}

// 4097^3 after the copy: computing D's one-row/one-column edge in the copy beat stream-K on the
// padded grid in the same process (4.25x against 4.07x, bench/NOTES.md "Strips in the copy"), so
// it ranks next after the repack; 4095^3's 127-row/255-column edge is not thin and draws none.
TEST(Explain, ThinEdgeOfACopiedProblemGoesToTheCopy) {
  const TileConfig t = default_tile_config(MmaFamily::wgmma, DType::bf16);
  const auto rank = [&](int64_t n, const std::string& prefix) {
    Result<ShapeReport> r = explain(bf16_tn(n, n, n), h200(), t);
    EXPECT_TRUE(r.ok());
    for (size_t i = 0; i < r->advice.size(); ++i)
      if (r->advice[i].action.rfind(prefix, 0) == 0) return static_cast<int>(i);
    return -1;
  };
  const int strips = rank(4097, "compute D's thin edge"), stream_k = rank(4097, "stream-K");
  ASSERT_GE(strips, 0);
  EXPECT_TRUE(stream_k < 0 || strips < stream_k) << "strips " << strips << ", stream-K " << stream_k;
  EXPECT_EQ(rank(4095, "compute D's thin edge"), -1);
  EXPECT_EQ(rank(4096, "compute D's thin edge"), -1) << "aligned: nothing is copied";
}

// Narrower wgmma tiles run below the 128x256 tile's rate (measured in the tile sweep); a
// compute-bound shape must not be advised onto them. The one tile advice these shapes may draw is
// the cluster kernel's 192-row tile, where it runs fewer tile rounds (4224^3, on 192x176: it fills
// the rounds 192x192 leaves part-full; not 4096^3 or 8192^3).
TEST(Explain, NarrowTilesAreNotAdvisedForComputeBoundShapes) {
  const TileConfig t = default_tile_config(MmaFamily::wgmma, DType::bf16);
  // 4224^3 drew "tile 128x64x64" before the tile efficiency was calibrated.
  for (int64_t n : {4096, 4224, 8192}) {
    Result<ShapeReport> r = explain(bf16_tn(n, n, n), h200(), t);
    ASSERT_TRUE(r.ok());
    for (const Advice& a : r->advice) {
      if (a.action.rfind("tile", 0) != 0) continue;
      EXPECT_EQ(n, 4224) << a.action;
      EXPECT_EQ(a.action.rfind("tile 192x176", 0), 0u) << a.action;
    }
  }
}

// At the power cap a partial last wave runs at a raised clock (its idle SMs leave power to the
// busy ones): 4224^3's stream-K gained ~1% there while the 192x192 tile gained 9% (bench/NOTES.md,
// runs 54 and 60-62). The model charges the last wave max(f^(1/3), sustained/boost) of a full one
// where the sustained clock is known, and a whole wave where it is not.
TEST(TimeModel, PartialLastWaveIsCheaperUnderThePowerCap) {
  const TileConfig t = default_tile_config(MmaFamily::wgmma, DType::bf16);
  DeviceProfile uncapped = h200();
  uncapped.sustained_clock_mhz = 0;
  const GemmDesc g = bf16_tn(4224, 4224, 4224);  // 578 tiles of 128x256 in pairs (33 rows run as 34): 4.38 waves
  const TimeModel capped = predict_time(g, h200(), t, 1, 989.4);
  const TimeModel full = predict_time(g, uncapped, t, 1, 989.4);
  // Last wave 38% full: charged 1520/1980 of a wave (the clock can rise no further) instead of 1.
  EXPECT_NEAR(capped.compute_us / full.compute_us, (4.0 + 1520.0 / 1980.0) / 5.0, 1e-9);
  // Whole waves are unchanged.
  const GemmDesc whole = bf16_tn(128 * 12, 256 * 11, 4096);  // 132 tiles: one full wave
  EXPECT_DOUBLE_EQ(predict_time(whole, h200(), t, 1, 989.4).compute_us,
                   predict_time(whole, uncapped, t, 1, 989.4).compute_us);
  Result<ShapeReport> r = explain(g, h200(), t);
  ASSERT_TRUE(r.ok());
  for (const Advice& a : r->advice) {
    if (a.action == "stream-K") {
      EXPECT_LT(a.predicted_gain, 1.05);
    }
  }
}

// After a full wave, stream-K is advised only for tiles of 64 k-blocks or more, the bound gemm()
// shares at (path_rules.hpp; run 175: sharing lost at 4-32 k-blocks, 4224x4224x256 36.6 us against
// 28.5 plain). 4224^3 (66 k-blocks) may still draw it.
TEST(Explain, StreamKAdviceNeedsLongTiles) {
  const TileConfig t = default_tile_config(MmaFamily::wgmma, DType::bf16);
  for (int64_t k : {256, 1024, 4032}) {
    Result<ShapeReport> r = explain(bf16_tn(4224, 4224, k), h200(), t);
    ASSERT_TRUE(r.ok());
    for (const Advice& a : r->advice) EXPECT_NE(a.action, "stream-K") << "K = " << k;
  }
  EXPECT_EQ(kStreamKMinSharedKTiles, 64);
}

// The swap tiles read both operands K-major through TMA with no copy in front: a misaligned
// small-M problem is told to pad its leading dimensions first (priced without the copies), and a
// row-major (N-major) B draws no swap advice at all, since no swap path can run it.
TEST(Explain, SwapAdviceOnlyWhereASwapPathCanRun) {
  const TileConfig t = default_tile_config(MmaFamily::wgmma, DType::bf16);
  Result<ShapeReport> misaligned = explain(bf16_tn(87, 6819, 47), h200(), t);  // lda = ldb = 47
  ASSERT_TRUE(misaligned.ok());
  ASSERT_FALSE(misaligned->advice.empty());
  EXPECT_EQ(misaligned->advice.front().action.rfind("pad lda/ldb to 16 bytes, then swap A/B", 0), 0u)
      << misaligned->advice.front().action;
  GemmDesc nn = bf16_tn(1, 617, 633);
  nn.b.layout = Layout::row;
  Result<ShapeReport> r = explain(nn, h200(), t);
  ASSERT_TRUE(r.ok());
  for (const Advice& a : r->advice) EXPECT_EQ(a.action.find("swap A/B"), std::string::npos) << a.action;
  Result<ShapeReport> aligned = explain(bf16_tn(16, 8192, 8192), h200(), t);
  ASSERT_TRUE(aligned.ok());
  EXPECT_EQ(aligned->advice.front().action.rfind("swap A/B", 0), 0u) << aligned->advice.front().action;
}

TEST(Explain, RejectsBadInput) {
  EXPECT_EQ(explain(bf16_tn(0, 1, 1), h200(), TileConfig{}).status().code(), StatusCode::invalid_argument);
  TileConfig t;
  t.tile_m = 0;
  EXPECT_FALSE(explain(bf16_tn(8, 8, 8), h200(), t).ok());
}
