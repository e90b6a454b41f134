#include "kernels/sm90/pc_repack.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "kernels/common/repack.hpp"
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

Status repack_launch(const GemmArgs& args, DType input, bool stream_k) {
  std::size_t used = 0;
  Result<GemmArgs> copied = apply_tma_repack(args, &used);
  if (!copied.ok()) return copied.status();
  GemmArgs run = copied.value();
  GemmDesc seen = args.desc;
  seen.d.pointer_alignment = std::min(seen.d.pointer_alignment, address_alignment(args.d));
  const PcDStore store = d_store(seen);
  if (!stream_k) return sm90_wgmma_ws_pc_launch(run, input, kStages, 0, store);
  const std::size_t offset = round_up(used, 256);
  run.workspace = args.workspace == nullptr ? nullptr : static_cast<char*>(args.workspace) + offset;
  run.workspace_bytes = args.workspace_bytes > offset ? args.workspace_bytes - offset : 0;
  return sm90_wgmma_ws_pc_streamk_launch(run, input, 0, store);
}

}  // namespace

Status sm90_pc_repack_launch(const GemmArgs& args, DType input) { return repack_launch(args, input, false); }

Status sm90_pc_repack_streamk_launch(const GemmArgs& args, DType input) { return repack_launch(args, input, true); }

}  // namespace tcgemm
