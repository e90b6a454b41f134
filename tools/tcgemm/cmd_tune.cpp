// `tcgemm tune`: for each problem whose gemm() pick is the split-K planner's entry, time the four
// split tiles at a list of split counts, keep the fastest plan where it beats gemm()'s own by more
// than kTuneMargin, check it through gemm() with verification, and write the plans file that
// TCGEMM_TUNED_PLANS (or load_tuned_split_plans) hands to gemm().
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "bench_suite.hpp"
#include "commands.hpp"
#include "kernels/sm90/split_k.hpp"
#include "problem_flags.hpp"
#include "profile_runner.hpp"
#include "tcgemm/gemm.hpp"
#include "tune_choice.hpp"

namespace tcgemm::cli {
namespace {

struct TuneFlags {
  ProblemFlags problem;
  std::string suite;  // a suite file; empty: the one problem of the flags
  std::string splits = "1,2,3,4,6,8,12,16,24,32";
  std::string output = "tuned_plans.txt";
  double duration_ms = 20;
};

// Timed rows of one profile over `problems` (no verification unless asked; two interleaved windows).
Result<ProfileRun> time_rows(std::vector<ProfileProblem> problems, const std::string& kernels, bool cublas,
                             bool verify, double duration_ms) {
  ProfileOptions o;
  o.problems = std::move(problems);
  o.kernels = kernels;
  o.provider_cublas = cublas;
  o.verification_enabled = verify;
  o.verify_with_cublas = false;
  o.profiling_iterations = 0;
  o.profiling_duration_ms = duration_ms;
  o.profiling_rounds = 2;
  o.command_line = "tcgemm tune";
  return collect_profile(o);
}

double runtime_us(const ProfileRun& run, const std::string& provider) {
  for (const ProfileRow& r : run.rows)
    if (r.provider == provider && r.runtime_ms > 0) return r.runtime_ms * 1e3;
  return 0;
}

std::string plan_text(const SplitKPlan& p) {
  return plan_label(64 * p.variant.consumers, p.variant.tile_n, p.splits) + (p.mc.n > 1 ? " pair" : "");
}

int run_tune(const TuneFlags& f) {
  std::vector<ProfileProblem> problems;
  if (!f.suite.empty()) {
    Result<std::vector<ProfileProblem>> r = read_suite(f.suite);
    if (!r.ok()) return usage_error("--suite: " + r.status().message());
    problems = *r;
  } else {
    Result<GemmDesc> g = to_desc(f.problem);
    if (!g.ok()) return usage_error(g.status().message());
    problems.push_back(ProfileProblem{*g});
  }
  Result<std::vector<int64_t>> splits = expand_int_sweep("splits", f.splits, 1);
  if (!splits.ok()) return usage_error(splits.status().message());
  for (int64_t s : *splits)
    if (s > 64) return usage_error("--splits: at most 64 (got " + std::to_string(s) + ")");

  std::vector<TunedSplitPlan> existing;
  if (std::ifstream(f.output)) {  // an existing plans file is merged into
    Result<std::vector<TunedSplitPlan>> r = read_tuned_split_plans(f.output);
    if (!r.ok()) return usage_error(r.status().message());
    existing = *r;
  }
  // gemm()'s own plans are the baseline: no tuned plan may stand in for them while timing.
  clear_tuned_split_plans();

  std::vector<TunedSplitPlan> tuned;
  std::ostringstream table;
  table << std::left << std::setw(60) << "problem" << " " << std::setw(16) << "gemm() plan" << std::right << std::setw(9)
        << "us" << std::setw(9) << "cuBLAS" << "  " << std::left << std::setw(14) << "fastest" << std::right
        << std::setw(9) << "us" << std::setw(8) << "gain" << "  kept\n";
  for (const ProfileProblem& p : problems) {
    const std::string name = describe_problem(p);
    const DType input = p.desc.a.dtype;
    Result<std::string_view> pick = pick_kernel(p.desc);
    if (!pick.ok()) {
      std::cerr << "tcgemm: error: " << pick.status().message() << "\n";
      return pick.status().code() == StatusCode::no_device ? kNoDevice : 1;
    }
    const std::string picked(*pick);
    if ((input != DType::bf16 && input != DType::f16) || picked.find("_128xN_ws_splitk") == std::string::npos) {
      table << std::left << std::setw(60) << name << " gemm() runs " << picked << ": not the split planner's, not tuned\n";
      continue;
    }
    std::cerr << "tune: " << name << "\n";
    Result<ProfileRun> base = time_rows({p}, "", true, false, 2 * f.duration_ms);
    if (!base.ok()) {
      std::cerr << "tcgemm: error: " << base.status().message() << "\n";
      return base.status().code() == StatusCode::no_device ? kNoDevice : 1;
    }
    std::vector<ProfileProblem> forced;
    for (int64_t s : *splits) {
      ProfileProblem q = p;
      q.split_k_slices = s;
      forced.push_back(q);
    }
    std::string kernels;
    for (const std::string& k : split_tile_kernels(input)) kernels += (kernels.empty() ? "" : ",") + k;
    Result<ProfileRun> sweep = time_rows(forced, kernels, false, false, f.duration_ms);
    if (!sweep.ok()) {
      std::cerr << "tcgemm: error: " << sweep.status().message() << "\n";
      return 1;
    }
    const double gemm_us = runtime_us(*base, "tcgemm"), cublas_us = runtime_us(*base, "cublas");
    const SplitKPlan model = plan_split_k(p.desc, input, current_sm_count());
    const std::optional<TimedPlan> best = fastest_plan(sweep->rows, p.desc.m, p.desc.n, p.desc.k, current_sm_count());
    table << std::left << std::setw(60) << name << " " << std::setw(16) << plan_text(model) << std::right << std::fixed
          << std::setprecision(1) << std::setw(9) << gemm_us << std::setw(9) << cublas_us << "  ";
    if (!best || gemm_us <= 0) {
      table << "no plan timed\n";
      continue;
    }
    const bool keep = worth_keeping(*best, gemm_us);
    table << std::left << std::setw(14) << plan_label(best->tile_m, best->tile_n, best->splits) << std::right << std::setw(9) << best->us << std::setw(7)
          << std::setprecision(2) << gemm_us / best->us << "x  " << (keep ? "yes" : "no (within the margin)") << "\n";
    if (keep)
      tuned.push_back(TunedSplitPlan{p.desc.m, p.desc.n, p.desc.k, input, p.desc.a.layout, p.desc.b.layout, best->tile_m,
                                     best->tile_n, best->splits, best->us});
  }
  std::cout << table.str();

  // The check before anything is written: gemm() with the new plans, verified against the device
  // reference, beside cuBLAS. A plan whose result fails is not kept.
  if (!tuned.empty()) {
    for (const TunedSplitPlan& t : tuned)
      if (Status s = add_tuned_split_plan(t); !s.ok()) return usage_error(s.message());
    std::vector<ProfileProblem> check;
    for (const ProfileProblem& p : problems)
      if (std::optional<TunedSplitPlan> t = find_tuned_split_plan(p.desc); t) check.push_back(p);
    Result<ProfileRun> after = time_rows(check, "", true, true, 2 * f.duration_ms);
    if (!after.ok()) {
      std::cerr << "tcgemm: error: " << after.status().message() << "\n";
      return 1;
    }
    std::cout << "\ngemm() with the tuned plans (verified):\n";
    print_table(std::cout, after->rows);
    for (const ProfileRow& r : after->rows)
      if (r.disposition == "failed" || r.disposition == "error") {
        std::cerr << "tcgemm: error: " << r.problem << " failed with its tuned plan; " << f.output << " not written\n";
        return 1;
      }
  }
  const std::vector<TunedSplitPlan> all = merge_plans(existing, tuned);
  std::ofstream out(f.output);
  out << "# tcgemm tune: m n k A B TILE splits measured_us (TCGEMM_TUNED_PLANS=<this file>)\n";
  for (const TunedSplitPlan& p : all) out << format_tuned_split_plan(p) << "\n";
  if (!out) return usage_error("--output: cannot write '" + f.output + "'");
  std::cout << tuned.size() << " plan(s) tuned, " << all.size() << " in " << f.output << "\n";
  return 0;
}

}  // namespace

Runner add_tune(CLI::App& app) {
  auto f = std::make_shared<TuneFlags>();
  CLI::App* cmd = app.add_subcommand(
      "tune", "time the split-K planner's tiles and split counts on the GPU and write the fastest plans for gemm()");
  add_problem_flags(*cmd, f->problem);
  cmd->add_option("--suite", f->suite, "a suite file (bench/suites/*.txt) instead of one problem");
  cmd->add_option("--splits", f->splits, "split counts to time on each tile (comma list or start:end)")
      ->capture_default_str();
  cmd->add_option("--output", f->output, "plans file: read and merged if present, then written")->capture_default_str();
  cmd->add_option("--duration-ms", f->duration_ms, "timed milliseconds a candidate, in two windows")
      ->capture_default_str();
  return [f] { return run_tune(*f); };
}

}  // namespace tcgemm::cli
