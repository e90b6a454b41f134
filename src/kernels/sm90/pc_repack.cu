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

// D's aligned temporary: row-major, ld = N rounded up to 8 elements.
int64_t d_temp_ld(const GemmDesc& g) { return (g.n + 7) / 8 * 8; }
std::size_t d_temp_bytes(const GemmDesc& g) {
  return round_up(static_cast<std::size_t>(g.m) * static_cast<std::size_t>(d_temp_ld(g)) * 2, 256);
}

// The problem the kernel sees: copies for A/B (repacked_desc) and the temporary for D.
GemmDesc aligned_desc(const GemmDesc& g) {
  GemmDesc r = repacked_desc(g, plan_tma_repack(g));
  if (breaks_tma_rule(g.d, extent_c(g))) {
    r.d.ld = d_temp_ld(g);
    r.d.pointer_alignment = 256;
  }
  return r;
}

}  // namespace

Status sm90_pc_repack_supports(const GemmDesc& g, DType input) {
  const TmaRepackPlan plan = plan_tma_repack(g);
  if (plan.workspace_bytes == 0 && !breaks_tma_rule(g.d, extent_c(g)))
    return Status::unsupported("A, B and D already meet TMA's 16-byte rule; the kernel runs this problem without copies");
  return sm90_wgmma_ws_pc_supports(aligned_desc(g), input);
}

std::size_t sm90_pc_repack_workspace(const GemmDesc& g) {
  const std::size_t copies = round_up(plan_tma_repack(g).workspace_bytes, 256);
  return copies + (breaks_tma_rule(g.d, extent_c(g)) ? d_temp_bytes(g) : 0);
}

std::size_t sm90_pc_repack_streamk_workspace(const GemmDesc& g) {
  return sm90_pc_repack_workspace(g) + sm90_wgmma_ws_pc_streamk_workspace(aligned_desc(g));
}

std::size_t sm90_pc_repack_copy_bytes(const GemmDesc& g) {
  const std::size_t d = breaks_tma_rule(g.d, extent_c(g)) ? 2 * static_cast<std::size_t>(g.m) * static_cast<std::size_t>(g.n) * 2 : 0;
  return 2 * plan_tma_repack(g).workspace_bytes + d;
}

namespace {

Status repack_launch(const GemmArgs& args, DType input, bool stream_k) {
  std::size_t used = 0;
  Result<GemmArgs> copied = apply_tma_repack(args, &used);
  if (!copied.ok()) return copied.status();
  GemmArgs run = copied.value();
  GemmDesc seen = args.desc;
  seen.d.pointer_alignment = std::min(seen.d.pointer_alignment, address_alignment(args.d));
  const bool d_temp = breaks_tma_rule(seen.d, extent_c(seen));
  if (d_temp) {
    const std::size_t offset = round_up(used, 256);
    if (args.workspace == nullptr || args.workspace_bytes < offset + d_temp_bytes(seen))
      return Status(StatusCode::workspace_too_small,
                    "the aligned copy of D needs " + std::to_string(offset + d_temp_bytes(seen)) +
                        " bytes of workspace (the A/B copies first); got " + std::to_string(args.workspace_bytes));
    if (reinterpret_cast<std::uintptr_t>(args.workspace) % 256 != 0)
      return Status(StatusCode::misaligned, "the repack workspace must be 256-byte aligned");
    run.d = static_cast<char*>(args.workspace) + offset;
    run.desc.d.ld = d_temp_ld(seen);
    run.desc.d.pointer_alignment = 256;
    used = offset + d_temp_bytes(seen);
  }
  if (stream_k) {
    const std::size_t offset = round_up(used, 256);
    run.workspace = args.workspace == nullptr ? nullptr : static_cast<char*>(args.workspace) + offset;
    run.workspace_bytes = args.workspace_bytes > offset ? args.workspace_bytes - offset : 0;
  }
  const Status s = stream_k ? sm90_wgmma_ws_pc_streamk_launch(run, input) : sm90_wgmma_ws_pc_launch(run, input, kStages);
  if (!s.ok()) return s;
  if (!d_temp) return Status::success();
  return unpack_16bit(run.d, d_temp_ld(seen), seen.m, seen.n, args.d, effective_ld(seen.d, extent_c(seen)),
                      args.stream);
}

}  // namespace

Status sm90_pc_repack_launch(const GemmArgs& args, DType input) { return repack_launch(args, input, false); }

Status sm90_pc_repack_streamk_launch(const GemmArgs& args, DType input) { return repack_launch(args, input, true); }

}  // namespace tcgemm
