#include "problem_flags.hpp"

#include "profile_options.hpp"

namespace tcgemm::cli {

void add_problem_flags(CLI::App& cmd, ProblemFlags& f) {
  cmd.add_option("--m", f.m, "rows of A and D")->capture_default_str();
  cmd.add_option("--n", f.n, "columns of B and D")->capture_default_str();
  cmd.add_option("--k", f.k, "contraction dimension")->capture_default_str();
  cmd.add_option("--A", f.A, "A dtype:layout (f32, tf32, f16, bf16, fe4m3, fe5m2, s8 : row|column)")->capture_default_str();
  cmd.add_option("--B", f.B, "B dtype:layout")->capture_default_str();
  cmd.add_option("--C", f.C, "C dtype[:layout]")->capture_default_str();
  cmd.add_option("--D", f.D, "D dtype[:layout] (default: as C)");
  cmd.add_option("--lda", f.lda, "leading dimension of A in elements (0: tight)");
  cmd.add_option("--ldb", f.ldb, "leading dimension of B in elements (0: tight)");
  cmd.add_option("--ldc", f.ldc, "leading dimension of C and D in elements (0: tight)");
  cmd.add_option("--align-a", f.align_a, "byte alignment of A's base pointer")->capture_default_str();
  cmd.add_option("--align-b", f.align_b, "byte alignment of B's base pointer")->capture_default_str();
  cmd.add_option("--align-c", f.align_c, "byte alignment of C's and D's base pointers")->capture_default_str();
  cmd.add_option("--alpha", f.alpha, "scale of A*B")->capture_default_str();
  cmd.add_option("--beta", f.beta, "scale of C")->capture_default_str();
}

Status parse_operand(const std::string& flag, const std::string& value, Layout default_layout,
                     MatrixDesc& out) {
  // One spelling rule for every command: profile's parser, without the leading dashes.
  Result<OperandSpec> spec = parse_operand(std::string_view(flag).substr(2), std::string_view(value));
  if (!spec.ok()) return spec.status();
  out.dtype = spec->dtype;
  out.layout = spec->layout_given ? spec->layout : default_layout;
  return Status::success();
}

static Status check_dim(const char* flag, int64_t v) {
  if (v < 1) return Status::invalid(std::string(flag) + " must be >= 1 (got " + std::to_string(v) + ")");
  if (v > kMaxDim) return Status::invalid(std::string(flag) + " must be <= 2^31 (got " + std::to_string(v) + ")");
  return Status::success();
}

static Status check_alignment(const char* flag, uint32_t a) {
  if (a == 0 || (a & (a - 1)) != 0)
    return Status::invalid(std::string(flag) + " must be a power of two (got " + std::to_string(a) + ")");
  return Status::success();
}

Result<GemmDesc> to_desc(const ProblemFlags& f) {
  GemmDesc g;
  for (auto [flag, v] : {std::pair{"--m", f.m}, std::pair{"--n", f.n}, std::pair{"--k", f.k}})
    if (Status s = check_dim(flag, v); !s.ok()) return s;
  g.m = f.m; g.n = f.n; g.k = f.k;
  if (Status s = parse_operand("--A", f.A, Layout::row, g.a); !s.ok()) return s;
  if (Status s = parse_operand("--B", f.B, Layout::column, g.b); !s.ok()) return s;
  if (Status s = parse_operand("--C", f.C, Layout::row, g.c); !s.ok()) return s;
  g.d = g.c;
  if (!f.D.empty())
    if (Status s = parse_operand("--D", f.D, g.c.layout, g.d); !s.ok()) return s;
  for (auto [flag, a] : {std::pair{"--align-a", f.align_a}, std::pair{"--align-b", f.align_b},
                         std::pair{"--align-c", f.align_c}})
    if (Status s = check_alignment(flag, a); !s.ok()) return s;
  g.a.ld = f.lda; g.b.ld = f.ldb; g.c.ld = f.ldc; g.d.ld = f.ldc;
  g.a.pointer_alignment = f.align_a;
  g.b.pointer_alignment = f.align_b;
  g.c.pointer_alignment = g.d.pointer_alignment = f.align_c;
  g.alpha = f.alpha;
  g.beta = f.beta;
  if (Status s = validate(g); !s.ok()) {
    // validate() speaks of fields ("ldA"); the user typed flags.
    std::string msg = s.message();
    for (auto [field, flag] : {std::pair{"ldA", "--lda"}, std::pair{"ldB", "--ldb"}, std::pair{"ldC", "--ldc"},
                               std::pair{"ldD", "--ldc"}})
      if (auto pos = msg.find(field); pos != std::string::npos) msg.replace(pos, 3, flag);
    return Status(s.code(), msg);
  }
  return g;
}

}  // namespace tcgemm::cli
