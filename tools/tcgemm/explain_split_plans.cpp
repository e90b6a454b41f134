#include "explain_split_plans.hpp"

#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "kernels/sm90/split_k.hpp"
#include "profile_runner.hpp"
#include "tcgemm/gemm.hpp"
#include "tune_choice.hpp"

namespace tcgemm::cli {

int measure_split_plans(const ShapeReport& r, double gemm_us, bool as_json, nlohmann::json& json, std::ostream& os) {
  const GemmDesc& g = r.desc;
  const DType input = g.a.dtype;
  Result<std::string_view> pick = pick_kernel(g);
  if ((input != DType::bf16 && input != DType::f16) || !pick.ok() || pick->find("_128xN_ws_splitk") == std::string_view::npos)
    return 0;
  const int sms = current_sm_count();
  const SplitKPlan plan = plan_split_k(g, input, sms);
  const std::vector<std::string> names = split_tile_kernels(input);
  const Sm90WsVariant variants[] = {Sm90WsVariant{}, sm90_wgmma_ws_narrow_variant(128), sm90_wgmma_ws_narrow_variant(64),
                                    sm90_wgmma_ws_narrow_variant(64, 1)};
  const std::vector<int> counts = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32};

  struct Point {
    TimedPlan plan;
    double predicted_us;
  };
  std::vector<Point> points;
  for (std::size_t t = 0; t < names.size(); ++t) {
    const Sm90WsVariant v = variants[t];
    std::vector<double> model;
    for (int s : counts) {
      const bool takeable = plan_takeable(g.m, g.n, g.k, TimedPlan{64 * v.consumers, v.tile_n, s, 0}, sms);
      model.push_back(takeable ? split_k_model_us(g, input, v, s, sms) : 0.0);
    }
    ProfileOptions o;
    for (int s : counts_around_model_best(counts, model)) {
      ProfileProblem p;
      p.desc = g;
      p.split_k_slices = s;
      o.problems.push_back(p);
    }
    if (o.problems.empty()) continue;
    o.kernels = names[t];
    o.provider_cublas = false;
    o.verification_enabled = false;
    o.profiling_iterations = 30;
    o.profiling_rounds = 2;
    o.command_line = "tcgemm explain --measure (split plans)";
    Result<ProfileRun> run = collect_profile(o);
    if (!run.ok()) {
      os << "measure: " << run.status().message() << "\n";
      return 1;
    }
    for (const ProfileRow& row : run->rows)
      if (std::optional<TimedPlan> tp = timed_plan(row))
        points.push_back({*tp, split_k_model_us(g, input, v, tp->splits, sms)});
  }
  const Point* fastest = nullptr;
  for (const Point& p : points)
    if (fastest == nullptr || p.plan.us < fastest->plan.us) fastest = &p;

  const std::string gemm_plan =
      plan_label(64 * plan.variant.consumers, plan.variant.tile_n, plan.splits) + (plan.tuned_us != 0 ? " (tuned)" : "");
  const std::string fastest_plan_text =
      fastest != nullptr ? plan_label(fastest->plan.tile_m, fastest->plan.tile_n, fastest->plan.splits) : std::string();
  const bool keep = fastest != nullptr && gemm_us > 0 && worth_keeping(fastest->plan, gemm_us);
  if (as_json) {
    nlohmann::json rows = nlohmann::json::array();
    for (const Point& p : points)
      rows.push_back({{"tile", std::to_string(p.plan.tile_m) + "x" + std::to_string(p.plan.tile_n)},
                      {"splits", p.plan.splits},
                      {"predicted_us", p.predicted_us},
                      {"measured_us", p.plan.us}});
    json["split_plans"] = rows;
    json["gemm_split_plan"] = gemm_plan;
    json["fastest_split_plan"] = fastest_plan_text;
    json["tune_would_keep"] = keep;
    return 0;
  }
  char buf[256];
  os << "\nSplit plans (each tile at the counts its model prices lowest; gemm() runs " << gemm_plan << "):\n";
  std::snprintf(buf, sizeof buf, "  %-10s %6s %12s %12s %7s\n", "tile", "splits", "predicted us", "measured us", "ratio");
  os << buf;
  for (const Point& p : points) {
    std::snprintf(buf, sizeof buf, "  %-10s %6d %12.1f %12.1f %6.2fx\n",
                  (std::to_string(p.plan.tile_m) + "x" + std::to_string(p.plan.tile_n)).c_str(), p.plan.splits,
                  p.predicted_us, p.plan.us, p.plan.us / p.predicted_us);
    os << buf;
  }
  if (fastest == nullptr) return 0;
  std::snprintf(buf, sizeof buf, "  fastest split plan: %s, %.1f us against gemm()'s %.1f us", fastest_plan_text.c_str(),
                fastest->plan.us, gemm_us);
  os << buf;
  if (keep)
    os << ": `tcgemm tune --m=" << g.m << " --n=" << g.n << " --k=" << g.k << "` would keep it for gemm()\n";
  else
    os << ": gemm()'s plan is within " << static_cast<int>(kTuneMargin * 100) << "% of it\n";
  return 0;
}

}  // namespace tcgemm::cli
