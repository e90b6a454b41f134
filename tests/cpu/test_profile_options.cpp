#include <gtest/gtest.h>

#include <sstream>

#include "tcgemm/profile_options.hpp"
#include "tcgemm/profile_report.hpp"

using namespace tcgemm;
using namespace tcgemm::cli;

TEST(ProfileSweep, ListsRangesAndMixes) {
  EXPECT_EQ(*expand_int_sweep("m", "128,256,4097", 1), (std::vector<int64_t>{128, 256, 4097}));
  EXPECT_EQ(*expand_int_sweep("m", "1024:4096:1024", 1), (std::vector<int64_t>{1024, 2048, 3072, 4096}));
  EXPECT_EQ(*expand_int_sweep("m", "1024:4000:1024", 1), (std::vector<int64_t>{1024, 2048, 3072}));
  EXPECT_EQ(*expand_int_sweep("m", "3:5", 1), (std::vector<int64_t>{3, 4, 5}));
  EXPECT_EQ(*expand_int_sweep("m", "16,64:128:32", 1), (std::vector<int64_t>{16, 64, 96, 128}));
  EXPECT_EQ(*expand_int_sweep("m", "7:7:3", 1), (std::vector<int64_t>{7}));
}

TEST(ProfileSweep, BadSyntaxNamesTheFlag) {
  for (const char* bad : {"", "a", "1,,2", "1:2:3:4", "8:4", "1:8:0", "1:8:-2", "0", "4x", ":4", "1.5"}) {
    auto r = expand_int_sweep("k", bad, 1);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), StatusCode::invalid_argument);
    EXPECT_EQ(r.status().message().rfind("--k: ", 0), 0u) << r.status().message();
  }
  EXPECT_FALSE(expand_int_sweep("m", "1:1000000", 1).ok());
}

TEST(ProfileSweep, CartesianProductInOrder) {
  auto o = parse_profile_options({{"m", "16,32"}, {"n", "64"}, {"k", "8:24:8"}, {"beta", "0,1"}});
  ASSERT_TRUE(o.ok()) << o.status().message();
  ASSERT_EQ(o->problems.size(), 2u * 1 * 3 * 2);
  EXPECT_EQ(o->problems[0].desc.m, 16);
  EXPECT_EQ(o->problems[0].desc.k, 8);
  EXPECT_EQ(o->problems[0].desc.beta, 0.0f);
  EXPECT_EQ(o->problems[1].desc.beta, 1.0f);
  EXPECT_EQ(o->problems[2].desc.k, 16);
  EXPECT_EQ(o->problems.back().desc.m, 32);
  EXPECT_EQ(o->problems.back().desc.k, 24);
}

TEST(ProfileFlags, OperandParsing) {
  auto a = parse_operand("A", "bf16:row");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->dtype, DType::bf16);
  EXPECT_EQ(a->layout, Layout::row);
  EXPECT_TRUE(a->layout_given);
  auto b = parse_operand("B", "fe4m3:n");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->dtype, DType::e4m3);
  EXPECT_EQ(b->layout, Layout::column);
  auto c = parse_operand("C", "f32");
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->layout_given);
  EXPECT_FALSE(parse_operand("A", "bf17:row").ok());
  EXPECT_FALSE(parse_operand("A", "bf16:diagonal").ok());
  EXPECT_FALSE(parse_operand("A", "bf16:row:x").ok());
  EXPECT_FALSE(parse_operand("A", ":row").ok());
}

TEST(ProfileFlags, DefaultsAreBf16TN) {
  auto o = parse_profile_options({});
  ASSERT_TRUE(o.ok());
  ASSERT_EQ(o->problems.size(), 1u);
  const GemmDesc& g = o->problems[0].desc;
  EXPECT_EQ(g.m, 4096);
  EXPECT_EQ(g.a.layout, Layout::row);
  EXPECT_EQ(g.b.layout, Layout::column);
  EXPECT_EQ(g.d.dtype, DType::bf16);
  EXPECT_TRUE(o->provider_tcgemm && o->provider_cublas);
  EXPECT_TRUE(o->notes.empty());
}

TEST(ProfileFlags, Tf32WritesF32AndFp8WritesBf16) {
  auto t = parse_profile_options({{"A", "tf32:row"}, {"B", "tf32:column"}});
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->problems[0].desc.d.dtype, DType::f32);
  auto f = parse_profile_options({{"A", "fe4m3:row"}, {"B", "fe4m3:column"}});
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f->problems[0].desc.d.dtype, DType::bf16);
  auto d = parse_profile_options({{"D", "f32:column"}});
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->problems[0].desc.d.layout, Layout::column);
}

