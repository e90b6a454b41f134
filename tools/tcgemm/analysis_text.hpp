// Human-readable renderings of the analyzer's reports.
#pragma once

#include <string>

#include "tcgemm/analysis.hpp"

namespace tcgemm::cli {

std::string occupancy_text(const Occupancy& o, const DeviceProfile& d, const KernelResources& k);
std::string explain_text(const ShapeReport& r);

}  // namespace tcgemm::cli
