// `tcgemm tune`'s decisions, host-only so the CPU tests can check them: which timed split plan is
// fastest, whether it beats gemm()'s own plan by enough to keep, and the plans file kept in order.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "profile_report.hpp"
#include "tcgemm/tuning.hpp"

namespace tcgemm::cli {

// The four TMA split tiles the planner chooses among, by registry name, for a 16-bit input.
std::vector<std::string> split_tile_kernels(DType input);

// A timed forced plan: the tile from the row's kernel name (`sm90_wgmma_bf16_128x64x64_s9_ws_splitk`),
// the split count from its problem ("... split_k_slices=6"); nullopt for any other row, or one
// that was not timed.
struct TimedPlan {
  int tile_m = 0, tile_n = 0, splits = 0;
  double us = 0;
};
std::optional<TimedPlan> timed_plan(const ProfileRow& row);
// "128x64 x6": a plan as the tables print it.
std::string plan_label(int tile_m, int tile_n, int splits);
// Whether gemm()'s planned entry can run the plan on m x n x k with `sms` SMs: one round of CTAs
// (ceil(m/tile_m) x ceil(n/tile_n) x the splits K allows), and not the 128x256 tile unsplit, which
// the persistent kernels serve (sm90_planned_fits).
bool plan_takeable(int64_t m, int64_t n, int64_t k, const TimedPlan& p, int sms);
// The fastest timed plan of the rows that gemm() can take.
std::optional<TimedPlan> fastest_plan(const std::vector<ProfileRow>& rows, int64_t m, int64_t n, int64_t k, int sms);

// The split counts `explain --measure` times on one tile: the one of `counts` the model prices
// lowest (model_us, same order; 0 or less: not a plan gemm() can take) and its takeable neighbours
// in the list. Empty where none is takeable.
std::vector<int> counts_around_model_best(const std::vector<int>& counts, const std::vector<double>& model_us);

// A tuned plan is kept only where it beats gemm()'s by more than this: closer than that, one
// timing window's noise decides (bench/NOTES.md: ~1-2% between identical kernels in one process).
inline constexpr double kTuneMargin = 0.03;
bool worth_keeping(const TimedPlan& best, double gemm_us);

// `existing` with every plan of `tuned` in place of one for the same problem, new ones appended.
std::vector<TunedSplitPlan> merge_plans(std::vector<TunedSplitPlan> existing, const std::vector<TunedSplitPlan>& tuned);

}  // namespace tcgemm::cli