TEST(ProfileFlags, EveryBadValueIsAOneLineErrorNamingTheFlag) {
  const std::vector<std::pair<std::string, std::string>> bad{
      {"operation", "Conv2d"}, {"m", "0"}, {"n", "x"}, {"A", "bf17"}, {"alpha", "nan"},
      {"beta", "1,,2"}, {"split_k_mode", "diagonal"}, {"split_k_slices", "0"},
      {"raster_order", "spiral"}, {"swizzle_size", "3"}, {"lda", "-1"}, {"ldc", "x"}, {"kernels", ""}, {"providers", "cutlass"},
      {"verification-enabled", "maybe"}, {"verification-providers", "host"}, {"epsilon", "0"},
      {"warmup-iterations", "-1"}, {"profiling-iterations", "1e3"}, {"profiling-duration", "0"},
      {"seed", "-4"}, {"dist", "gaussian"}, {"dist", "uniform,min:1,max:-1"},
      {"dist", "uniform,mean:0"}, {"output", "x.txt"}, {"device", "-1"}, {"bogus", "1"}};
  for (const auto& [flag, value] : bad) {
    auto o = parse_profile_options({{flag, value}});
    ASSERT_FALSE(o.ok()) << flag << "=" << value;
    const std::string& msg = o.status().message();
    EXPECT_EQ(msg.rfind("--" + flag + ": ", 0), 0u) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}

// --lda/--ldb/--ldc: one problem with padded (or misaligned) leading dimensions, named in its row.
TEST(ProfileFlags, LeadingDimensionsReachTheProblem) {
  auto o = parse_profile_options({{"m", "4096"}, {"n", "4095"}, {"k", "4096"}, {"ldc", "4096"}, {"lda", "4104"}});
  ASSERT_TRUE(o.ok()) << o.status().message();
  ASSERT_EQ(o->problems.size(), 1u);
  EXPECT_EQ(o->problems[0].desc.a.ld, 4104);
  EXPECT_EQ(o->problems[0].desc.b.ld, 0);
  EXPECT_EQ(o->problems[0].desc.c.ld, 4096);
  EXPECT_EQ(o->problems[0].desc.d.ld, 4096);
  const std::string row = describe_problem(o->problems[0]);
  EXPECT_NE(row.find("lda=4104"), std::string::npos) << row;
  EXPECT_NE(row.find("ldc=4096"), std::string::npos) << row;
  EXPECT_EQ(row.find("ldb="), std::string::npos) << row;
  // Smaller than the stored extent: the error names the flag the user typed.
  auto small = parse_profile_options({{"m", "64"}, {"n", "100"}, {"k", "64"}, {"ldc", "99"}});
  ASSERT_FALSE(small.ok());
  EXPECT_EQ(small.status().message().rfind("--ldc: ", 0), 0u) << small.status().message();
  auto tight = parse_profile_options({});
  ASSERT_TRUE(tight.ok());
  EXPECT_EQ(describe_problem(tight->problems[0]).find("ld"), std::string::npos);
}

TEST(ProfileFlags, SplitKRasterAndSwizzleTakeEffect) {
  auto o = parse_profile_options({{"split_k_mode", "parallel"}, {"split_k_slices", "1,2,4"},
                                  {"raster_order", "along_m"}, {"swizzle_size", "1,8"}});
  ASSERT_TRUE(o.ok()) << o.status().message();
  EXPECT_TRUE(o->notes.empty());  // all four reach the kernels (split-K and the *_pc2x1_* raster)
  EXPECT_EQ(o->problems.size(), 6u);
  EXPECT_EQ(o->problems[0].split_k_slices, 1);
  EXPECT_EQ(o->problems[0].raster_order, "along_m");
  EXPECT_EQ(o->problems[0].swizzle_size, 1);
  EXPECT_EQ(o->problems[1].swizzle_size, 8);
  EXPECT_NE(describe_problem(o->problems[0]).find("raster_order=along_m swizzle_size=1"), std::string::npos);
  EXPECT_FALSE(o->split_k_serial);
  auto sweep = parse_profile_options({{"raster_order", "along_n,heuristic"}, {"swizzle_size", "2:16:2"}});
  EXPECT_FALSE(sweep.ok());  // 6, 10, 12, 14 are not powers of two
  sweep = parse_profile_options({{"raster_order", "along_n,heuristic,ALONG_M"}, {"swizzle_size", "1,2,4,8,16"}});
  ASSERT_TRUE(sweep.ok()) << sweep.status().message();
  EXPECT_EQ(sweep->problems.size(), 15u);
  EXPECT_EQ(sweep->problems[0].raster_order, "along_n");
  EXPECT_EQ(sweep->problems[14].raster_order, "along_m");
  EXPECT_EQ(sweep->problems[14].swizzle_size, 16);
  EXPECT_FALSE(parse_profile_options({{"swizzle_size", "32"}}).ok());
  auto defaults = parse_profile_options({});
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->problems[0].raster_order, "heuristic");
  EXPECT_EQ(defaults->problems[0].swizzle_size, 0);  // the kernels' default group
  EXPECT_EQ(describe_problem(defaults->problems[0]).find("raster"), std::string::npos);
  auto serial = parse_profile_options({{"split_k_mode", "serial"}});
  ASSERT_TRUE(serial.ok());
  EXPECT_TRUE(serial->notes.empty());  // serial split-K takes effect (the *_serial_splitk kernels)
  EXPECT_TRUE(serial->split_k_serial);
  auto automatic = parse_profile_options({});
  ASSERT_TRUE(automatic.ok());
  EXPECT_EQ(automatic->problems[0].split_k_slices, 0);
}

