#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "kernels/sm90/wgmma_tma_ws_cluster.hpp"
#include "kernels/sm90/wgmma_tma_ws_persistent.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {

namespace {
// kPersistent picks wgmma_tma_ws_persistent.cu (grid = SM count, CTAs loop over tiles) over
// wgmma_tma_ws.cu (one CTA per tile); both have the same tile, constraints and epilogue.
// kDirectStore: the `_ds` instances, which store full tiles of a row-major
// 16-bit D (beta == 0) straight from registers; every other problem takes the staged epilogue.
template <DType In, bool kPersistent, bool kDirectStore = false>
KernelEntry ws_entry(std::string_view name) {
  const Sm90WsShape s = kPersistent ? sm90_wgmma_ws_persistent_shape() : sm90_wgmma_ws_shape();
  KernelEntry e;
  e.name = name;
  e.min_sm = 90;
  e.family = MmaFamily::wgmma;
  e.input = In;
  e.tile_m = s.tile_m;
  e.tile_n = s.tile_n;
  e.tile_k = s.tile_k;
  e.stages = s.stages;
  e.threads = s.threads;
  if constexpr (kPersistent) {
    e.supports = [](const GemmDesc& g) { return sm90_wgmma_ws_persistent_supports(g, In); };
    e.launch = [](const GemmArgs& a) { return sm90_wgmma_ws_persistent_launch(a, In, kDirectStore); };
    e.function = [] { return sm90_wgmma_ws_persistent_function(In, kDirectStore); };
  } else {
    e.supports = [](const GemmDesc& g) { return sm90_wgmma_ws_supports(g, In); };
    e.launch = [](const GemmArgs& a) { return sm90_wgmma_ws_launch(a, In, kDirectStore); };
    e.function = [] { return sm90_wgmma_ws_function(In, kDirectStore); };
  }
  e.workspace_bytes = nullptr;
  return e;
}

// wgmma_tma_ws_cluster.cu: the same tile in 2-CTA clusters along M, B multicast, register-store
// epilogue where D allows it.
template <DType In>
KernelEntry cluster_entry(std::string_view name) {
  const Sm90WsShape s = sm90_wgmma_ws_cluster_shape();
  KernelEntry e;
  e.name = name;
  e.min_sm = 90;
  e.family = MmaFamily::wgmma;
  e.input = In;
  e.tile_m = s.tile_m;
  e.tile_n = s.tile_n;
  e.tile_k = s.tile_k;
  e.stages = s.stages;
  e.threads = s.threads;
  e.cluster_m = 2;
  e.supports = [](const GemmDesc& g) { return sm90_wgmma_ws_cluster_supports(g, In); };
  e.launch = [](const GemmArgs& a) { return sm90_wgmma_ws_cluster_launch(a, In); };
  e.function = [] { return sm90_wgmma_ws_cluster_function(In); };
  e.workspace_bytes = nullptr;
  return e;
}
}  // namespace

void register_sm90_kernels(std::vector<KernelEntry>& table) {
  table.push_back(ws_entry<DType::bf16, false>("sm90_wgmma_bf16_128x256x64_s4_ws"));
  table.push_back(ws_entry<DType::f16, false>("sm90_wgmma_f16_128x256x64_s4_ws"));
  table.push_back(ws_entry<DType::bf16, true>("sm90_wgmma_bf16_128x256x64_s4_ws_persistent"));
  table.push_back(ws_entry<DType::f16, true>("sm90_wgmma_f16_128x256x64_s4_ws_persistent"));
  table.push_back(ws_entry<DType::bf16, false, true>("sm90_wgmma_bf16_128x256x64_s4_ws_ds"));
  table.push_back(ws_entry<DType::f16, false, true>("sm90_wgmma_f16_128x256x64_s4_ws_ds"));
  table.push_back(ws_entry<DType::bf16, true, true>("sm90_wgmma_bf16_128x256x64_s4_ws_persistent_ds"));
  table.push_back(ws_entry<DType::f16, true, true>("sm90_wgmma_f16_128x256x64_s4_ws_persistent_ds"));
  table.push_back(cluster_entry<DType::bf16>("sm90_wgmma_bf16_128x256x64_s4_ws_ds_c2x1"));
  table.push_back(cluster_entry<DType::f16>("sm90_wgmma_f16_128x256x64_s4_ws_ds_c2x1"));
}

}  // namespace tcgemm
