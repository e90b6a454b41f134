// Named shape suites (bench/suites/<name>.txt) for `tcgemm bench`, and the one-table summary.
// Host-only so the CPU tests can check parsing and the summary.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "profile_options.hpp"
#include "profile_report.hpp"

namespace tcgemm::cli {

// One line per problem: "m n k [A=bf16:row] [B=bf16:column] [C=bf16:row]"; '#' starts a comment.
// Errors name the file and line.
Result<std::vector<ProfileProblem>> parse_suite(const std::string& text, const std::string& name);

struct SuiteLine {
  std::string problem;
  std::string best_kernel;  // fastest tcgemm kernel that passed verification
  double tcgemm_tflops = 0;
  double cublas_tflops = 0;
  double ratio = 0;         // cuBLAS time / tcgemm time, same run
};

// Best passing tcgemm row and the cuBLAS row of every problem, in order.
std::vector<SuiteLine> summarize(const std::vector<ProfileRow>& rows);
// The table, then the geometric mean of the ratios.
void print_summary(std::ostream& os, const std::vector<SuiteLine>& lines);
// CSV: date, device, driver, command, shape, provider, kernel, tflops, ratio_to_cublas.
void write_summary_csv(std::ostream& os, const std::vector<SuiteLine>& lines, const RunInfo& info);

}  // namespace tcgemm::cli
