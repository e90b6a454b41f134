#include "tune_choice.hpp"

#include <algorithm>
#include <regex>

namespace tcgemm::cli {

std::vector<std::string> split_tile_kernels(DType input) {
  const std::string t = input == DType::f16 ? "f16" : "bf16";
  return {"sm90_wgmma_" + t + "_128x256x64_s4_ws_splitk", "sm90_wgmma_" + t + "_128x128x64_s7_ws_splitk",
          "sm90_wgmma_" + t + "_128x64x64_s9_ws_splitk", "sm90_wgmma_" + t + "_64x64x128_s7_ws_splitk"};
}

std::optional<TimedPlan> timed_plan(const ProfileRow& row) {
  static const std::regex kernel(R"(^sm90_wgmma_(bf16|f16)_(\d+)x(\d+)x(64|128)_s\d+_ws_splitk$)");
  static const std::regex slices(R"(split_k_slices=(\d+))");
  std::smatch k, s;
  if (row.provider != "tcgemm" || row.runtime_ms <= 0) return std::nullopt;
  if (row.disposition != "passed" && row.disposition != "not_verified") return std::nullopt;
  if (!std::regex_match(row.kernel, k, kernel) || !std::regex_search(row.problem, s, slices)) return std::nullopt;
  // Only the tiles gemm()'s planner runs: a by-name variant of the same tile (64x64 s14) is another kernel.
  const std::vector<std::string> planned = split_tile_kernels(k[1] == "f16" ? DType::f16 : DType::bf16);
  if (std::find(planned.begin(), planned.end(), row.kernel) == planned.end()) return std::nullopt;
  return TimedPlan{std::stoi(k[2]), std::stoi(k[3]), std::stoi(s[1]), row.runtime_ms * 1e3};
}

std::string plan_label(int tile_m, int tile_n, int splits) {
  return std::to_string(tile_m) + "x" + std::to_string(tile_n) + " x" + std::to_string(splits);
}

bool plan_takeable(int64_t m, int64_t n, int64_t k, const TimedPlan& p, int sms) {
  auto cdiv = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
  const int64_t k_blocks = std::max<int64_t>(1, cdiv(k, 64));
  const int64_t used = cdiv(k_blocks, cdiv(k_blocks, std::max(p.splits, 1)));
  if (p.tile_m == 128 && p.tile_n == 256 && used == 1) return false;
  return cdiv(m, p.tile_m) * cdiv(n, p.tile_n) * used <= sms;
}

std::optional<TimedPlan> fastest_plan(const std::vector<ProfileRow>& rows, int64_t m, int64_t n, int64_t k, int sms) {
  std::optional<TimedPlan> best;
  for (const ProfileRow& r : rows)
    if (auto p = timed_plan(r); p && plan_takeable(m, n, k, *p, sms) && (!best || p->us < best->us)) best = p;
  return best;
}

std::vector<int> counts_around_model_best(const std::vector<int>& counts, const std::vector<double>& model_us) {
  int best = -1;
  for (std::size_t i = 0; i < counts.size() && i < model_us.size(); ++i)
    if (model_us[i] > 0 && (best < 0 || model_us[i] < model_us[static_cast<std::size_t>(best)])) best = static_cast<int>(i);
  std::vector<int> out;
  for (int i = best - 1; best >= 0 && i <= best + 1; ++i)
    if (i >= 0 && i < static_cast<int>(counts.size()) && model_us[static_cast<std::size_t>(i)] > 0)
      out.push_back(counts[static_cast<std::size_t>(i)]);
  return out;
}

bool worth_keeping(const TimedPlan& best, double gemm_us) { return best.us < gemm_us * (1.0 - kTuneMargin); }

std::vector<TunedSplitPlan> merge_plans(std::vector<TunedSplitPlan> existing, const std::vector<TunedSplitPlan>& tuned) {
  for (const TunedSplitPlan& t : tuned) put_tuned_split_plan(existing, t);
  return existing;
}

}  // namespace tcgemm::cli
