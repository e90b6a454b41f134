#include "kernels/sm90/pc_repack.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "kernels/common/repack.hpp"
#include "kernels/common/repack_strips.hpp"
#include "kernels/common/tensor_map.hpp"
#include "kernels/sm90/wgmma_ws_persistent_cluster.hpp"

namespace tcgemm {
namespace {

constexpr int kStages = 3;  // the variant gemm() runs on aligned problems (bench/NOTES.md)

std::size_t round_up(std::size_t x, std::size_t m) { return (x + m - 1) / m * m; }

// A D that breaks TMA's rule is written by the kernel's threads in place (PcDStore::threads).
PcDStore d_store(const GemmDesc& g) {
  return breaks_tma_rule(g.d, extent_c(g)) ? PcDStore::threads : PcDStore::tma;
}

}  // namespace

Status sm90_pc_repack_supports(const GemmDesc& g, DType input) {
  const TmaRepackPlan plan = plan_tma_repack(g);
  if (plan.workspace_bytes == 0 && d_store(g) == PcDStore::tma)
    return Status::unsupported("A, B and D already meet TMA's 16-byte rule; the kernel runs this problem without copies");
  return sm90_wgmma_ws_pc_supports(repacked_desc(g, plan), input, d_store(g));
}

std::size_t sm90_pc_repack_workspace(const GemmDesc& g) { return round_up(plan_tma_repack(g).workspace_bytes, 256); }

std::size_t sm90_pc_repack_streamk_workspace(const GemmDesc& g) {
  return sm90_pc_repack_workspace(g) + sm90_wgmma_ws_pc_streamk_workspace(repacked_desc(g, plan_tma_repack(g)));
}

std::size_t sm90_pc_repack_copy_bytes(const GemmDesc& g) { return 2 * plan_tma_repack(g).workspace_bytes; }

namespace {

// The cluster kernel on `run` (the problem after the copies, which took the workspace's first
// `used` bytes); stream-K's flags and partials follow them. D's store is judged by the caller's
// real D pointer as well as its desc.
Status launch_after_copies(const GemmArgs& args, GemmArgs run, std::size_t used, DType input, bool stream_k) {
  GemmDesc seen = args.desc;
  seen.d.pointer_alignment = std::min(seen.d.pointer_alignment, address_alignment(args.d));
  const PcDStore store = d_store(seen);
  if (!stream_k) return sm90_wgmma_ws_pc_launch(run, input, kStages, 0, store);
  const std::size_t offset = round_up(used, 256);
  run.workspace = args.workspace == nullptr ? nullptr : static_cast<char*>(args.workspace) + offset;
  run.workspace_bytes = args.workspace_bytes > offset ? args.workspace_bytes - offset : 0;
  return sm90_wgmma_ws_pc_streamk_launch(run, input, 0, store);
}

Status repack_launch(const GemmArgs& args, DType input, bool stream_k) {
  std::size_t used = 0;
  Result<GemmArgs> copied = apply_tma_repack(args, &used);
  if (!copied.ok()) return copied.status();
  return launch_after_copies(args, copied.value(), used, input, stream_k);
}

}  // namespace

Status sm90_pc_repack_launch(const GemmArgs& args, DType input) { return repack_launch(args, input, false); }

Status sm90_pc_repack_streamk_launch(const GemmArgs& args, DType input) { return repack_launch(args, input, true); }

namespace {

StripPeelPlan strips_plan(const GemmDesc& g, DType input, std::string* why = nullptr) {
  const Sm90WsShape t = sm90_wgmma_ws_pc_shape(kStages, input);
  return plan_strip_peel(g, t.tile_m, t.tile_n, why);
}

GemmDesc strips_core(const GemmDesc& g, const StripPeelPlan& peel) { return strip_core_desc(g, plan_tma_repack(g), peel); }

}  // namespace

Status sm90_pc_repack_strips_supports(const GemmDesc& g, DType input) {
  if (Status s = sm90_pc_repack_supports(g, input); !s.ok()) return s;
  std::string why;
  const StripPeelPlan peel = strips_plan(g, input, &why);
  if (!peel.any()) return Status::unsupported("no edge strips to move into the copies: " + why);
  return sm90_wgmma_ws_pc_supports(strips_core(g, peel), input, d_store(g));
}

std::size_t sm90_pc_repack_strips_workspace(const GemmDesc& g) {
  const StripPeelPlan peel = strips_plan(g, g.a.dtype);
  if (!peel.any()) return sm90_pc_repack_workspace(g);
  const std::size_t copies = round_up(strips_workspace_bytes(g, peel), 256);
  const GemmDesc core = strips_core(g, peel);
  return copies + (sm90_pc_streamk_shares_tail(core) ? sm90_wgmma_ws_pc_streamk_workspace(core) : 0);
}

Status sm90_pc_repack_strips_launch(const GemmArgs& args, DType input) {
  const StripPeelPlan peel = strips_plan(args.desc, input);
  if (!peel.any()) return Status::unsupported("no edge strips to move into the copies");
  std::size_t used = 0;
  Result<GemmArgs> core = apply_repack_with_strips(args, peel, &used);
  if (!core.ok()) return core.status();
  // Stream-K on the core where it shares a tail after a full round (the stream-K entry's rule).
  return launch_after_copies(args, core.value(), used, input, sm90_pc_streamk_shares_tail(core->desc));
}

std::string sm90_pc_repack_strips_describe(const GemmDesc& g, DType input) {
  std::string why;
  const StripPeelPlan p = strips_plan(g, input, &why);
  if (!p.any()) return "no strips: " + why;
  const GemmDesc core = strips_core(g, p);
  std::string s = "copy A/B with ";
  if (p.rows > 0) s += "D's last " + std::to_string(p.rows) + " row(s)";
  if (p.rows > 0 && p.cols > 0) s += " and ";
  if (p.cols > 0) s += "last " + std::to_string(p.cols) + " column(s)";
  s += " computed in the copy, then the " + std::to_string(core.m) + "x" + std::to_string(core.n) + " core on the " +
       (sm90_pc_streamk_shares_tail(core) ? "stream-K" : "persistent") + " cluster kernel";
  return s;
}

}  // namespace tcgemm
