// Named shape suites (bench/suites/<name>.txt) for `tcgemm bench`, and the one-table summary.
// Host-only so the CPU tests can check parsing and the summary.
#pragma once

#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "profile_options.hpp"
#include "profile_report.hpp"

namespace tcgemm::cli {

// One line per problem: "m n k [A=bf16:row] [B=bf16:column] [C=bf16:row]"; '#' starts a comment.
// Errors name the file and line.
Result<std::vector<ProfileProblem>> parse_suite(const std::string& text, const std::string& name);
// The suite file at `path`, parsed ("cannot read <path>" where it does not open).
Result<std::vector<ProfileProblem>> read_suite(const std::string& path);

struct SuiteLine {
  std::string problem;
  std::string best_kernel;  // fastest tcgemm kernel that passed verification
  double tcgemm_tflops = 0;
  double cublas_tflops = 0;
  double ratio = 0;         // cuBLAS time / tcgemm time, same run
  // The kernel gemm() would run for this problem, when it was among those timed: the best of
  // several variants is a choice cuBLAS's single heuristic pick does not get, so both are shown.
  std::string picked_kernel;
  double picked_tflops = 0;
  double picked_ratio = 0;
};

// Best passing tcgemm row and the cuBLAS row of every problem, in order; picks maps a problem
// (describe_problem()) to the kernel gemm() picks for it.
std::vector<SuiteLine> summarize(const std::vector<ProfileRow>& rows,
                                 const std::map<std::string, std::string>& picks = {});
// The table, then the geometric mean of the ratios (of the best kernel, and of gemm()'s pick where
// every problem has one).
void print_summary(std::ostream& os, const std::vector<SuiteLine>& lines);
// CSV: date, device, driver, command, shape, provider, kernel, tflops, ratio_to_cublas; provider
// tcgemm (the best kernel), tcgemm_gemm_pick (gemm()'s kernel, when timed) and cublas.
void write_summary_csv(std::ostream& os, const std::vector<SuiteLine>& lines, const RunInfo& info);

}  // namespace tcgemm::cli
