// Fixed JSON keys for `explain --json` and `occupancy --json`: scripts rely on them.
#pragma once

#include <nlohmann/json.hpp>

#include "tcgemm/analysis.hpp"

namespace tcgemm::cli {

nlohmann::json occupancy_json(const Occupancy& o);
nlohmann::json explain_json(const ShapeReport& r);

}  // namespace tcgemm::cli
