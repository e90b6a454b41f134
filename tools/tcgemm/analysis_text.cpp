#include "analysis_text.hpp"

#include <cstdarg>
#include <cstdio>

namespace tcgemm::cli {
namespace {

void out(std::string& s, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void out(std::string& s, const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  s += buf;
}

std::string si(double v, const char* unit) {
  const char* p[] = {"", "K", "M", "G", "T", "P"};
  int i = 0;
  while (v >= 1000.0 && i < 5) { v /= 1000.0; ++i; }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g %s%s", v, p[i], unit);
  return buf;
}

std::string binding_list(const Occupancy& o) {
  std::string s;
  for (Limiter l : o.binding) s += (s.empty() ? "" : " and ") + std::string(to_string(l));
  return s;
}

}  // namespace

std::string occupancy_text(const Occupancy& o, const DeviceProfile& d, const KernelResources& k) {
  std::string s;
  out(s, "Occupancy on %s (%s)\n", d.name.c_str(), d.description.c_str());
  out(s, "  kernel: %d threads, %d registers/thread, %lld B static + %lld B dynamic shared memory\n",
      k.threads_per_block, k.regs_per_thread, static_cast<long long>(k.static_smem),
      static_cast<long long>(k.dynamic_smem));
  out(s, "  allocated per CTA: %d registers, %lld B shared memory\n", o.registers_per_cta,
      static_cast<long long>(o.smem_per_cta));
  out(s, "  CTAs/SM allowed by   registers: %d   shared memory: %d   threads: %d   blocks: %d\n",
      o.limits.registers, o.limits.shared_memory, o.limits.threads, o.limits.blocks);
  out(s, "  => %d CTA(s)/SM, %d warps/SM (%.0f%% occupancy); binding: %s%s\n", o.ctas_per_sm,
      o.active_warps_per_sm, 100.0 * o.occupancy, binding_list(o).c_str(), o.closed ? " (closed)" : "");
  for (const std::string& n : o.notes) out(s, "  - %s\n", n.c_str());
  return s;
}

std::string explain_text(const ShapeReport& r) {
  std::string s;
  const GemmDesc& g = r.desc;
  out(s, "GEMM %lld x %lld x %lld   A=%s:%s  B=%s:%s  D=%s:%s   on %s (%d SMs)\n",
      static_cast<long long>(g.m), static_cast<long long>(g.n), static_cast<long long>(g.k),
      std::string(to_string(g.a.dtype)).c_str(), std::string(to_string(g.a.layout)).c_str(),
      std::string(to_string(g.b.dtype)).c_str(), std::string(to_string(g.b.layout)).c_str(),
      std::string(to_string(g.d.dtype)).c_str(), std::string(to_string(g.d.layout)).c_str(),
      r.device.description.c_str(), r.device.sm_count);

  const Roofline& f = r.roofline;
  out(s, "\nRoofline\n");
  out(s, "  FLOPs %s, minimal bytes %s, intensity %.1f FLOP/B (ridge %.1f)\n", si(f.flops, "FLOP").c_str(),
      si(f.min_bytes, "B").c_str(), f.arithmetic_intensity, f.ridge_intensity);
  out(s, "  compute floor %.2f us at %.0f TFLOP/s, memory floor %.2f us at %.0f GB/s => %s-bound, floor %.2f us\n",
      f.compute_us, f.peak_tflops, f.memory_us, r.device.mem_bandwidth_gbs, f.compute_bound ? "compute" : "memory",
      f.floor_us);
  if (f.stream_us > 0)
    out(s, "  a plain stream of these bytes: ~%.2f us on this device (measured: %.1f us + bytes / %.2f TB/s, `tcgemm bandwidth`)\n",
        f.stream_us, r.device.stream_fixed_us, r.device.stream_tbps);

  const AlignmentRecord& a = r.alignment;
  out(s, "\nTensor Core eligibility: %s\n", a.tensor_core_eligible ? "YES" : "NO");
  out(s, "  gets %s\n", a.reason.c_str());
  for (const FamilyCheck& fc : a.families)
    out(s, "  %-9s %-13s %s\n", std::string(to_string(fc.family)).c_str(),
        !fc.available ? "unavailable" : fc.eligible ? "eligible" : "not eligible", fc.reason.c_str());
  const FamilyCheck& ch = family_check(a, a.chosen);
  out(s, "  alignment (for %s):\n    %s\n    %s\n    %s\n", std::string(to_string(a.chosen)).c_str(),
      ch.a.reason.c_str(), ch.b.reason.c_str(), ch.c.reason.c_str());

  const TileConfig& t = r.tile;
  const WaveModel& w = r.waves;
  out(s, "\nTile grid (%s, tile %dx%dx%d, %d stages, %d threads%s)\n", std::string(to_string(t.family)).c_str(),
      t.tile_m, t.tile_n, t.tile_k, t.stages, t.threads,
      t.cluster_m > 1 ? (", " + std::to_string(t.cluster_m) + "-CTA clusters along M").c_str() : "");
  const long long rows = static_cast<long long>((g.m + t.tile_m - 1) / t.tile_m);
  if (w.tiles_m != rows)  // the cluster's ghost rows: CTAs whose tile row lies past M
    out(s, "  G = ceil(%lld/%d) x ceil(%lld/%d) = %lld (%lld rows run as %lld in clusters of %d) x %lld = %lld CTAs\n",
        static_cast<long long>(g.m), t.tile_m, static_cast<long long>(g.n), t.tile_n, rows, rows,
        static_cast<long long>(w.tiles_m), t.cluster_m, static_cast<long long>(w.tiles_n),
        static_cast<long long>(w.grid_ctas));
  else
    out(s, "  G = ceil(%lld/%d) x ceil(%lld/%d) = %lld x %lld = %lld CTAs\n", static_cast<long long>(g.m), t.tile_m,
        static_cast<long long>(g.n), t.tile_n, static_cast<long long>(w.tiles_m), static_cast<long long>(w.tiles_n),
        static_cast<long long>(w.grid_ctas));
  out(s, "  resident: %d SMs x %d CTA/SM = %lld; waves = %.2f (%lld launched)\n", r.device.sm_count,
      w.ctas_per_sm, static_cast<long long>(w.resident_ctas), w.waves, static_cast<long long>(w.wave_count));
  out(s, "  eta_wave = %.3f   eta_pad = %.3f (padded to %lld x %lld x %lld)\n", w.wave_efficiency,
      w.padding_efficiency, static_cast<long long>(w.m_padded), static_cast<long long>(w.n_padded),
      static_cast<long long>(w.k_padded));

  out(s, "\n");
  const KernelResources k{t.threads, t.regs_per_thread, 0, estimated_smem_bytes(t, g.a.dtype)};
  s += occupancy_text(r.occupancy, r.device, k);

  out(s, "\nPredicted: %.2f us (compute %.2f, memory %.2f; then launch %.2f, exposed epilogues %.2f, split-K combine %.2f, repack %.2f) = %.0f TFLOP/s, %.0f%% of floor\n",
      r.predicted.total_us, r.predicted.compute_us, r.predicted.memory_us, r.predicted.launch_us,
      r.predicted.epilogue_us, r.predicted.combine_us, r.predicted.copy_us,
      f.flops / (r.predicted.total_us * 1e-6) / 1e12, 100.0 * f.floor_us / r.predicted.total_us);
  out(s, "\nAdvice%s\n", r.advice.empty() ? ": none of split-K, stream-K, persistent, another tile or swap A/B beats the current plan" : " (best first; gain = predicted time now / with it)");
  for (const Advice& ad : r.advice)
    out(s, "  %-40s x%.2f  %s\n", ad.action.c_str(), ad.predicted_gain, ad.reason.c_str());
  return s;
}

}  // namespace tcgemm::cli
