#include "analysis/family_peak.hpp"
#include "tcgemm/analysis.hpp"

namespace tcgemm {

// Lead, not a measurement here: on Hopper, mma.sync (HMMA) reaches about two thirds of the rate
// wgmma does, since only the asynchronous warpgroup form keeps the Tensor Cores fully fed.
constexpr double kHopperMmaSyncFraction = 0.625;

double family_peak_tflops(const DeviceProfile& d, MmaFamily f, DType input) {
  switch (f) {
    case MmaFamily::simt:
      return input == DType::f64 ? d.peak.fp32_simt / 2 : d.peak.fp32_simt;
    case MmaFamily::wgmma:
      return peak_tflops(d, input);
    case MmaFamily::mma_sync:
    case MmaFamily::wmma:
      return peak_tflops(d, input) * (d.cc_major == 9 ? kHopperMmaSyncFraction : 1.0);
  }
  return 0;
}

Result<ShapeReport> explain(const GemmDesc& g, const DeviceProfile& d, const TileConfig& t) {
  if (Status s = validate(g); !s.ok()) return s;
  if (t.tile_m < 1 || t.tile_n < 1 || t.tile_k < 1 || t.stages < 1)
    return Status::invalid("tile and stages must be >= 1");
  ShapeReport r;
  r.desc = g;
  r.device = d;
  r.tile = t;
  r.alignment = alignment_record(g, d);

  const KernelResources k{t.threads, t.regs_per_thread, 0, estimated_smem_bytes(t, g.a.dtype)};
  Result<Occupancy> occ = compute_occupancy(d, k);
  if (!occ.ok()) return occ.status();
  r.occupancy = occ.value();
  if (r.occupancy.ctas_per_sm < 1)
    return Status::invalid("this configuration does not fit on one SM of " + d.name);

  const double peak = family_peak_tflops(d, t.family, g.a.dtype);
  // The floor is the device's: the dtype's best rate, whatever family this plan uses.
  r.roofline = roofline(g, d, peak_tflops(d, g.a.dtype));
  r.waves = wave_model(g, d, t, r.occupancy.ctas_per_sm);
  r.predicted = predict_time(g, d, t, r.occupancy.ctas_per_sm, peak);
  if (r.alignment.needs_repack && t.family == MmaFamily::wgmma) {
    r.predicted.copy_us = r.alignment.repack_us + kKernelLaunchUs;  // the copy kernel is a launch of its own
    r.predicted.extra_us += r.predicted.copy_us;
    r.predicted.total_us += r.predicted.copy_us;
  }
  r.advice = advise(r);
  return r;
}

}  // namespace tcgemm
