// The skinny kernel's registry entries (skinny_gemm.hpp): by name for any problem it can run, and
// gated where gemm() takes it over every tensor-core path (skinny_kernel_gate, path_rules.hpp).
#include <string>

#include "analysis/path_rules.hpp"
#include "core/diag_flag.hpp"
#include "kernels/common/repack.hpp"
#include "kernels/sm90/skinny_gemm.hpp"
#include "kernels/sm90/split_k.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {
namespace {

template <DType In>
KernelEntry skinny_entry(std::string_view name) {
  // sm_90: clusters; compiled for sm_90a only.
  KernelEntry e = shaped_entry(
      name, 90, {MmaFamily::mma_sync, In, static_cast<int>(kSkinnyMaxRows), static_cast<int>(kSkinnyTileCols), 32, 1, 128});
  e.preference = 0;
  e.supports = [](const GemmDesc& g) { return sm90_skinny_supports(g, In); };
  e.launch = [](const GemmArgs& a) { return sm90_skinny_launch(a, In); };
  e.split_k = [](const GemmDesc& g) { return plan_skinny(g).splits; };
  e.function = [] { return sm90_skinny_function(In); };
  e.describe = [](const GemmDesc& g) {
    const SkinnyPlan t = plan_skinny(g);
    return std::string("mma.sync, 16-byte loads along K, one launch") + (t.swapped ? ", A/B swapped" : "") + ", " +
           (t.rows16 ? "16" : "8") + "x64 tiles x " + std::to_string(t.tiles) + ", K over clusters of " +
           std::to_string(t.splits) + (t.realign_b || t.realign_a ? ", realigned from shared memory" : "");
  };
  return e;
}

template <DType In>
KernelEntry gated_skinny_entry(std::string_view name) {
  KernelEntry e = skinny_entry<In>(name);
  e.preference = 1;
  e.outranks_families = true;
  e.supports = [](const GemmDesc& g) -> Status {
    // Diagnosis only: TCGEMM_DIAG_NO_SKINNY_GATE=1 leaves these problems to the other paths.
    static const bool off = diag_flag("TCGEMM_DIAG_NO_SKINNY_GATE");
    if (off) return Status::unsupported("TCGEMM_DIAG_NO_SKINNY_GATE=1");
    if (Status s = sm90_skinny_supports(g, In); !s.ok()) return s;
    const bool misaligned = breaks_tma_rule(g.a, extent_a(g)) || breaks_tma_rule(g.b, extent_b(g));
    if (const char* why = skinny_gate_reason(g.m, g.n, g.k, misaligned, current_sm_count()))
      return Status::unsupported(std::string("outside the skinny gate (") + why + "): another path is faster");
    // The row-class TMA kernel streams faster where it applies (run 186: 16x8191x8191 1.70x cuBLAS
    // against 1.22x, 16x4097x4097 1.64x against 1.35x).
    static const KernelEntry* const row_classes =
        find_kernel(In == DType::bf16 ? "sm90_wgmma_bf16_128xN_ws_rowclass" : "sm90_wgmma_f16_128xN_ws_rowclass");
    if (row_classes != nullptr && row_classes->supports(g).ok())
      return Status::unsupported("the row-class TMA kernel takes it: it streams these operands faster");
    return Status::success();
  };
  return e;
}

}  // namespace

void add_sm90_skinny_kernels(std::vector<KernelEntry>& table) {
  table.push_back(skinny_entry<DType::bf16>("sm90_mma_bf16_16x64_skinny"));
  table.push_back(skinny_entry<DType::f16>("sm90_mma_f16_16x64_skinny"));
  table.push_back(gated_skinny_entry<DType::bf16>("sm90_mma_bf16_16x64_skinny_stream"));
  table.push_back(gated_skinny_entry<DType::f16>("sm90_mma_f16_16x64_skinny_stream"));
}

}  // namespace tcgemm
