// Stream-K and serial split-K's host side (the kernel, its schedule and fix-up:
// wgmma_ws_streamk_kernel.cuh): the compiled instances, plan_streamk (how the MAC iterations are
// cut, and why), supports() and the launch with its workspace checks.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "kernels/common/caller_epilogue.hpp"
#include "kernels/common/launch_attributes.hpp"
#include "kernels/common/tensor_map.hpp"
#include "kernels/sm90/split_k.hpp"
#include "kernels/sm90/wgmma_ws_streamk.hpp"
#include "kernels/sm90/wgmma_ws_streamk_kernel.cuh"

namespace tcgemm {
namespace {

using namespace sm90_sk;  // NOLINT(google-build-using-namespace): this file is the kernel's host half

// --- host side -------------------------------------------------------------------------------
template <WgmmaInput In, bool kDirectStore>
const void* kernel_function() {
  return reinterpret_cast<const void*>(&wgmma_ws_streamk_kernel<In, kDirectStore>);
}

const void* pick_function(DType input, bool direct_store) {
  if (input == DType::bf16)
    return direct_store ? kernel_function<WgmmaInput::bf16, true>() : kernel_function<WgmmaInput::bf16, false>();
  return direct_store ? kernel_function<WgmmaInput::f16, true>() : kernel_function<WgmmaInput::f16, false>();
}

constexpr std::size_t kSlotBytes = std::size_t{Config::kTileM} * Config::kTileN * sizeof(float);

std::size_t flag_bytes(const StreamKPlan& p) {
  return (static_cast<std::size_t>(p.slots) * Config::kConsumers * sizeof(uint32_t) + 255) / 256 * 256;
}

int64_t k_blocks_of(const GemmDesc& g) { return (g.k + Config::kTileK - 1) / Config::kTileK; }

int64_t tiles_of(const GemmDesc& g) {
  return ((g.m + Config::kTileM - 1) / Config::kTileM) * ((g.n + Config::kTileN - 1) / Config::kTileN);
}

// What both modes refuse on top of the plain kernel's rules.
Status common_supports(const GemmDesc& g, DType input) {
  if (input != DType::bf16 && input != DType::f16)
    return Status::unsupported("stream-K / serial split-K take bf16 or f16 inputs");
  if (Status s = sm90_wgmma_ws_supports(g, input); !s.ok()) return s;
  if (g.a.layout != Layout::row || g.b.layout != Layout::column)
    return Status::unsupported("stream-K / serial split-K are built for K-major A and B only (A row-major, B "
                               "column-major); the persistent kernel takes the other layouts");
  if (g.k < 1) return Status::unsupported("K = 0: no MAC iterations to share");
  // cta * iterations stays in int64 (the kernel's range arithmetic).
  if (tiles_of(g) * k_blocks_of(g) >= (int64_t{1} << 31))
    return Status::unsupported("tiles x k-blocks must be below 2^31 (the schedule's 32-bit arithmetic)");
  return Status::success();
}

Status launch_plan(const GemmArgs& args, DType input, const StreamKPlan& plan) {
  const GemmDesc& g = args.desc;
  if (args.a == nullptr || args.b == nullptr || args.d == nullptr || (g.beta != 0.0f && args.c == nullptr))
    return Status::invalid("A, B and D (and C when beta != 0) must be non-null");
  if (plan.tiles <= 0) return Status::success();
  const std::size_t need = streamk_workspace_bytes(plan);
  if (need > 0 && (args.workspace == nullptr || args.workspace_bytes < need))
    return Status(StatusCode::workspace_too_small,
                  std::string(plan.serial ? "serial split-K" : "stream-K") + " needs " + std::to_string(need) +
                      " bytes of workspace (flags + 128 KB per partial tile, " + std::to_string(plan.slots) +
                      " slots); got " + std::to_string(args.workspace_bytes));
  if (need > 0 && reinterpret_cast<uintptr_t>(args.workspace) % 16 != 0)
    return Status(StatusCode::misaligned, "stream-K: the workspace must be 16-byte aligned (float4 partials)");

  const int64_t lda = effective_ld(g.a, extent_a(g));
  const int64_t ldb = effective_ld(g.b, extent_b(g));
  const int64_t ldd = effective_ld(g.d, extent_c(g));
  Result<TensorMap2d> map_a = make_tensor_map_2d("A", g.a.dtype, args.a, g.k, g.m, lda, Config::kTileK, Config::kTileM);
  if (!map_a.ok()) return map_a.status();
  Result<TensorMap2d> map_b = make_tensor_map_2d("B", g.b.dtype, args.b, g.k, g.n, ldb, Config::kTileK, Config::kTileN);
  if (!map_b.ok()) return map_b.status();

  Params p{};
  p.m = g.m;
  p.n = g.n;
  p.k = g.k;
  if (plan.tiles * plan.k_blocks >= (int64_t{1} << 31))
    return Status::unsupported("tiles x k-blocks must be below 2^31 (the schedule's 32-bit arithmetic)");
  p.tiles_m = static_cast<int32_t>((g.m + Config::kTileM - 1) / Config::kTileM);
  p.tiles_n = static_cast<int32_t>((g.n + Config::kTileN - 1) / Config::kTileN);
  p.tiles = static_cast<int32_t>(plan.tiles);
  p.k_blocks = static_cast<int32_t>(plan.k_blocks);
  p.serial = plan.serial ? 1 : 0;
  p.sk_tiles = static_cast<int32_t>(plan.sk_tiles);
  p.sk_iters = static_cast<int32_t>(plan.sk_tiles * plan.k_blocks);
  p.sk_q = static_cast<int32_t>(p.sk_iters / plan.grid);
  p.sk_r = static_cast<int32_t>(p.sk_iters % plan.grid);
  p.splits = plan.splits;
  p.k_per_split = static_cast<int32_t>(plan.k_per_split);
  p.distributed = plan.distributed ? 1 : 0;
  if (need > 0) {
    p.flags = static_cast<uint32_t*>(args.workspace);
    p.partials = reinterpret_cast<float*>(static_cast<char*>(args.workspace) + flag_bytes(plan));
  }
  Epilogue& ep = p.epilogue;
  set_caller_epilogue(ep, args);

  if (need > 0) {
    if (cudaError_t err = cudaMemsetAsync(args.workspace, 0, flag_bytes(plan), args.stream); err != cudaSuccess)
      return Status(StatusCode::cuda_error, std::string("stream-K: zeroing the flags: ") + cudaGetErrorString(err));
  }
  const bool direct_store = g.d.layout == Layout::row && g.d.dtype == input && g.beta == 0.0f && ldd % 2 == 0 &&
                            reinterpret_cast<uintptr_t>(args.d) % 4 == 0;
  const void* fn = pick_function(input, direct_store);
  if (Status s = allow_dynamic_smem(fn, static_cast<int>(Config::kSmemBytes)); !s.ok()) return s;
  const CUtensorMap* ma = &map_a.value().map;
  const CUtensorMap* mb = &map_b.value().map;
  void* kernel_args[] = {const_cast<CUtensorMap*>(ma), const_cast<CUtensorMap*>(mb), &p};
  const cudaError_t err = cudaLaunchKernel(fn, dim3(static_cast<unsigned>(plan.grid)), dim3(Config::kThreads),
                                           kernel_args, Config::kSmemBytes, args.stream);
  if (err != cudaSuccess)
    return Status(StatusCode::cuda_error, std::string("sm90 wgmma stream-K launch failed: ") + cudaGetErrorString(err));
  return Status::success();
}

}  // namespace

StreamKPlan plan_streamk(const GemmDesc& g, int sms, bool serial) {
  StreamKPlan p;
  p.serial = serial;
  p.tiles = tiles_of(g);
  p.k_blocks = k_blocks_of(g);
  sms = std::max(sms, 1);
  if (p.tiles <= 0 || p.k_blocks <= 0) return p;
  // Serial units; distributed (reduce-scatter) fix-up when every unit has its own CTA.
  auto serial_plan = [&](int splits) {
    p.serial = true;
    p.splits = splits;
    p.k_per_split = (p.k_blocks + p.splits - 1) / p.splits;
    p.grid = std::min<int64_t>(sms, p.tiles * p.splits);
    p.distributed = p.splits > 1 && p.tiles * p.splits <= sms;
    p.slots = p.splits <= 1 ? 0 : p.distributed ? p.tiles * p.splits : p.tiles * (p.splits - 1);
  };
  if (serial) {
    serial_plan(choose_splits(g, sms));
    return p;
  }
  const int64_t full_waves = p.tiles / sms, rest = p.tiles % sms;
  // NOTES (device run 7): L2 reuse decides the split. CTAs that share an A row panel or a B
  // column panel only share it in L2 if they are at the same k at the same time. Ranges of
  // 62 iterations over 512-iteration tiles (512x1024x32768 split evenly over 132 CTAs) start at
  // 132 different k offsets: every CTA streamed its own operands from DRAM, 104 us against 71 us
  // for 8 aligned splits. "DP + 2-tile SK" at 4224^3 (165 tiles, 82.5 iterations each) put 4
  // k offsets on tiles spread over 10 tile rows and lost to the persistent kernel (284 vs 276 us).
  // So: with a full wave, only the remainder is split (33 tiles at 4224^3, 4 pieces each, all
  // pieces j of the 33 tiles at the same k: 8 x 4 tiles sharing panels), unless that cuts a tile
  // into more than kMaxPieces pieces (then CUTLASS's remainder + one wave); with no full wave,
  // every tile in floor(SMs / tiles) aligned pieces (split-K, leaving a few SMs idle), at most
  // kMaxAlignedPieces: one owner adds every other piece's 128 KB partial, and at 66 pieces
  // (256x256x65536) that fix-up took 111 us against parallel split-K's 45 us.
  constexpr int64_t kMaxPieces = 4;
  constexpr int64_t kMaxAlignedPieces = 16;
  if (rest == 0) {
    p.sk_tiles = 0;
    p.grid = sms;
  } else if (full_waves == 0) {
    // Aligned pieces are serial split-K units; equal whole-block pieces, none empty.
    const int64_t want = std::clamp<int64_t>(sms / p.tiles, 1, std::min(p.k_blocks, kMaxAlignedPieces));
    const int64_t per = (p.k_blocks + want - 1) / want;
    serial_plan(static_cast<int>((p.k_blocks + per - 1) / per));
    return p;
  } else {
    p.sk_tiles = rest;
    // Every CTA needs a non-empty split range: contributors are found by range arithmetic and an
    // empty one would never raise its flag.
    if (sms > kMaxPieces * rest || rest * p.k_blocks < sms) p.sk_tiles = rest + sms;
    p.grid = sms;
  }
  p.slots = p.sk_tiles > 0 ? p.grid : 0;
  return p;
}

std::size_t streamk_workspace_bytes(const StreamKPlan& p) {
  if (p.slots <= 0) return 0;
  return flag_bytes(p) + static_cast<std::size_t>(p.slots) * kSlotBytes;
}

Status sm90_wgmma_ws_streamk_supports(const GemmDesc& g, DType input) {
  if (Status s = common_supports(g, input); !s.ok()) return s;
  const int sms = current_sm_count();
  if (tiles_of(g) % sms == 0)
    return Status::unsupported("the tiles fill whole waves on " + std::to_string(sms) +
                               " SMs: no tail for stream-K to balance (the persistent kernel runs it)");
  return Status::success();
}

std::size_t sm90_wgmma_ws_streamk_workspace(const GemmDesc& g) {
  return streamk_workspace_bytes(plan_streamk(g, current_sm_count(), false));
}

Status sm90_wgmma_ws_streamk_launch(const GemmArgs& args, DType input) {
  return launch_plan(args, input, plan_streamk(args.desc, current_sm_count(), false));
}

Status sm90_wgmma_ws_streamk_launch_plan(const GemmArgs& args, DType input, const StreamKPlan& plan) {
  if (Status s = common_supports(args.desc, input); !s.ok()) return s;
  const StreamKPlan base = plan_streamk(args.desc, std::max<int64_t>(plan.grid, 1), plan.serial);
  if (plan.tiles != base.tiles || plan.k_blocks != base.k_blocks || plan.grid < 1)
    return Status::invalid("stream-K plan does not fit the problem (tiles, k-blocks)");
  StreamKPlan p = plan;
  if (plan.serial) {
    if (plan.splits < 1 || plan.k_per_split < 1 || plan.k_per_split * plan.splits < plan.k_blocks ||
        plan.k_per_split * (plan.splits - 1) >= plan.k_blocks ||
        (plan.distributed && plan.tiles * plan.splits > plan.grid))
      return Status::invalid("serial plan: splits do not tile the k-blocks, or a distributed fix-up with more "
                             "units than CTAs");
    p.slots = p.splits <= 1 ? 0 : p.distributed ? p.tiles * p.splits : p.tiles * (p.splits - 1);
  } else {
    if (plan.sk_tiles < 0 || plan.sk_tiles > plan.tiles || (plan.sk_tiles > 0 && plan.sk_tiles * plan.k_blocks < plan.grid))
      return Status::invalid("stream-K plan: every CTA needs a split iteration");
    p.slots = p.sk_tiles > 0 ? p.grid : 0;
  }
  return launch_plan(args, input, p);
}

Status sm90_wgmma_ws_serial_splitk_supports(const GemmDesc& g, DType input) {
  if (Status s = common_supports(g, input); !s.ok()) return s;
  if (forced_split_k() == 0 && choose_splits(g, current_sm_count()) <= 1)
    return Status::unsupported("split-K would not split: the tiles already fill the SMs (the plain kernel serves it)");
  return Status::success();
}

std::size_t sm90_wgmma_ws_serial_splitk_workspace(const GemmDesc& g) {
  return streamk_workspace_bytes(plan_streamk(g, current_sm_count(), true));
}

Status sm90_wgmma_ws_serial_splitk_launch(const GemmArgs& args, DType input) {
  return launch_plan(args, input, plan_streamk(args.desc, current_sm_count(), true));
}

const void* sm90_wgmma_ws_streamk_function(DType input, bool direct_store) {
  return pick_function(input, direct_store);
}

Sm90WsShape sm90_wgmma_ws_streamk_shape() {
  return {Config::kTileM, Config::kTileN, Config::kTileK, Config::kStages, Config::kThreads,
          static_cast<int>(Config::kSmemBytes)};
}

}  // namespace tcgemm
