#include <algorithm>

#include "tcgemm/analysis.hpp"

namespace tcgemm {

Roofline roofline(const GemmDesc& g, const DeviceProfile& d, double peak) {
  Roofline r;
  const double m = static_cast<double>(g.m), n = static_cast<double>(g.n), k = static_cast<double>(g.k);
  r.flops = 2.0 * m * n * k;
  r.min_bytes = m * k * static_cast<double>(dtype_bytes(g.a.dtype)) +
                k * n * static_cast<double>(dtype_bytes(g.b.dtype)) +
                m * n * static_cast<double>(dtype_bytes(g.d.dtype)) +
                (g.beta != 0.0f ? m * n * static_cast<double>(dtype_bytes(g.c.dtype)) : 0.0);
  r.arithmetic_intensity = r.flops / r.min_bytes;
  r.peak_tflops = peak;
  const double bw = d.mem_bandwidth_gbs * 1e9;  // bytes/s
  r.ridge_intensity = peak * 1e12 / bw;
  r.compute_us = r.flops / (peak * 1e12) * 1e6;
  r.memory_us = r.min_bytes / bw * 1e6;
  r.floor_us = std::max(r.compute_us, r.memory_us);
  r.compute_bound = r.compute_us >= r.memory_us;
  if (d.stream_tbps > 0) r.stream_us = d.stream_fixed_us + r.min_bytes / (d.stream_tbps * 1e12) * 1e6;
  return r;
}

}  // namespace tcgemm
