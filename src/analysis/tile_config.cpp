#include <algorithm>

#include "tcgemm/analysis.hpp"

namespace tcgemm {

TileConfig default_tile_config(MmaFamily family, DType input) {
  const int bytes = static_cast<int>(dtype_bytes(input));
  switch (family) {
    case MmaFamily::wgmma: {
      // Warp-specialized: one producer warpgroup + two consumer warpgroups, 128-byte K slices, in
      // 2-CTA clusters along M (the persistent cluster kernel gemm() runs).
      TileConfig t{MmaFamily::wgmma, 128, 256, 128 / bytes, 4, 384, 168, 0, 2};
      return t;
    }
    case MmaFamily::mma_sync:
      return TileConfig{MmaFamily::mma_sync, 128, 128, 32, 4, 256, 128, 0};
    case MmaFamily::wmma:
      return TileConfig{MmaFamily::wmma, 128, 128, 32, 2, 256, 96, 0};
    case MmaFamily::simt:
      return TileConfig{MmaFamily::simt, 128, 128, 8, 2, 256, 128, 0};
  }
  return {};
}

int64_t estimated_smem_bytes(const TileConfig& t, DType input) {
  if (t.smem_per_cta > 0) return t.smem_per_cta;
  const int64_t operand = int64_t{t.stages} * (t.tile_m + t.tile_n) * t.tile_k *
                          static_cast<int64_t>(dtype_bytes(input));
  // Two mbarriers per stage plus alignment slack for the 1024-byte swizzle atoms.
  const int64_t bookkeeping = t.family == MmaFamily::wgmma ? 1024 : 0;
  return operand + bookkeeping;
}

}  // namespace tcgemm
