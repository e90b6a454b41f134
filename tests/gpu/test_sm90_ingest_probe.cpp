// The ingest probe (`tcgemm ingest`): its request rules anywhere, its readings on an sm_90 GPU.
#include <gtest/gtest.h>

#include "gpu_test_util.hpp"
#include "kernels/sm90/ingest_probe.hpp"

namespace tcgemm {
namespace {

IngestRequest small(IngestMode mode) {
  IngestRequest r;
  r.m = 128, r.n = 256, r.k = 4096, r.tile_m = 64, r.tile_n = 64, r.splits = 2, r.stages = 6, r.mode = mode;
  r.iterations = 3;
  return r;
}

TEST(IngestProbe, RefusesWhatItCannotRun) {
  IngestRequest r = small(IngestMode::both);
  EXPECT_EQ(check_ingest_request(r), "");
  r.tile_n = 32;
  EXPECT_NE(check_ingest_request(r).find("not one of"), std::string::npos);
  r = small(IngestMode::both);
  r.tile_m = 128, r.tile_n = 256, r.stages = 8;  // 8 x 48 KB
  EXPECT_NE(check_ingest_request(r).find("shared memory"), std::string::npos);
  r = small(IngestMode::both);
  r.k = 4096 + 64;  // not whole k-blocks a split
  EXPECT_NE(check_ingest_request(r).find("multiple of 64"), std::string::npos);
  r = small(IngestMode::both);
  r.k = 64 * 2, r.splits = 2;  // one k-block a split leaves nothing to time
  EXPECT_NE(check_ingest_request(r), "");
  r = small(IngestMode::both);
  r.stages = 1;
  EXPECT_NE(check_ingest_request(r), "");
  EXPECT_EQ(measure_ingest(r).status().code(), StatusCode::invalid_argument);
  r = small(IngestMode::both);
  r.chunked = true;  // one box a stage needs two k-blocks a stage
  EXPECT_NE(check_ingest_request(r).find("chunked"), std::string::npos);
  r.stage_k_blocks = 2;
  EXPECT_EQ(check_ingest_request(r), "");
  r.stage_k_blocks = 3;
  EXPECT_NE(check_ingest_request(r), "");
  r = small(IngestMode::both);
  r.mma_depth = 4;
  EXPECT_NE(check_ingest_request(r).find("MMA depth"), std::string::npos);
  r.mma_depth = 3, r.stages = 3;  // the ring must hold the stages in flight and one to fill
  EXPECT_NE(check_ingest_request(r).find("MMA depth"), std::string::npos);
  r = small(IngestMode::both);
  r.k_ways = 2;
  EXPECT_EQ(check_ingest_request(r), "");
  r.mma_depth = 3;  // 3 x 2 stages in flight do not fit 6
  EXPECT_NE(check_ingest_request(r).find("MMA depth"), std::string::npos);
  r = small(IngestMode::both);
  r.k_ways = 2, r.tile_n = 128;
  EXPECT_NE(check_ingest_request(r).find("K ways"), std::string::npos);
  EXPECT_FALSE(parse_ingest_mode("loads").ok());
  EXPECT_EQ(*parse_ingest_mode("mma"), IngestMode::mma);
}

// Readings that physics bounds: the MMAs alone never beat the Tensor Cores' 2048 FMA a clock an SM
// (a 64x64x64 k-block: 128 cycles), loads alone move bytes at a finite positive rate, and every mode
// reports the clock it ran at.
TEST(IngestProbe, ReadingsAreBoundedOnSm90) {
  TCGEMM_REQUIRE_GPU(90);
  if (::tcgemm::test::gpu_sm() != 90) GTEST_SKIP() << "the probe is sm_90 only";
  for (int layout = 0; layout < 6; ++layout) {
    for (IngestMode mode : {IngestMode::tma, IngestMode::mma, IngestMode::both}) {
      SCOPED_TRACE(std::string(ingest_mode_name(mode)) + " layout " + std::to_string(layout));
      IngestRequest r = small(mode);
      r.stage_k_blocks = layout == 1 || layout == 2 ? 2 : 1;
      r.chunked = layout == 2;  // the 3D K-chunk map: its encode and its loads must work
      r.mma_depth = layout == 3 ? 3 : 1;
      r.k_ways = layout >= 4 ? 2 : 1;  // K split between two warpgroups, one k-block (4) or two (5) a stage
      if (layout == 5) r.stage_k_blocks = 2;
      Result<IngestPoint> p = measure_ingest(r);
      ASSERT_TRUE(p.ok()) << p.status().message();
      EXPECT_EQ(p->ctas, 2 * 4 * 2);
      EXPECT_EQ(p->k_blocks, 32);
      EXPECT_GT(p->median_us, 0);
      EXPECT_GT(p->sm_mhz, 500);
      EXPECT_LT(p->sm_mhz, 2500);
      EXPECT_GT(p->bytes_per_clock_sm, 0);
      EXPECT_LT(p->bytes_per_clock_sm, 1024);
      if (mode != IngestMode::tma) {
        EXPECT_GE(p->cycles_per_k_block, 0.95 * 128);
      }
    }
  }
}

}  // namespace
}  // namespace tcgemm
