// The tiny kernel's registry entries (tiny_gemm.hpp): by name for any problem it can run, and gated
// where gemm() takes it over every tensor-core path.
#include <string>

#include "analysis/path_rules.hpp"
#include "core/diag_flag.hpp"
#include "kernels/common/repack.hpp"
#include "kernels/sm90/split_k.hpp"
#include "kernels/sm90/tiny_gemm.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {
namespace {

template <DType In>
KernelEntry tiny_entry(std::string_view name) {
  // sm_90: clusters; compiled for sm_90a only.
  KernelEntry e = shaped_entry(name, 90, {MmaFamily::simt, In, static_cast<int>(kTinyMaxSmallSide), 32, 1, 1, 256});
  e.preference = 0;
  e.supports = [](const GemmDesc& g) { return sm90_tiny_supports(g, In); };
  e.launch = [](const GemmArgs& a) { return sm90_tiny_launch(a, In); };
  e.split_k = [](const GemmDesc& g) { return plan_tiny(g).splits; };
  e.function = [] { return sm90_tiny_function(In); };
  e.describe = [](const GemmDesc& g) {
    const TinyPlan t = plan_tiny(g);
    return std::string("CUDA cores, one launch") + (t.swapped ? ", A/B swapped" : "") + ", " +
           (t.row_blocks > 1 ? std::to_string(t.row_blocks) + " row blocks of " : std::string()) +
           std::to_string(t.tile_m) + "x32 tiles, K over clusters of " + std::to_string(t.splits) +
           (t.k_major ? " (lanes along K)" : " (lanes along N)");
  };
  return e;
}

template <DType In>
KernelEntry gated_tiny_entry(std::string_view name) {
  KernelEntry e = tiny_entry<In>(name);
  e.preference = 1;
  e.outranks_families = true;
  e.supports = [](const GemmDesc& g) -> Status {
    // Diagnosis only: TCGEMM_DIAG_NO_TINY_GATE=1 leaves these problems to the tensor-core paths.
    static const bool off = diag_flag("TCGEMM_DIAG_NO_TINY_GATE");
    if (off) return Status::unsupported("TCGEMM_DIAG_NO_TINY_GATE=1");
    if (Status s = sm90_tiny_supports(g, In); !s.ok()) return s;
    const bool misaligned = breaks_tma_rule(g.a, extent_a(g)) || breaks_tma_rule(g.b, extent_b(g));
    if (!tiny_kernel_gate(g.m, g.n, g.k, misaligned, current_sm_count()))
      return Status::unsupported(std::string("outside the tiny gate (") +
                                 (misaligned ? "operands breaking TMA's rule: at most 2^23 multiply-adds; past 16 rows one "
                                               "round of CTAs of at most 2^18"
                                             : "TMA-legal operands: at most 16 rows and 2^16 multiply-adds, 2^19 up to 8 rows") +
                                 "): the tensor-core paths are faster");
    return Status::success();
  };
  return e;
}

}  // namespace

void add_sm90_tiny_kernels(std::vector<KernelEntry>& table) {
  table.push_back(tiny_entry<DType::bf16>("sm90_simt_bf16_16x32_tiny"));
  table.push_back(tiny_entry<DType::f16>("sm90_simt_f16_16x32_tiny"));
  table.push_back(gated_tiny_entry<DType::bf16>("sm90_simt_bf16_16x32_tiny_small"));
  table.push_back(gated_tiny_entry<DType::f16>("sm90_simt_f16_16x32_tiny_small"));
}

}  // namespace tcgemm
