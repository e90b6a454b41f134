// `explain --measure`'s split-plan table: where gemm() runs the split-K planner's entry, each of
// the four TMA split tiles at the split count its model prices lowest and the neighbouring counts,
// predicted against measured, beside gemm()'s own plan, and whether `tcgemm tune` would keep the
// fastest (bench/NOTES.md, session 47: the model's ranking misses by up to 26% on the H100).
#pragma once

#include <nlohmann/json.hpp>

#include <iosfwd>

#include "tcgemm/analysis.hpp"

namespace tcgemm::cli {

// gemm_us: what gemm()'s plan measured in the path table (0: not measured). Prints the table (text)
// or fills json["split_plans"] and json["fastest_split_plan"]; nothing where the planner's entry
// is not gemm()'s pick. Returns a process exit code (0 ok, 1 a profile failed).
int measure_split_plans(const ShapeReport& r, double gemm_us, bool as_json, nlohmann::json& json, std::ostream& os);

}  // namespace tcgemm::cli