TEST(ProfileFlags, DurationOverridesDefaultIterationsOnly) {
  auto d = parse_profile_options({{"profiling-duration", "50"}});
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->profiling_iterations, 0);
  EXPECT_DOUBLE_EQ(d->profiling_duration_ms, 50.0);
  auto both = parse_profile_options({{"profiling-duration", "50"}, {"profiling-iterations", "20"}});
  ASSERT_TRUE(both.ok());
  EXPECT_EQ(both->profiling_iterations, 20);
}

// Interleaved timing windows (ProfileOptions::profiling_rounds): 4 by default, 1..64.
TEST(ProfileFlags, ProfilingRounds) {
  auto d = parse_profile_options({});
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->profiling_rounds, 4);
  auto one = parse_profile_options({{"profiling-rounds", "1"}});
  ASSERT_TRUE(one.ok()) << one.status().message();
  EXPECT_EQ(one->profiling_rounds, 1);
  EXPECT_NE(one->command_line.find("--profiling-rounds=1"), std::string::npos) << one->command_line;
  for (const char* bad : {"0", "65", "-2", "x"}) {
    auto r = parse_profile_options({{"profiling-rounds", bad}});
    EXPECT_FALSE(r.ok()) << bad;
    if (!r.ok()) {
      EXPECT_NE(r.status().message().find("profiling-rounds"), std::string::npos) << r.status().message();
    }
  }
}

TEST(ProfileFlags, ProvidersAndVerification) {
  auto o = parse_profile_options({{"providers", "cublas"}, {"verification-providers", "device"},
                                  {"output", "out.JSON"}, {"dist", "uniform,max:2,min:-0.5"}});
  ASSERT_TRUE(o.ok()) << o.status().message();
  EXPECT_FALSE(o->provider_tcgemm);
  EXPECT_TRUE(o->provider_cublas);
  EXPECT_TRUE(o->verify_with_device);
  EXPECT_FALSE(o->verify_with_cublas);
  EXPECT_EQ(o->output_format, OutputFormat::json);
  EXPECT_DOUBLE_EQ(o->dist.min, -0.5);
  EXPECT_DOUBLE_EQ(o->dist.max, 2.0);
  EXPECT_NE(o->command_line.find("--providers=cublas"), std::string::npos);
}

TEST(KernelFilter, GlobAndSubstring) {
  EXPECT_TRUE(glob_match("*", "anything"));
  EXPECT_TRUE(glob_match("*", ""));
  EXPECT_TRUE(glob_match("sm90_*_tn", "sm90_wgmma_bf16_128x128x64_s4_tn"));
  EXPECT_FALSE(glob_match("sm90_*_nt", "sm90_wgmma_bf16_128x128x64_s4_tn"));
  EXPECT_TRUE(glob_match("sm??_*", "sm80_mma"));
  EXPECT_FALSE(glob_match("sm8?", "sm80_mma"));
  EXPECT_TRUE(glob_match("a*b*c", "aXXbYYbZc"));
  EXPECT_FALSE(glob_match("a*b*c", "aXXbYYbZ"));
  EXPECT_TRUE(kernel_filter_matches("wgmma", "sm90_wgmma_bf16_tn"));
  EXPECT_FALSE(kernel_filter_matches("wmma_", "sm90_wgmma_bf16_tn"));
  EXPECT_TRUE(kernel_filter_matches("simt*,*wgmma*", "sm90_wgmma_bf16_tn"));
  EXPECT_FALSE(kernel_filter_matches("simt*,sm80", "sm90_wgmma_bf16_tn"));
}

