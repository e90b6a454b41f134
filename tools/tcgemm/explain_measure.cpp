#include "explain_measure.hpp"

#include <cstdio>
#include <map>
#include <ostream>
#include <string>
#include <tuple>

#include "analysis/family_peak.hpp"
#include "explain_split_plans.hpp"
#include "profile_runner.hpp"
#include "runtime/registry.hpp"
#include "tcgemm/gemm.hpp"

namespace tcgemm::cli {
namespace {

// The analyzer's prediction for one registered path: its tile, stages and threads, the family's
// rate, the K slices it will run and the bytes it copies first.
double predicted_us(const ShapeReport& r, const KernelEntry& k) {
  const GemmDesc& g = r.desc;
  TileConfig t = default_tile_config(k.family, g.a.dtype);
  std::tie(t.tile_m, t.tile_n) = k.tile_for ? k.tile_for(g) : std::pair<int, int>{k.tile_m, k.tile_n};
  t.tile_k = k.tile_k;
  t.stages = k.stages;
  t.threads = k.threads;
  t.cluster_m = k.cluster_m;
  t.smem_per_cta = 0;
  const KernelResources res{t.threads, t.regs_per_thread, 0, estimated_smem_bytes(t, g.a.dtype)};
  Result<Occupancy> occ = compute_occupancy(r.device, res);
  const int ctas = occ.ok() && occ->ctas_per_sm > 0 ? occ->ctas_per_sm : 1;
  const int splits = k.split_k ? k.split_k(g) : 1;
  const double copies = k.copy_bytes ? static_cast<double>(k.copy_bytes(g)) : 0.0;
  return predict_time(g, r.device, t, ctas, family_peak_tflops(r.device, k.family, g.a.dtype), splits).total_us +
         copies / (r.device.mem_bandwidth_gbs * 1e9) * 1e6;
}

}  // namespace

int measure_paths(const ShapeReport& r, bool as_json, nlohmann::json& json, std::ostream& os) {
  ProfileOptions o;
  ProfileProblem p;
  p.desc = r.desc;
  o.problems = {p};
  o.kernels = std::string(1, '*');  // (a string literal here trips GCC 12 -Wrestrict)
  o.warmup_iterations = 10;
  o.profiling_iterations = 30;
  o.verify_with_cublas = false;
  o.command_line = std::string("tcgemm explain --measure");
  Result<ProfileRun> run = collect_profile(o);
  if (!run.ok()) {
    os << "measure: " << run.status().message() << "\n";
    return run.status().code() == StatusCode::no_device ? kNoDevice : 1;
  }
  double cublas_ms = 0;
  for (const ProfileRow& row : run->rows)
    if (row.provider == "cublas" && row.runtime_ms > 0) cublas_ms = row.runtime_ms;

  nlohmann::json rows = nlohmann::json::array();
  std::string fastest;
  double gemm_us = 0;  // gemm()'s pick, for the split-plan table
  const Result<std::string_view> picked = pick_kernel(r.desc);
  double fastest_ms = 0;
  char buf[512];
  if (!as_json) {
    os << "\nMeasured on " << run->device_line.substr(8) << " (ratio = measured / predicted)\n";
    std::snprintf(buf, sizeof buf, "  %-52s %12s %12s %7s %9s %9s  %s\n", "path", "predicted us", "measured us",
                  "ratio", "TFLOP/s", "vs cuBLAS", "disposition");
    os << buf;
  }
  for (const ProfileRow& row : run->rows) {
    const KernelEntry* k = row.provider == "tcgemm" ? find_kernel(row.kernel) : nullptr;
    const double pred = k ? predicted_us(r, *k) : 0.0;
    const double meas = row.runtime_ms * 1e3;
    if (k && picked.ok() && row.kernel == *picked) gemm_us = meas;
    const bool usable = row.runtime_ms > 0 && (row.disposition == "passed" || row.disposition == "not_verified");
    if (k && usable && (fastest.empty() || row.runtime_ms < fastest_ms)) {
      fastest = row.kernel;
      fastest_ms = row.runtime_ms;
    }
    const std::string name = row.provider == "cublas" ? "cuBLAS (" + row.kernel + ")" : row.kernel;
    rows.push_back({{"path", name},
                    {"predicted_us", pred},
                    {"measured_us", meas},
                    {"tflops", row.gflops / 1e3},
                    {"ratio_to_cublas", cublas_ms > 0 && row.runtime_ms > 0 ? cublas_ms / row.runtime_ms : 0.0},
                    {"disposition", row.disposition}});
    if (!as_json) {
      std::snprintf(buf, sizeof buf, "  %-52.52s %12s %12s %7s %9.1f %8.2fx  %s\n", name.c_str(),
                    pred > 0 ? std::to_string(static_cast<int>(pred + 0.5)).c_str() : "-",
                    meas > 0 ? std::to_string(static_cast<int>(meas + 0.5)).c_str() : "-",
                    pred > 0 && meas > 0 ? (std::to_string(meas / pred).substr(0, 4) + "x").c_str() : "-",
                    row.gflops / 1e3, cublas_ms > 0 && row.runtime_ms > 0 ? cublas_ms / row.runtime_ms : 0.0,
                    row.disposition.c_str());
      os << buf;
    }
  }
  const std::string top = r.advice.empty() ? "(none)" : r.advice.front().action;
  if (as_json) {
    json["measured"] = rows;
    json["fastest_measured_path"] = fastest;
  } else {
    os << "  fastest measured tcgemm path: " << (fastest.empty() ? "(none passed)" : fastest)
       << "; explain's top advice: " << top << "\n";
  }
  return measure_split_plans(r, gemm_us, as_json, json, os);
}

}  // namespace tcgemm::cli
