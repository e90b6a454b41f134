#include <algorithm>

#include "tcgemm/analysis.hpp"

namespace tcgemm {

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

double wave_efficiency(int64_t grid_ctas, int sm_count, int ctas_per_sm) {
  if (grid_ctas <= 0 || sm_count <= 0 || ctas_per_sm <= 0) return 0.0;
  const int64_t resident = int64_t{sm_count} * ctas_per_sm;
  return static_cast<double>(grid_ctas) / static_cast<double>(ceil_div(grid_ctas, resident) * resident);
}

double padding_efficiency(int64_t m, int64_t n, int64_t k, int tm, int tn, int tk) {
  const auto pad = [](int64_t x, int t) { return static_cast<double>(ceil_div(x, t) * t); };
  return (static_cast<double>(m) / pad(m, tm)) * (static_cast<double>(n) / pad(n, tn)) *
         (static_cast<double>(k) / pad(k, tk));
}

int cluster_ctas_m(int64_t m, const TileConfig& t) { return m <= t.tile_m ? 1 : std::max(t.cluster_m, 1); }

int64_t cluster_tile_rows(int64_t m, const TileConfig& t) {
  const int64_t c = cluster_ctas_m(m, t);
  return ceil_div(ceil_div(m, t.tile_m), c) * c;
}

WaveModel wave_model(const GemmDesc& g, const DeviceProfile& d, const TileConfig& t, int ctas_per_sm) {
  WaveModel w;
  w.tiles_m = cluster_tile_rows(g.m, t);
  w.tiles_n = ceil_div(g.n, t.tile_n);
  w.grid_ctas = w.tiles_m * w.tiles_n;
  w.ctas_per_sm = ctas_per_sm;
  w.resident_ctas = int64_t{d.sm_count} * ctas_per_sm;
  if (w.resident_ctas > 0) {
    w.waves = static_cast<double>(w.grid_ctas) / static_cast<double>(w.resident_ctas);
    w.wave_count = ceil_div(w.grid_ctas, w.resident_ctas);
  }
  w.wave_efficiency = wave_efficiency(w.grid_ctas, d.sm_count, ctas_per_sm);
  w.m_padded = w.tiles_m * t.tile_m;
  w.n_padded = w.tiles_n * t.tile_n;
  w.k_padded = ceil_div(g.k, t.tile_k) * t.tile_k;
  w.padding_efficiency = static_cast<double>(g.m) / static_cast<double>(w.m_padded) *
                         padding_efficiency(1, g.n, g.k, 1, t.tile_n, t.tile_k);
  return w;
}

}  // namespace tcgemm
