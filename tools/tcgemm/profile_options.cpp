#include "profile_options.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace tcgemm::cli {
namespace {

Status flag_error(std::string_view flag, const std::string& msg) {
  return Status::invalid("--" + std::string(flag) + ": " + msg);
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t pos = s.find(sep, start);
    out.push_back(s.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return out;
}

// Builds by appending: GCC 12 misreports "'" + std::string(...) under -Wrestrict.
std::string quoted(std::string_view s) {
  std::string r;
  r.reserve(s.size() + 2);
  r += '\'';
  r.append(s);
  r += '\'';
  return r;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::optional<int64_t> to_int(std::string_view s) {
  int64_t v = 0;
  const char* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc() || p != end || s.empty()) return std::nullopt;
  return v;
}

std::optional<double> to_double(std::string_view s) {
  if (s.empty()) return std::nullopt;
  const std::string str(s);
  char* end = nullptr;
  const double v = std::strtod(str.c_str(), &end);
  if (end != str.c_str() + str.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

}  // namespace

const std::vector<FlagSpec>& profile_flag_specs() {
  static const std::vector<FlagSpec> specs{
      {"operation", "operation kind; only Gemm"},
      {"m", "rows of A and D; a,b,c or start:end:step sweeps"},
      {"n", "columns of B and D; sweepable"},
      {"k", "the contraction dimension; sweepable"},
      {"A", "A's dtype:layout, e.g. bf16:row (default bf16:row)"},
      {"B", "B's dtype:layout, e.g. bf16:column (default bf16:column)"},
      {"C", "C's dtype[:layout] (default: A's dtype, row)"},
      {"D", "D's dtype[:layout] (default: C's)"},
      {"lda", "leading dimension of A in elements (default 0: tight); with ldb and ldc, the one way to time a "
              "misaligned operand against an aligned one at the same shape"},
      {"ldb", "leading dimension of B in elements (default 0: tight)"},
      {"ldc", "leading dimension of C and D in elements (default 0: tight)"},
      {"alpha", "scale of A*B (default 1); comma list sweeps"},
      {"beta", "scale of C (default 0); comma list sweeps"},
      {"split_k_mode", "parallel (f32 slabs + a reduce kernel) or serial (in-kernel fix-up, the *_serial_splitk "
                       "kernels); both deterministic"},
      {"split_k_slices", "K slices forced on the split-K kernels (default: their chooser); sweepable"},
      {"raster_order", "heuristic|along_m|along_n: tile order of the persistent cluster (*_pc2x1_*) kernels "
                       "(heuristic: along_m); comma list sweeps"},
      {"swizzle_size", "1,2,4,8,16: raster group of the *_pc2x1_* kernels, in cluster rows (along_m) or tile "
                       "columns (along_n) (default 8); sweepable"},
      {"kernels", "comma list of globs (or substrings) over `tcgemm kernels` names; * for all; "
                  "default: the kernel gemm() picks"},
      {"providers", "comma list of tcgemm, cublas (default both)"},
      {"verification-enabled", "true|false (default true)"},
      {"verification-providers", "comma list of device, cublas (default both)"},
      {"epsilon", "elementwise relative tolerance (default by dtype)"},
      {"warmup-iterations", "iterations before timing (default 10; at least 200 ms of GPU time "
                            "is also spent)"},
      {"profiling-iterations", "timed iterations, median reported (default 100; 0: use "
                               "--profiling-duration)"},
      {"profiling-duration", "milliseconds to time each kernel when --profiling-iterations is "
                             "0 or not given"},
      {"profiling-rounds", "timed windows per kernel, interleaved across the kernels of a problem "
                           "(forward, then reverse order) and pooled into one median; each window "
                           "takes 1/rounds of the iterations or duration (default 4; 1: each kernel "
                           "once, in list order)"},
      {"seed", "random seed for the inputs (default 2019)"},
      {"dist", "input distribution: uniform,min:<x>,max:<y> (default uniform,min:-1,max:1)"},
      {"output", "also write the rows to <file>.csv or <file>.json"},
      {"device", "CUDA device ordinal (default 0)"},
  };
  return specs;
}

Result<std::vector<int64_t>> expand_int_sweep(std::string_view flag, std::string_view text,
                                              int64_t min_value) {
  std::vector<int64_t> out;
  if (text.empty()) return flag_error(flag, "needs a value");
  for (std::string_view item : split(text, ',')) {
    if (item.empty()) return flag_error(flag, "empty item in '" + std::string(text) + "'");
    const auto parts = split(item, ':');
    if (parts.size() == 1) {
      const auto v = to_int(item);
      if (!v) return flag_error(flag, quoted(item) + " is not an integer");
      if (*v < min_value)
        return flag_error(flag, "must be >= " + std::to_string(min_value) + " (got " +
                                    std::to_string(*v) + ")");
      out.push_back(*v);
      continue;
    }
    if (parts.size() > 3)
      return flag_error(flag, quoted(item) + " is not start:end or start:end:step");
    const auto start = to_int(parts[0]), end = to_int(parts[1]);
    const auto step = parts.size() == 3 ? to_int(parts[2]) : std::optional<int64_t>(1);
    if (!start || !end || !step)
      return flag_error(flag, quoted(item) + " is not start:end[:step] of integers");
    if (*step < 1) return flag_error(flag, "step must be >= 1 in '" + std::string(item) + "'");
    if (*end < *start)
      return flag_error(flag, "end < start in '" + std::string(item) + "'");
    if (*start < min_value)
      return flag_error(flag, "must be >= " + std::to_string(min_value) + " (got " +
                                  std::to_string(*start) + ")");
    if ((*end - *start) / *step + 1 > static_cast<int64_t>(kMaxProblems))
      return flag_error(flag, quoted(item) + " expands to more than " +
                                  std::to_string(kMaxProblems) + " values");
    for (int64_t v = *start; v <= *end; v += *step) {
      out.push_back(v);
      if (v > *end - *step) break;  // no overflow past INT64_MAX
    }
  }
  return out;
}

Result<int64_t> parse_int(std::string_view flag, std::string_view text, int64_t min_value) {
  const auto v = to_int(text);
  if (!v) return flag_error(flag, quoted(text) + " is not an integer (this flag takes one value)");
  if (*v < min_value)
    return flag_error(flag, "must be >= " + std::to_string(min_value) + " (got " + std::to_string(*v) + ")");
  return *v;
}

Result<std::vector<double>> parse_float_list(std::string_view flag, std::string_view text) {
  std::vector<double> out;
  if (text.empty()) return flag_error(flag, "needs a value");
  for (std::string_view item : split(text, ',')) {
    const auto v = to_double(item);
    if (!v) return flag_error(flag, quoted(item) + " is not a finite number");
    out.push_back(*v);
  }
  return out;
}

Result<bool> parse_bool(std::string_view flag, std::string_view text) {
  const std::string t = lower(text);
  if (t == "true" || t == "1" || t == "yes" || t == "on") return true;
  if (t == "false" || t == "0" || t == "no" || t == "off") return false;
  return flag_error(flag, quoted(text) + " is not true or false");
}

Result<OperandSpec> parse_operand(std::string_view flag, std::string_view text) {
  const auto parts = split(text, ':');
  if (parts.size() > 2 || parts[0].empty())
    return flag_error(flag, quoted(text) + " is not dtype[:layout] (e.g. bf16:row)");
  OperandSpec spec;
  const auto t = parse_dtype(parts[0]);
  if (!t)
    return flag_error(flag, "unknown dtype '" + std::string(parts[0]) +
                                "' (f32, tf32, f16, bf16, fe4m3, fe5m2)");
  spec.dtype = *t;
  if (parts.size() == 2) {
    const auto l = parse_layout(parts[1]);
    if (!l) return flag_error(flag, "unknown layout '" + std::string(parts[1]) + "' (row, column, t, n)");
    spec.layout = *l;
    spec.layout_given = true;
  }
  return spec;
}

bool glob_match(std::string_view pattern, std::string_view name) {
  // Iterative matcher with one backtrack point: linear in practice, no recursion.
  std::size_t p = 0, s = 0, star = std::string_view::npos, mark = 0;
  while (s < name.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == name[s])) {
      ++p; ++s;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = s;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      s = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool kernel_filter_matches(std::string_view filter, std::string_view name) {
  for (std::string_view pat : split(filter, ',')) {
    if (pat.empty()) continue;
    const bool wild = pat.find_first_of("*?") != std::string_view::npos;
    if (wild ? glob_match(pat, name) : name.find(pat) != std::string_view::npos) return true;
  }
  return false;
}

Result<Distribution> parse_dist(std::string_view text) {
  const auto parts = split(text, ',');
  if (lower(parts[0]) != "uniform")
    return flag_error("dist", "only the uniform distribution is supported (got '" +
                                  std::string(parts[0]) + "')");
  Distribution d;
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const auto kv = split(parts[i], ':');
    const auto v = kv.size() == 2 ? to_double(kv[1]) : std::nullopt;
    if (!v || (kv[0] != "min" && kv[0] != "max"))
      return flag_error("dist", quoted(parts[i]) + " is not min:<number> or max:<number>");
    (kv[0] == "min" ? d.min : d.max) = *v;
  }
  if (!(d.min < d.max))
    return flag_error("dist", "min must be below max (zeros, or any constant, hide indexing bugs)");
  return d;
}

std::string operand_string(const MatrixDesc& m) {
  return std::string(to_string(m.dtype)) + ":" + std::string(to_string(m.layout));
}

std::string describe_problem(const ProfileProblem& p) {
  const GemmDesc& g = p.desc;
  std::ostringstream os;
  os << "m=" << g.m << " n=" << g.n << " k=" << g.k << " A=" << operand_string(g.a)
     << " B=" << operand_string(g.b);
  if (g.beta != 0.0f) os << " C=" << operand_string(g.c);
  os << " D=" << operand_string(g.d);
  if (g.alpha != 1.0f) os << " alpha=" << g.alpha;
  if (g.beta != 0.0f) os << " beta=" << g.beta;
  if (g.a.ld != 0) os << " lda=" << g.a.ld;
  if (g.b.ld != 0) os << " ldb=" << g.b.ld;
  if (g.d.ld != 0) os << " ldc=" << g.d.ld;
  if (p.split_k_slices != 0) os << " split_k_slices=" << p.split_k_slices;
  if (p.raster_order != "heuristic") os << " raster_order=" << p.raster_order;
  if (p.swizzle_size != 0) os << " swizzle_size=" << p.swizzle_size;
  return os.str();
}

Result<ProfileOptions> parse_profile_options(const std::map<std::string, std::string>& flags) {
  ProfileOptions o;
  for (const auto& [name, value] : flags) {
    const auto& specs = profile_flag_specs();
    if (std::none_of(specs.begin(), specs.end(), [&](const FlagSpec& s) { return s.name == name; }))
      return flag_error(name, "unknown flag");
  }
  auto get = [&](const char* name) -> std::optional<std::string> {
    auto it = flags.find(name);
    return it == flags.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  o.command_line = "tcgemm profile";
  for (const FlagSpec& s : profile_flag_specs())
    if (auto v = get(std::string(s.name).c_str())) o.command_line += " --" + std::string(s.name) + "=" + *v;

  if (auto v = get("operation"); v && lower(*v) != "gemm")
    return flag_error("operation", "only Gemm is supported (got '" + *v + "')");

  std::vector<int64_t> ms{4096}, ns{4096}, ks{4096}, slices{0}, swizzles{0};
  std::vector<std::string> rasters{"heuristic"};
  for (auto [name, dst] : {std::pair{"m", &ms}, std::pair{"n", &ns}, std::pair{"k", &ks}}) {
    if (auto v = get(name)) {
      auto r = expand_int_sweep(name, *v, 1);
      if (!r.ok()) return r.status();
      if (std::any_of(r->begin(), r->end(), [](int64_t x) { return x > kMaxDim; }))
        return flag_error(name, "must be <= 2^31");
      *dst = *r;
    }
  }
  OperandSpec a{DType::bf16, Layout::row}, b{DType::bf16, Layout::column};
  if (auto v = get("A")) { auto r = parse_operand("A", *v); if (!r.ok()) return r.status(); a = *r; }
  if (auto v = get("B")) {
    auto r = parse_operand("B", *v);
    if (!r.ok()) return r.status();
    b = *r;
    if (!b.layout_given) b.layout = Layout::column;
  }
  if (!a.layout_given) a.layout = Layout::row;
  // tf32 is a compute mode: C and D of a tf32 GEMM are plain f32 storage. FP8 GEMMs write a
  // wider D by default, as cuBLASLt's and cutlass_profiler's common FP8 kernels do.
  auto storage = [](DType t) { return t == DType::tf32 ? DType::f32 : t; };
  OperandSpec c{is_fp8(a.dtype) ? DType::bf16 : storage(a.dtype), Layout::row};
  if (auto v = get("C")) {
    auto r = parse_operand("C", *v);
    if (!r.ok()) return r.status();
    c = *r;
    c.dtype = storage(c.dtype);
  }
  OperandSpec d{c.dtype, c.layout};
  if (auto v = get("D")) {
    auto r = parse_operand("D", *v);
    if (!r.ok()) return r.status();
    d = *r;
    d.dtype = storage(d.dtype);
    if (!d.layout_given) d.layout = c.layout;
  }
  if (is_fp8(c.dtype) && !is_fp8(d.dtype)) return flag_error("C", "an FP8 C needs an FP8 D");

  int64_t lds[3] = {0, 0, 0};  // lda, ldb, ldc
  for (int i = 0; i < 3; ++i) {
    const char* name = i == 0 ? "lda" : i == 1 ? "ldb" : "ldc";
    if (auto v = get(name)) {
      auto r = parse_int(name, *v, 0);
      if (!r.ok()) return r.status();
      lds[i] = *r;
    }
  }

  std::vector<double> alphas{1.0}, betas{0.0};
  if (auto v = get("alpha")) { auto r = parse_float_list("alpha", *v); if (!r.ok()) return r.status(); alphas = *r; }
  if (auto v = get("beta")) { auto r = parse_float_list("beta", *v); if (!r.ok()) return r.status(); betas = *r; }

  if (auto v = get("split_k_mode")) {
    if (lower(*v) != "serial" && lower(*v) != "parallel")
      return flag_error("split_k_mode", "must be serial or parallel (got '" + *v + "')");
    o.split_k_serial = lower(*v) == "serial";
  }
  if (auto v = get("split_k_slices")) {
    auto r = expand_int_sweep("split_k_slices", *v, 1);
    if (!r.ok()) return r.status();
    slices = *r;
  }
  if (auto v = get("raster_order")) {
    rasters.clear();
    for (std::string_view item : split(*v, ',')) {
      const std::string r = lower(item);
      if (r != "heuristic" && r != "along_m" && r != "along_n")
        return flag_error("raster_order", "must be heuristic, along_m or along_n (got '" + std::string(item) + "')");
      rasters.push_back(r);
    }
  }
  if (auto v = get("swizzle_size")) {
    auto r = expand_int_sweep("swizzle_size", *v, 1);
    if (!r.ok()) return r.status();
    for (int64_t s : *r)
      if ((s & (s - 1)) != 0 || s > 16)
        return flag_error("swizzle_size", "must be 1, 2, 4, 8 or 16 (got " + std::to_string(s) + ")");
    swizzles = *r;
  }

  if (auto v = get("kernels")) {
    if (v->empty()) return flag_error("kernels", "needs a pattern (* for all)");
    o.kernels = *v;
  }
  if (auto v = get("providers")) {
    o.provider_tcgemm = o.provider_cublas = false;
    for (std::string_view p : split(*v, ',')) {
      const std::string name = lower(p);
      if (name == "tcgemm") o.provider_tcgemm = true;
      else if (name == "cublas" || name == "cublaslt") o.provider_cublas = true;
      else return flag_error("providers", "unknown provider '" + std::string(p) + "' (tcgemm, cublas)");
    }
  }
  if (auto v = get("verification-enabled")) {
    auto r = parse_bool("verification-enabled", *v);
    if (!r.ok()) return r.status();
    o.verification_enabled = *r;
  }
  if (auto v = get("verification-providers")) {
    o.verify_with_device = o.verify_with_cublas = false;
    for (std::string_view p : split(*v, ',')) {
      const std::string name = lower(p);
      if (name == "device") o.verify_with_device = true;
      else if (name == "cublas" || name == "cublaslt") o.verify_with_cublas = true;
      else return flag_error("verification-providers", "unknown provider '" + std::string(p) + "' (device, cublas)");
    }
  }
  if (auto v = get("epsilon")) {
    const auto e = to_double(*v);
    if (!e || *e <= 0 || *e >= 1) return flag_error("epsilon", "must be a number in (0, 1) (got '" + *v + "')");
    o.epsilon = *e;
  }
  if (auto v = get("warmup-iterations")) {
    auto r = parse_int("warmup-iterations", *v, 0);
    if (!r.ok()) return r.status();
    if (*r > kMaxIterations) return flag_error("warmup-iterations", "must be <= " + std::to_string(kMaxIterations));
    o.warmup_iterations = *r;
  }
  const auto iters = get("profiling-iterations");
  if (iters) {
    auto r = parse_int("profiling-iterations", *iters, 0);
    if (!r.ok()) return r.status();
    if (*r > kMaxIterations) return flag_error("profiling-iterations", "must be <= " + std::to_string(kMaxIterations));
    o.profiling_iterations = *r;
  }
  if (auto v = get("profiling-duration")) {
    const auto ms = to_double(*v);
    if (!ms || *ms <= 0 || *ms > 600000)
      return flag_error("profiling-duration", "must be milliseconds in (0, 600000] (got '" + *v + "')");
    o.profiling_duration_ms = *ms;
    // cutlass_profiler: an explicit iteration count overrides the duration.
    if (!iters) o.profiling_iterations = 0;
  }
  if (auto v = get("profiling-rounds")) {
    auto r = parse_int("profiling-rounds", *v, 1);
    if (!r.ok()) return r.status();
    if (*r > kMaxRounds) return flag_error("profiling-rounds", "must be <= " + std::to_string(kMaxRounds));
    o.profiling_rounds = static_cast<int>(*r);
  }
  if (auto v = get("seed")) {
    auto r = parse_int("seed", *v, 0);
    if (!r.ok()) return r.status();
    o.seed = static_cast<uint64_t>(*r);
  }
  if (auto v = get("dist")) { auto r = parse_dist(*v); if (!r.ok()) return r.status(); o.dist = *r; }
  if (auto v = get("output")) {
    const std::string lo = lower(*v);
    auto ends_with = [&](std::string_view s) {
      return lo.size() > s.size() && lo.compare(lo.size() - s.size(), s.size(), s) == 0;
    };
    if (ends_with(".csv")) o.output_format = OutputFormat::csv;
    else if (ends_with(".json")) o.output_format = OutputFormat::json;
    else return flag_error("output", quoted(*v) + " must end in .csv or .json");
    o.output = *v;
  }
  if (auto v = get("device")) {
    auto r = parse_int("device", *v, 0);
    if (!r.ok()) return r.status();
    o.device = *r;
  }
  if (!o.provider_tcgemm && !o.provider_cublas) return flag_error("providers", "names no provider");

  const std::size_t total = ms.size() * ns.size() * ks.size() * alphas.size() * betas.size() *
                            slices.size() * swizzles.size() * rasters.size();
  if (total > kMaxProblems)
    return flag_error("m", "the sweep has " + std::to_string(total) + " problems; at most " +
                               std::to_string(kMaxProblems));
  for (int64_t m : ms)
    for (int64_t n : ns)
      for (int64_t k : ks)
        for (double alpha : alphas)
          for (double beta : betas)
            for (int64_t s : slices)
              for (const std::string& raster : rasters)
                for (int64_t z : swizzles) {
                  ProfileProblem p;
                  p.desc.m = m; p.desc.n = n; p.desc.k = k;
                  p.desc.a = {a.dtype, a.layout, lds[0]};
                  p.desc.b = {b.dtype, b.layout, lds[1]};
                  p.desc.c = {c.dtype, c.layout, lds[2]};
                  p.desc.d = {d.dtype, d.layout, lds[2]};
                  p.desc.alpha = static_cast<float>(alpha);
                  p.desc.beta = static_cast<float>(beta);
                  p.split_k_slices = s;
                  p.raster_order = raster;
                  p.swizzle_size = z;
                  if (Status st = validate(p.desc); !st.ok()) {
                    // validate() names fields (ldA); the user typed flags.
                    const std::string& msg = st.message();
                    const char* flag = msg.find("ldA") != std::string::npos   ? "lda"
                                       : msg.find("ldB") != std::string::npos ? "ldb"
                                       : msg.find("ldC") != std::string::npos || msg.find("ldD") != std::string::npos
                                           ? "ldc"
                                       : msg.rfind("ld", 0) == 0 ? "m"
                                                                 : "A";
                    return flag_error(flag, msg);
                  }
                  o.problems.push_back(p);
                }
  return o;
}

}  // namespace tcgemm::cli
