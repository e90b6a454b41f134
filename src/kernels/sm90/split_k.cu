#include "kernels/sm90/split_k.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <string>

#include "kernels/common/splitk_reduce.hpp"
#include "kernels/sm90/wgmma_tma_ws.hpp"

namespace tcgemm {
namespace {

std::atomic<int> g_forced_splits{0};

int64_t k_blocks_of(const GemmDesc& g) {
  const int64_t tk = sm90_wgmma_ws_shape().tile_k;
  return (g.k + tk - 1) / tk;
}

}  // namespace

void set_forced_split_k(int splits) { g_forced_splits.store(std::max(splits, 0)); }
int forced_split_k() { return g_forced_splits.load(); }

int current_sm_count() {
  int device = 0, sms = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess || sms <= 0) {
    (void)cudaGetLastError();
    return 132;
  }
  return sms;
}

int choose_splits(const GemmDesc& g, int sm_count) {
  const Sm90WsShape s = sm90_wgmma_ws_shape();
  const int64_t k_blocks = k_blocks_of(g);
  if (k_blocks <= 1 || g.m < 1 || g.n < 1) return 1;
  int64_t splits = forced_split_k();
  if (splits <= 0) {
    const int64_t tiles = ((g.m + s.tile_m - 1) / s.tile_m) * ((g.n + s.tile_n - 1) / s.tile_n);
    // NOTES: floor, not round: one CTA fits per SM, so tiles*splits past the SM count starts a
    // second, mostly empty wave (48 tiles: 3 splits = 144 CTAs = 2 waves of K/3, slower than 2
    // splits = 1 wave of K/2).
    const int64_t want = std::max(sm_count, 1) / tiles;
    const int64_t cap = std::max<int64_t>(1, std::min<int64_t>(64, k_blocks / 2));
    splits = std::clamp<int64_t>(want, 1, cap);
  }
  splits = std::min<int64_t>({splits, k_blocks, 65535});
  // Equal whole-block splits; with ceil(k_blocks / splits) blocks each, fewer splits may suffice.
  const int64_t per_split = (k_blocks + splits - 1) / splits;
  return static_cast<int>((k_blocks + per_split - 1) / per_split);
}

int split_k_blocks_per_split(const GemmDesc& g, int splits) {
  const int64_t k_blocks = k_blocks_of(g);
  return static_cast<int>((k_blocks + splits - 1) / std::max(splits, 1));
}

Status sm90_wgmma_ws_splitk_supports(const GemmDesc& g, DType input) { return sm90_wgmma_ws_supports(g, input); }

std::size_t sm90_wgmma_ws_splitk_workspace(const GemmDesc& g) {
  const int splits = choose_splits(g, current_sm_count());
  if (splits <= 1) return 0;
  return static_cast<std::size_t>(splits) * static_cast<std::size_t>(g.m) * static_cast<std::size_t>(g.n) *
         sizeof(float);
}

Status sm90_wgmma_ws_splitk_launch(const GemmArgs& args, DType input) {
  const int splits = choose_splits(args.desc, current_sm_count());
  if (splits <= 1) return sm90_wgmma_ws_launch(args, input);
  return sm90_wgmma_ws_run_split_k(args, input, Sm90WsVariant{}, splits, split_k_blocks_per_split(args.desc, splits));
}

Status sm90_wgmma_ws_run_split_k(const GemmArgs& args, DType input, Sm90WsVariant v, int splits,
                                 int k_blocks_per_split) {
  const GemmDesc& g = args.desc;
  const std::size_t need = static_cast<std::size_t>(splits) * static_cast<std::size_t>(g.m) *
                           static_cast<std::size_t>(g.n) * sizeof(float);
  if (args.workspace == nullptr || args.workspace_bytes < need)
    return Status(StatusCode::workspace_too_small,
                  "split-K with " + std::to_string(splits) + " splits needs " + std::to_string(need) +
                      " bytes of workspace (splits*M*N*4); got " + std::to_string(args.workspace_bytes));
  if (reinterpret_cast<uintptr_t>(args.workspace) % 16 != 0)
    return Status(StatusCode::misaligned, "split-K: the workspace must be 16-byte aligned (f32 slabs, float4 reads)");
  if (args.d == nullptr || (g.beta != 0.0f && args.c == nullptr))
    return Status::invalid("D (and C when beta != 0) must be non-null");
  float* partials = static_cast<float*>(args.workspace);
  if (Status st = sm90_wgmma_ws_launch_partials(args, input, k_blocks_per_split, splits, partials, v); !st.ok())
    return st;

  const int64_t ldc = effective_ld(g.c, extent_c(g));
  const int64_t ldd = effective_ld(g.d, extent_c(g));
  SplitKReduceArgs r;
  r.partials = partials;
  r.splits = splits;
  r.m = g.m;
  r.n = g.n;
  r.row_major = g.d.layout == Layout::row;
  r.alpha = g.alpha;
  r.beta = g.beta;
  r.c = args.c;
  r.c_dtype = g.c.dtype;
  r.c_row_stride = g.c.layout == Layout::row ? ldc : 1;
  r.c_col_stride = g.c.layout == Layout::row ? 1 : ldc;
  r.d = args.d;
  r.d_dtype = g.d.dtype;
  r.d_row_stride = g.d.layout == Layout::row ? ldd : 1;
  r.d_col_stride = g.d.layout == Layout::row ? 1 : ldd;
  return splitk_reduce(r, args.stream);
}

}  // namespace tcgemm