TEST(ProfileReport, CsvQuotesAndColumns) {
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  ProfileRow r;
  r.problem = "m=16 n=32 k=64 A=bf16:row B=bf16:column D=bf16:row";
  r.m = 16; r.n = 32; r.k = 64;
  r.a = "bf16:row"; r.b = "bf16:column"; r.d = "bf16:row";
  r.provider = "cublas"; r.kernel = "cublasLt algo=1";
  r.disposition = "passed"; r.detail = "rel_norm 1e-3, max_rel 2e-3";
  r.runtime_ms = 0.5; r.gflops = 0.131072; r.gbps = 12.5; r.ratio_to_cublas = 1.0;
  r.raster_order = "along_n"; r.swizzle_size = 4;
  ProfileRow skipped = r;
  skipped.raster_order = ""; skipped.swizzle_size = 0;
  skipped.disposition = "not_supported";
  skipped.runtime_ms = skipped.gflops = skipped.gbps = skipped.ratio_to_cublas = 0;
  std::ostringstream os;
  write_csv(os, {r, skipped}, {"2026-12-01T00:00:00Z", "NVIDIA H200", "13.0", "tcgemm profile --m=16"});
  EXPECT_EQ(os.str(),
            "date,device,driver,command_line,problem,m,n,k,A,B,C,D,alpha,beta,provider,kernel,"
            "disposition,detail,runtime_ms,gflops,gbps,ratio_to_cublas,raster_order,swizzle_size\n"
            "2026-12-01T00:00:00Z,NVIDIA H200,13.0,tcgemm profile --m=16,"
            "m=16 n=32 k=64 A=bf16:row B=bf16:column D=bf16:row,16,32,64,bf16:row,bf16:column,,"
            "bf16:row,1,0,cublas,cublasLt algo=1,passed,\"rel_norm 1e-3, max_rel 2e-3\",0.5,"
            "0.131072,12.5,1,along_n,4\n"
            "2026-12-01T00:00:00Z,NVIDIA H200,13.0,tcgemm profile --m=16,"
            "m=16 n=32 k=64 A=bf16:row B=bf16:column D=bf16:row,16,32,64,bf16:row,bf16:column,,"
            "bf16:row,1,0,cublas,cublasLt algo=1,not_supported,\"rel_norm 1e-3, max_rel 2e-3\",,,,,,\n");
  const auto j = to_json({r, skipped}, {"d", "dev", "13.0", "cmd"});
  EXPECT_EQ(j["rows"].size(), 2u);
  EXPECT_DOUBLE_EQ(j["rows"][0]["runtime_ms"].get<double>(), 0.5);
  EXPECT_TRUE(j["rows"][1]["runtime_ms"].is_null());
  EXPECT_EQ(j["rows"][0]["raster_order"].get<std::string>(), "along_n");
  EXPECT_EQ(j["rows"][0]["swizzle_size"].get<int64_t>(), 4);
  EXPECT_TRUE(j["rows"][1]["swizzle_size"].is_null());
}

TEST(ProfileReport, TableIsAligned) {
  ProfileRow r;
  r.problem = "m=1";
  r.provider = "tcgemm"; r.kernel = "k_long_name"; r.disposition = "failed"; r.detail = "why";
  r.runtime_ms = 1.25; r.gflops = 1000; r.gbps = 10; r.ratio_to_cublas = 0.5;
  std::ostringstream os;
  print_table(os, {r});
  const std::string s = os.str();
  std::istringstream lines(s);
  std::string header, row;
  std::getline(lines, header);
  std::getline(lines, row);
  EXPECT_EQ(header.find("Provider"), row.find("tcgemm"));
  EXPECT_EQ(header.size(), row.size());  // right-aligned last column ends together
  EXPECT_NE(s.find("0.50x"), std::string::npos);
  EXPECT_NE(s.find("notes:\n  m=1 / tcgemm k_long_name: failed: why"), std::string::npos);
}
