// The command-line tool as a user meets it: exit codes, one-line errors naming the flag, JSON keys.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace {

struct CliRun {
  int code;
  std::string out;  // stdout and stderr together
};

// env: "NAME=value" assignments for the command (the shell reads them), or empty.
CliRun run_cli(const std::string& args, const std::string& env = "") {
  const std::string cmd = env + (env.empty() ? "" : " ") + std::string(TCGEMM_CLI_PATH) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  CliRun r{-1, {}};
  if (!p) return r;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), buf.size(), p)) r.out += buf.data();
  const int st = pclose(p);
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

void expect_usage_error(const std::string& args, const std::string& names) {
  const CliRun r = run_cli(args);
  EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
  EXPECT_NE(r.out.find(names), std::string::npos) << args << "\n" << r.out;
  // One line, no stack trace, no crash.
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
}

}  // namespace

TEST(Cli, BadExplainInputIsAOneLineErrorNamingTheFlag) {
  expect_usage_error("explain --m=0", "--m must be >= 1");
  expect_usage_error("explain --n=-5", "--n must be >= 1");
  expect_usage_error("explain --k=1099511627776", "--k must be <= 2^31");
  expect_usage_error("explain --A=bf17:row", "--A: unknown dtype 'bf17'");
  expect_usage_error("explain --B=bf16:diagonal", "unknown layout");
  expect_usage_error("explain --device=h300", "--device=h300 is not a known device");
  expect_usage_error("explain --threads=2048 --device=h200", "--threads=2048");
  expect_usage_error("explain --lda=10 --device=h200", "--lda = 10 is smaller");
  expect_usage_error("explain --m=abc", "--m");
  expect_usage_error("explain --tile=128x0x64 --device=h200", "--tile");
}

TEST(Cli, BadOccupancyInput) {
  expect_usage_error("occupancy --device=h200 --threads=2048", "2048");
  expect_usage_error("occupancy --device=h200 --threads=0", "threads");
  expect_usage_error("occupancy --device=nope", "--device=nope");
}

TEST(Cli, BadBandwidthInput) {
  expect_usage_error("bandwidth --bytes=100", "--bytes must be at least 1 MiB");
  expect_usage_error("bandwidth --bytes=1048577", "multiple of 16");
  expect_usage_error("bandwidth --grids=0", "--grids");
  expect_usage_error("bandwidth --iterations=1", "--iterations must be >= 3");
  expect_usage_error("bandwidth --bytes=lots", "--bytes");
}

TEST(Cli, BadTuneInput) {
  expect_usage_error("tune --splits=0", "--splits");
  expect_usage_error("tune --splits=4,65", "--splits: at most 64");
  expect_usage_error("tune --m=0", "--m must be >= 1");
  expect_usage_error("tune --suite=/nonexistent/suite.txt", "--suite: cannot read");
  const std::string plans = ::testing::TempDir() + "tcgemm_cli_tune_plans.txt";
  {
    std::ofstream out(plans);
    out << "256 512 16384 bf16:row bf16:column 128x96 6 19.5\n";
  }
  // An existing plans file is merged into, so a bad one stops the run before anything is timed.
  expect_usage_error("tune --output=" + plans, "line 1: tile must be");
  std::remove(plans.c_str());
}

TEST(Cli, ExplainPointsAtTuneForTheSplitPlannersPickAndShowsATunedPlan) {
  const CliRun model = run_cli("explain --m=256 --n=512 --k=16384 --device=h200");
  EXPECT_EQ(model.code, 0) << model.out;
  EXPECT_NE(model.out.find("its plan: tile "), std::string::npos) << model.out;
  EXPECT_NE(model.out.find("`tcgemm tune --m=256 --n=512 --k=16384` keeps the fastest"), std::string::npos) << model.out;
  EXPECT_NE(model.out.find("TCGEMM_AUTOTUNE=1 has gemm() time its candidates"), std::string::npos) << model.out;
  const std::string plans = ::testing::TempDir() + "tcgemm_cli_explain_plans.txt";
  {
    std::ofstream out(plans);
    out << "256 512 16384 bf16:row bf16:column 128x64 6 19.5\n";
  }
  const CliRun tuned = run_cli("explain --m=256 --n=512 --k=16384 --device=h200", "TCGEMM_TUNED_PLANS=" + plans);
  EXPECT_NE(tuned.out.find("its plan: tuned (measured 19.5 us): tile 128x64 s9, 6 K slices"), std::string::npos)
      << tuned.out;
  EXPECT_EQ(tuned.out.find("tcgemm tune --m="), std::string::npos) << tuned.out;
  std::remove(plans.c_str());
}

