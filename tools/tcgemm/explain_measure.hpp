// `explain --measure`: run every kernel path that takes the problem (and cuBLAS) on the GPU and
// put each measurement beside the analyzer's prediction for that path, so the model is checked.
#pragma once

#include <nlohmann/json.hpp>

#include <iosfwd>

#include "tcgemm/analysis.hpp"

namespace tcgemm::cli {

// Prints the table (text) or fills json["measured"]; returns a process exit code (0 ok, 3 no GPU).
int measure_paths(const ShapeReport& report, bool as_json, nlohmann::json& json, std::ostream& os);

}  // namespace tcgemm::cli
