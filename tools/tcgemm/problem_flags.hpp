// The problem flags shared by explain and profile, spelled as cutlass_profiler spells them:
// --m --n --k --A=bf16:row --B=bf16:column --C=bf16 --D=bf16 --lda --ldb --ldc --alpha --beta.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "tcgemm/problem.hpp"

namespace tcgemm::cli {

struct ProblemFlags {
  int64_t m = 4096, n = 4096, k = 4096;
  std::string A = "bf16:row", B = "bf16:column", C = "bf16:row", D;
  int64_t lda = 0, ldb = 0, ldc = 0;
  uint32_t align_a = 256, align_b = 256, align_c = 256;
  float alpha = 1.0f, beta = 0.0f;
};

void add_problem_flags(CLI::App& cmd, ProblemFlags& f);

// Turns the flags into a GemmDesc; errors name the flag ("--m must be >= 1 (got 0)").
Result<GemmDesc> to_desc(const ProblemFlags& f);

// "bf16:row" -> dtype and layout; the layout part is optional (default_layout then).
Status parse_operand(const std::string& flag, const std::string& value, Layout default_layout,
                     MatrixDesc& out);

}  // namespace tcgemm::cli
