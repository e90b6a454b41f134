#pragma once

#include "tcgemm/analysis.hpp"

namespace tcgemm {

// The Tensor Core (or SIMT) rate a kernel of this family can reach for these inputs.
double family_peak_tflops(const DeviceProfile& d, MmaFamily f, DType input);

std::vector<Advice> advise(const ShapeReport& r);

}  // namespace tcgemm
