// The caller's D and C as every kernel's epilogue parameters carry them (the same member names in
// each kernel's struct): where they are, element (r, c) at r * row_stride + c * col_stride,
// alpha, beta and the dtypes.
#pragma once

#include "runtime/registry.hpp"
#include "tcgemm/problem.hpp"

namespace tcgemm {

template <class Epilogue>
void set_caller_epilogue(Epilogue& ep, const GemmArgs& args) {
  const GemmDesc& g = args.desc;
  const int64_t ldc = effective_ld(g.c, extent_c(g)), ldd = effective_ld(g.d, extent_c(g));
  ep.d = args.d;
  ep.c = args.c;
  ep.d_row_stride = g.d.layout == Layout::row ? ldd : 1;
  ep.d_col_stride = g.d.layout == Layout::row ? 1 : ldd;
  ep.c_row_stride = g.c.layout == Layout::row ? ldc : 1;
  ep.c_col_stride = g.c.layout == Layout::row ? 1 : ldc;
  ep.alpha = g.alpha;
  ep.beta = g.beta;
  ep.d_dtype = g.d.dtype;
  ep.c_dtype = g.c.dtype;
}

}  // namespace tcgemm
