// Tuned split-K plans: for a problem, the tile and split count that measured fastest on this
// machine (`tcgemm tune` times them), taken by gemm()'s split-K planner in place of its model's
// choice. The model ranks plans from constant per-CTA rates and misses by up to 26% on some shapes
// (bench/NOTES.md, session 47); a tuned plan replaces the guess with a measurement. Off unless a
// table is loaded: load_tuned_split_plans(), or TCGEMM_TUNED_PLANS=<file> read at the first plan.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tcgemm/problem.hpp"

namespace tcgemm {

// One plan for the problems of this size and operand layout (any ld and alignment: the planner
// still checks that the tile supports the problem and falls back to its model where it does not).
struct TunedSplitPlan {
  int64_t m = 0, n = 0, k = 0;
  DType input = DType::bf16;       // A's and B's dtype: bf16 or f16
  Layout a = Layout::row, b = Layout::column;
  int tile_m = 0, tile_n = 0;      // 128x256, 128x128, 128x64 or 64x64
  int splits = 1;                  // K slices, 1 to 64
  double measured_us = 0;          // what `tcgemm tune` timed (reported beside the plan, not used)
};

// Checks one plan: sizes >= 1, input bf16 or f16, a known tile, splits in 1..64.
Status validate(const TunedSplitPlan& p);

// The text `tcgemm tune` writes: '#' starts a comment, one plan a line,
//   m n k A B TILE splits measured_us      e.g.  256 512 16384 bf16:row bf16:column 128x64 6 19.5
// Errors name the line and the field.
Result<std::vector<TunedSplitPlan>> parse_tuned_split_plans(std::string_view text);
std::string format_tuned_split_plan(const TunedSplitPlan& p);  // one line, no newline
// A plans file parsed; errors name the file, then the line and field.
Result<std::vector<TunedSplitPlan>> read_tuned_split_plans(const std::string& path);
// The problem of g as a plan's key (sizes, input, A/B layouts; no tile yet).
TunedSplitPlan tuned_problem_of(const GemmDesc& g);
// Whether two plans are for the same problem (sizes, input, A/B layouts): a table holds one each.
bool same_tuned_problem(const TunedSplitPlan& x, const TunedSplitPlan& y);
// `p` in place of the plan in `plans` for the same problem, or appended where there is none.
void put_tuned_split_plan(std::vector<TunedSplitPlan>& plans, const TunedSplitPlan& p);

// The process-wide table gemm() reads. load replaces it with a file's plans (nothing changes on an
// error); add validates one plan and replaces any for the same problem; clear empties it.
Status load_tuned_split_plans(const std::string& path);
Status add_tuned_split_plan(const TunedSplitPlan& p);
void clear_tuned_split_plans();
// The plan for a problem of these sizes, input and A/B layouts, if the table has one.
std::optional<TunedSplitPlan> find_tuned_split_plan(const GemmDesc& g);
// Changes with every load, add and clear, so cached plans can tell they are stale.
uint64_t tuned_split_plans_generation();

// Autotuning at first use, off by default: TCGEMM_AUTOTUNE=1 in the environment or
// set_split_autotune(true) turns it on. Where gemm() runs the split-K planner's entry (bf16 or f16,
// TMA loads) and the table has no plan for the problem, the first call for it times the model's
// own plan and, for each split tile, the three split counts the model prices lowest, on the
// caller's A, B and C with D and the slabs in scratch memory and L2 flushed before each run (the
// medians of 5 in a forward and a reverse pass); a plan at least 2% faster than the model's goes
// into the table, and later calls run it. That first call synchronizes its stream and allocates
// ~2x L2 of scratch for the flush; a stream being captured into a graph is never tuned there, nor
// a problem under a forced split count.
void set_split_autotune(bool on);
bool split_autotune();

}  // namespace tcgemm
