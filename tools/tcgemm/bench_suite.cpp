#include "bench_suite.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>

namespace tcgemm::cli {

Result<std::vector<ProfileProblem>> parse_suite(const std::string& text, const std::string& name) {
  std::vector<ProfileProblem> out;
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream fields(line);
    std::vector<std::string> f;
    for (std::string w; fields >> w;) f.push_back(w);
    if (f.empty()) continue;
    const std::string where = name + ":" + std::to_string(line_no) + ": ";
    if (f.size() < 3 || f.size() > 6) return Status::invalid(where + "expected 'm n k [A] [B] [C]'");
    ProfileProblem p;
    int64_t* dims[] = {&p.desc.m, &p.desc.n, &p.desc.k};
    for (int i = 0; i < 3; ++i) {
      Result<int64_t> v = parse_int("suite", f[i], 1);
      if (!v.ok()) return Status::invalid(where + "'" + f[i] + "' is not a size >= 1");
      *dims[i] = *v;
    }
    MatrixDesc* ops[] = {&p.desc.a, &p.desc.b, &p.desc.c};
    const Layout defaults[] = {Layout::row, Layout::column, Layout::row};
    for (std::size_t i = 3; i < f.size(); ++i) {
      Result<OperandSpec> s = parse_operand("suite", f[i]);
      if (!s.ok()) return Status::invalid(where + s.status().message());
      ops[i - 3]->dtype = s->dtype;
      ops[i - 3]->layout = s->layout_given ? s->layout : defaults[i - 3];
    }
    if (f.size() < 5) p.desc.b.dtype = p.desc.a.dtype;
    if (f.size() < 6) p.desc.c.dtype = p.desc.a.dtype == DType::tf32 ? DType::f32 : p.desc.a.dtype;
    if (is_fp8(p.desc.c.dtype)) p.desc.c.dtype = DType::bf16;
    p.desc.d = p.desc.c;
    if (Status s = validate(p.desc); !s.ok()) return Status::invalid(where + s.message());
    out.push_back(p);
  }
  if (out.empty()) return Status::invalid(name + ": no problems in the suite");
  return out;
}

Result<std::vector<ProfileProblem>> read_suite(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::invalid("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  return parse_suite(text.str(), path);
}

std::vector<SuiteLine> summarize(const std::vector<ProfileRow>& rows, const std::map<std::string, std::string>& picks) {
  std::vector<SuiteLine> lines;
  std::map<std::string, std::size_t> index;
  for (const ProfileRow& r : rows) {
    auto [it, fresh] = index.try_emplace(r.problem, lines.size());
    if (fresh) {
      SuiteLine fresh_line;
      fresh_line.problem = r.problem;
      lines.push_back(fresh_line);
      if (auto p = picks.find(r.problem); p != picks.end()) lines.back().picked_kernel = p->second;
    }
    SuiteLine& l = lines[it->second];
    const double tflops = r.gflops / 1000.0;
    if (r.provider == "cublas" && r.runtime_ms > 0) l.cublas_tflops = tflops;
    const bool usable = r.disposition == "passed" || r.disposition == "not_verified";
    if (r.provider == "tcgemm" && usable && r.runtime_ms > 0 && tflops > l.tcgemm_tflops) {
      l.tcgemm_tflops = tflops;
      l.best_kernel = r.kernel;
    }
    if (r.provider == "tcgemm" && usable && r.runtime_ms > 0 && r.kernel == l.picked_kernel) l.picked_tflops = tflops;
  }
  for (SuiteLine& l : lines) {
    if (l.cublas_tflops > 0 && l.tcgemm_tflops > 0) l.ratio = l.tcgemm_tflops / l.cublas_tflops;
    if (l.cublas_tflops > 0 && l.picked_tflops > 0) l.picked_ratio = l.picked_tflops / l.cublas_tflops;
  }
  return lines;
}

void print_summary(std::ostream& os, const std::vector<SuiteLine>& lines) {
  std::size_t wp = 7, wk = 6;
  for (const SuiteLine& l : lines) {
    wp = std::max(wp, l.problem.size());
    wk = std::max(wk, l.best_kernel.size());
  }
  char buf[768];
  std::snprintf(buf, sizeof buf, "%-*s  %-*s  %14s  %14s  %8s  %12s\n", int(wp), "Problem", int(wk),
                "Best tcgemm kernel", "tcgemm TFLOP/s", "cuBLAS TFLOP/s", "ratio", "gemm() pick");
  os << buf;
  double log_sum = 0, pick_log_sum = 0;
  int counted = 0, picked = 0;
  for (const SuiteLine& l : lines) {
    char pick[32] = "-";
    if (l.picked_ratio > 0) std::snprintf(pick, sizeof pick, "%.3fx", l.picked_ratio);
    std::snprintf(buf, sizeof buf, "%-*s  %-*s  %14.1f  %14.1f  %7.3fx  %12s\n", int(wp), l.problem.c_str(), int(wk),
                  l.best_kernel.empty() ? "(none passed)" : l.best_kernel.c_str(), l.tcgemm_tflops, l.cublas_tflops,
                  l.ratio, pick);
    os << buf;
    if (l.ratio > 0) { log_sum += std::log(l.ratio); ++counted; }
    if (l.picked_ratio > 0) { pick_log_sum += std::log(l.picked_ratio); ++picked; }
  }
  if (counted) {
    std::snprintf(buf, sizeof buf, "geomean ratio to cuBLAS over %d problems: %.3fx\n", counted,
                  std::exp(log_sum / counted));
    os << buf;
  }
  if (picked == counted && picked > 0) {
    std::snprintf(buf, sizeof buf, "geomean ratio to cuBLAS of gemm()'s pick (one kernel a problem, as cuBLAS): %.3fx\n",
                  std::exp(pick_log_sum / picked));
    os << buf;
  }
}

void write_summary_csv(std::ostream& os, const std::vector<SuiteLine>& lines, const RunInfo& info) {
  os << "date,device,driver,command,shape,provider,kernel,tflops,ratio_to_cublas\n";
  const std::string head = csv_field(info.date) + "," + csv_field(info.device) + "," + csv_field(info.driver) + "," +
                           csv_field(info.command_line) + ",";
  char num[64];
  for (const SuiteLine& l : lines) {
    std::snprintf(num, sizeof num, "%.2f,%.4f", l.tcgemm_tflops, l.ratio);
    os << head << csv_field(l.problem) << ",tcgemm," << csv_field(l.best_kernel) << "," << num << "\n";
    if (l.picked_tflops > 0) {
      std::snprintf(num, sizeof num, "%.2f,%.4f", l.picked_tflops, l.picked_ratio);
      os << head << csv_field(l.problem) << ",tcgemm_gemm_pick," << csv_field(l.picked_kernel) << "," << num << "\n";
    }
    std::snprintf(num, sizeof num, "%.2f,1.0000", l.cublas_tflops);
    os << head << csv_field(l.problem) << ",cublas,cublasLt," << num << "\n";
  }
}

}  // namespace tcgemm::cli
