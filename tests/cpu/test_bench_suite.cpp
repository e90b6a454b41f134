#include <gtest/gtest.h>

#include <sstream>

#include "tcgemm/bench_suite.hpp"

using namespace tcgemm;
using namespace tcgemm::cli;

TEST(BenchSuite, ParsesShapesDtypesAndComments) {
  auto p = parse_suite("# header\n4096 4096 4096\n\n16 8192 8192 f16\n64 64 64 tf32:row tf32:column f32:row # c\n",
                       "t.txt");
  ASSERT_TRUE(p.ok()) << p.status().message();
  ASSERT_EQ(p->size(), 3u);
  EXPECT_EQ((*p)[0].desc.m, 4096);
  EXPECT_EQ((*p)[0].desc.a.dtype, DType::bf16);
  EXPECT_EQ((*p)[0].desc.b.layout, Layout::column);
  EXPECT_EQ((*p)[1].desc.b.dtype, DType::f16);
  EXPECT_EQ((*p)[1].desc.d.dtype, DType::f16);
  EXPECT_EQ((*p)[2].desc.a.dtype, DType::tf32);
  EXPECT_EQ((*p)[2].desc.d.dtype, DType::f32);
}

TEST(BenchSuite, ErrorsNameFileAndLine) {
  auto p = parse_suite("4096 4096\n", "s.txt");
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("s.txt:1"), std::string::npos);
  p = parse_suite("1 1 1\n0 4 4\n", "s.txt");
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("s.txt:2"), std::string::npos);
  EXPECT_FALSE(parse_suite("# only comments\n", "s.txt").ok());
  EXPECT_FALSE(parse_suite("8 8 8 bf17\n", "s.txt").ok());
}

TEST(BenchSuite, SummaryPicksTheFastestPassingKernelAndTheRatio) {
  std::vector<ProfileRow> rows(4);
  rows[0] = {"p1", 1, 1, 1, "", "", "", "", 1, 0, "tcgemm", "slow", "passed", "", 2.0, 500000, 0, 0, "", 0};
  rows[1] = {"p1", 1, 1, 1, "", "", "", "", 1, 0, "tcgemm", "wrong", "failed", "", 1.0, 900000, 0, 0, "", 0};
  rows[2] = {"p1", 1, 1, 1, "", "", "", "", 1, 0, "tcgemm", "fast", "passed", "", 1.5, 700000, 0, 0, "", 0};
  rows[3] = {"p1", 1, 1, 1, "", "", "", "", 1, 0, "cublas", "lt", "passed", "", 1.4, 680000, 0, 0, "", 0};
  const auto lines = summarize(rows);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].best_kernel, "fast");
  EXPECT_DOUBLE_EQ(lines[0].tcgemm_tflops, 700.0);
  EXPECT_DOUBLE_EQ(lines[0].ratio, 700.0 / 680.0);
  std::ostringstream os;
  print_summary(os, lines);
  EXPECT_NE(os.str().find("geomean ratio to cuBLAS over 1 problems: 1.029x"), std::string::npos) << os.str();
  EXPECT_EQ(os.str().find("of gemm()'s pick"), std::string::npos) << "no pick given: no pick line";
}

// gemm()'s pick is shown beside the best variant, with its own geomean.
TEST(BenchSuite, SummaryShowsGemmsPick) {
  std::vector<ProfileRow> rows(3);
  rows[0] = {"p1", 1, 1, 1, "", "", "", "", 1, 0, "tcgemm", "variant", "passed", "", 1.0, 700000, 0, 0, "", 0};
  rows[1] = {"p1", 1, 1, 1, "", "", "", "", 1, 0, "tcgemm", "default", "passed", "", 1.0, 680000, 0, 0, "", 0};
  rows[2] = {"p1", 1, 1, 1, "", "", "", "", 1, 0, "cublas", "lt", "passed", "", 1.0, 680000, 0, 0, "", 0};
  const auto lines = summarize(rows, {{"p1", "default"}});
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].best_kernel, "variant");
  EXPECT_EQ(lines[0].picked_kernel, "default");
  EXPECT_DOUBLE_EQ(lines[0].picked_ratio, 1.0);
  std::ostringstream os;
  print_summary(os, lines);
  EXPECT_NE(os.str().find("of gemm()'s pick (one kernel a problem, as cuBLAS): 1.000x"), std::string::npos) << os.str();
  std::ostringstream csv;
  write_summary_csv(csv, lines, RunInfo{"d", "dev", "13.0", "cmd"});
  EXPECT_NE(csv.str().find(",tcgemm_gemm_pick,default,680.00,1.0000"), std::string::npos) << csv.str();
}

TEST(BenchSuite, ShippedSuitesParse) {
  for (const char* name : {"default", "ladder", "peak", "cliffs", "random", "midsize", "tall", "splitk"}) {
    const std::string path = std::string(TCGEMM_SOURCE_DIR) + "/bench/suites/" + name + ".txt";
    FILE* f = std::fopen(path.c_str(), "r");
    ASSERT_NE(f, nullptr) << path;
    std::string text;
    char buf[4096];
    while (std::size_t n = std::fread(buf, 1, sizeof buf, f)) text.append(buf, n);
    std::fclose(f);
    EXPECT_TRUE(parse_suite(text, path).ok()) << name;
  }
}