TEST(Cli, BandwidthSaysItNeedsAGpuOrPrintsItsTable) {
  const CliRun r = run_cli("bandwidth --bytes=1048576 --grids=8 --iterations=3");
  if (r.code == 0) {  // a GPU was there and measured
    EXPECT_NE(r.out.find("TB/s (r + w)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("memcpy"), std::string::npos) << r.out;
    return;
  }
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("measuring bandwidth needs one"), std::string::npos) << r.out;
}

TEST(Cli, SeedBlackwellKernelIsClosedAtOneCta) {
  const CliRun r = run_cli("occupancy --device=b200 --threads=256 --regs=155 --smem=230400 --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["ctas_per_sm"], 1);
  EXPECT_EQ(j["registers_per_cta"], 40960);
  EXPECT_EQ(j["closed"], true);
  EXPECT_EQ(j["binding"], nlohmann::json::array({"registers", "shared_memory"}));
  for (const char* k : {"registers", "shared_memory", "threads", "blocks"}) EXPECT_TRUE(j["limits"].contains(k)) << k;
  EXPECT_TRUE(j.contains("smem_per_cta"));
}

TEST(Cli, ExplainJsonHasTheFixedKeys) {
  const CliRun r = run_cli("explain --m=4097 --n=4097 --k=4097 --device=h200 --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  for (const char* k : {"flops", "min_bytes", "arithmetic_intensity", "bound", "floor_us", "tile", "grid_ctas",
                        "ctas_per_sm", "waves", "wave_efficiency", "padding_efficiency", "mma_family",
                        "tensor_core_eligible", "alignment", "occupancy", "advice"})
    EXPECT_TRUE(j.contains(k)) << k;
  for (const char* k : {"m", "n", "k"}) EXPECT_TRUE(j["tile"].contains(k));
  for (const char* k : {"a", "b", "c"}) {
    EXPECT_TRUE(j["alignment"][k].contains("ok"));
    EXPECT_TRUE(j["alignment"][k].contains("reason"));
  }
  // A misses TMA's 16-byte rule; tcgemm keeps the problem on wgmma by repacking A and B.
  EXPECT_EQ(j["mma_family"], "wgmma");
  EXPECT_EQ(j["tensor_core_eligible"], true);
  EXPECT_EQ(j["alignment"]["a"]["ok"], false);
  EXPECT_NE(j["eligibility_reason"].get<std::string>().find("repacking"), std::string::npos);
  EXPECT_EQ(j["bound"], "compute");
  ASSERT_TRUE(j["advice"].is_array());
  ASSERT_FALSE(j["advice"].empty());
  for (const auto& a : j["advice"]) {
    EXPECT_TRUE(a.contains("action"));
    EXPECT_GT(a["predicted_gain"].get<double>(), 1.0);
    EXPECT_TRUE(a.contains("reason"));
  }
}

TEST(Cli, MainJobWithoutGpuExplainsAndSaysProfilingNeedsAGpu) {
  const CliRun r = run_cli("main");
  ASSERT_EQ(r.code, 0) << r.out;
  if (r.out.find("No CUDA GPU") == std::string::npos) GTEST_SKIP() << "a GPU is present: main profiles instead";
  EXPECT_NE(r.out.find("profiling needs a GPU"), std::string::npos);
  EXPECT_NE(r.out.find("eta_wave"), std::string::npos);
  EXPECT_NE(r.out.find("Tensor Core eligibility: YES"), std::string::npos);
}
