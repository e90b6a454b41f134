#include <fstream>
#include <iostream>
#include <map>

#include "bench_suite.hpp"
#include "commands.hpp"
#include "profile_runner.hpp"
#include "tcgemm/gemm.hpp"

namespace tcgemm::cli {
namespace {

struct BenchFlags {
  std::string suite = "default";
  std::string suite_dir = "bench/suites";  // relative to the repository root
  std::string kernels = "*";
  std::string output;
  int64_t warmup = 20, iterations = 50;
  bool verify = true;
};

int run_bench(const BenchFlags& f) {
  const std::string path = f.suite.find('/') != std::string::npos ? f.suite : f.suite_dir + "/" + f.suite + ".txt";
  Result<std::vector<ProfileProblem>> problems = read_suite(path);
  if (!problems.ok()) return usage_error("--suite=" + f.suite + ": " + problems.status().message());

  ProfileOptions o;
  o.problems = *problems;
  o.kernels = f.kernels == "gemm" ? std::string() : f.kernels;  // empty: the kernel gemm() picks
  o.warmup_iterations = f.warmup;
  o.profiling_iterations = f.iterations;
  o.verification_enabled = f.verify;
  o.verify_with_cublas = false;  // the device reference is independent; cuBLAS is the rival
  o.command_line = "tcgemm bench --suite=" + f.suite + " --kernels=" + f.kernels;
  Result<ProfileRun> run = collect_profile(o);
  if (!run.ok()) {
    std::cerr << "tcgemm: error: " << run.status().message() << "\n";
    return run.status().code() == StatusCode::no_device ? kNoDevice : 1;
  }
  std::cout << run->device_line << "\n";
  print_table(std::cout, run->rows);
  std::cout << "\n";
  std::map<std::string, std::string> picks;  // what gemm() runs, to show beside the best variant
  for (const ProfileProblem& p : o.problems)
    if (Result<std::string_view> k = pick_kernel(p.desc); k.ok()) picks[describe_problem(p)] = std::string(*k);
  const std::vector<SuiteLine> lines = summarize(run->rows, picks);
  print_summary(std::cout, lines);
  if (!f.output.empty()) {
    std::ofstream out(f.output);
    write_summary_csv(out, lines, run->info);
    if (!out) return usage_error("--output: cannot write '" + f.output + "'");
  }
  int rc = run->stopped_early ? 1 : 0;
  for (const ProfileRow& r : run->rows)
    if (r.disposition == "failed" || r.disposition == "error") rc = 1;
  return rc;
}

}  // namespace

Runner add_bench(CLI::App& app) {
  auto f = std::make_shared<BenchFlags>();
  CLI::App* cmd = app.add_subcommand("bench", "run a named shape suite against cuBLAS and print one table");
  cmd->add_option("--suite", f->suite, "suite name (bench/suites/<name>.txt) or a path")->capture_default_str();
  cmd->add_option("--suite-dir", f->suite_dir, "where named suites live")->capture_default_str();
  cmd->add_option("--kernels", f->kernels, "tcgemm kernels to try (glob); gemm: only the kernel gemm() picks")
      ->capture_default_str();
  cmd->add_option("--output", f->output, "write the summary as CSV");
  cmd->add_option("--warmup-iterations", f->warmup, "warm-up launches per kernel")->capture_default_str();
  cmd->add_option("--profiling-iterations", f->iterations, "timed launches per kernel")->capture_default_str();
  cmd->add_option("--verification-enabled", f->verify, "verify every tcgemm kernel")->capture_default_str();
  return [f] { return run_bench(*f); };
}

}  // namespace tcgemm::cli
