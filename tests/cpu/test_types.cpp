#include <gtest/gtest.h>

#include "tcgemm/problem.hpp"

using namespace tcgemm;

TEST(Types, ParsesCutlassDtypeNames) {
  EXPECT_EQ(parse_dtype("bf16"), DType::bf16);
  EXPECT_EQ(parse_dtype("fe4m3"), DType::e4m3);
  EXPECT_EQ(parse_dtype("F16"), DType::f16);
  EXPECT_FALSE(parse_dtype("bf17").has_value());
  EXPECT_EQ(parse_layout("column"), Layout::column);
  EXPECT_EQ(parse_layout("t"), Layout::row);
  EXPECT_FALSE(parse_layout("diagonal").has_value());
}

TEST(Problem, ValidateNamesTheBadField) {
  GemmDesc g;
  g.m = 0; g.n = 8; g.k = 8;
  Status s = validate(g);
  EXPECT_EQ(s.code(), StatusCode::invalid_argument);
  EXPECT_NE(s.message().find("m must be >= 1"), std::string::npos) << s.message();
  g.m = 8;
  EXPECT_TRUE(validate(g).ok());
  g.a.ld = 4;  // row-major A is 8x8, rows need 8
  s = validate(g);
  EXPECT_NE(s.message().find("ldA"), std::string::npos) << s.message();
  g.a.ld = 0;
  g.k = int64_t{1} << 40;
  EXPECT_FALSE(validate(g).ok());
  g.k = 8;
  g.b.dtype = DType::f16;
  EXPECT_EQ(validate(g).code(), StatusCode::unsupported);
}
