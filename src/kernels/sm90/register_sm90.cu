#include "kernels/common/repack.hpp"
#include "kernels/sm90/peel.hpp"
#include "kernels/sm90/split_k.hpp"
#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "kernels/sm90/wgmma_tma_ws_cluster.hpp"
#include "kernels/sm90/wgmma_tma_ws_persistent.hpp"
#include "kernels/sm90/wgmma_ws_streamk.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {

namespace {
// kPersistent picks wgmma_tma_ws_persistent.cu (grid = SM count, CTAs loop over tiles) over
// wgmma_tma_ws.cu (one CTA per tile); both have the same tile, constraints and epilogue.
// kDirectStore: the `_ds` instances, which store full tiles of a row-major
// 16-bit D (beta == 0) straight from registers; every other problem takes the staged epilogue.
template <DType In, bool kPersistent = false, bool kDirectStore = false>
KernelEntry ws_entry(std::string_view name) {
  const Sm90WsShape s = kPersistent ? sm90_wgmma_ws_persistent_shape() : sm90_wgmma_ws_shape(In);
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
    e.preference = 0;  // measured slower than the plain grid at 8192^3 (bench/NOTES.md)
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

// Bytes the copies move, read plus written (the workspace holds what is written).
std::size_t repack_copy_bytes(const GemmDesc& g) { return 2 * plan_tma_repack(g).workspace_bytes; }

// The repack composite: exactly the problems the plain kernel refuses for TMA's 16-byte rule. The
// copies run inside launch(), so every timing of this entry includes them.
template <DType In>
Status repack_supports(const GemmDesc& g) {
  const Status plain = sm90_wgmma_ws_supports(g, In);
  if (plain.ok())
    return Status::unsupported("A and B already meet TMA's 16-byte rule; the plain kernel runs this problem "
                               "without a copy");
  if (plain.code() != StatusCode::misaligned) return plain;
  return sm90_wgmma_ws_supports(repacked_desc(g, plan_tma_repack(g)), In);
}

template <DType In>
Status repack_launch(const GemmArgs& args) {
  Result<GemmArgs> copied = apply_tma_repack(args);
  if (!copied.ok()) return copied.status();
  return sm90_wgmma_ws_launch(copied.value(), In);
}

template <DType In>
KernelEntry repack_entry(std::string_view name) {
  KernelEntry e = ws_entry<In>(name);
  e.supports = &repack_supports<In>;
  e.workspace_bytes = [](const GemmDesc& g) { return plan_tma_repack(g).workspace_bytes; };
  e.copy_bytes = &repack_copy_bytes;
  e.launch = &repack_launch<In>;
  return e;
}

// Repack then split-K (unaligned and small M*N with long K, e.g. 256x256x65537): the slabs follow
// the copies in the workspace.
template <DType In>
std::size_t repack_splitk_workspace(const GemmDesc& g) {
  const std::size_t copies = (plan_tma_repack(g).workspace_bytes + 255) / 256 * 256;
  return copies + sm90_wgmma_ws_splitk_workspace(repacked_desc(g, plan_tma_repack(g)));
}

template <DType In>
Status repack_splitk_launch(const GemmArgs& args) {
  std::size_t used = 0;
  Result<GemmArgs> copied = apply_tma_repack(args, &used);
  if (!copied.ok()) return copied.status();
  GemmArgs next = copied.value();
  const std::size_t offset = (used + 255) / 256 * 256;
  next.workspace = args.workspace == nullptr ? nullptr : static_cast<char*>(args.workspace) + offset;
  next.workspace_bytes = args.workspace_bytes > offset ? args.workspace_bytes - offset : 0;
  return sm90_wgmma_ws_splitk_launch(next, In);
}

template <DType In>
Status repack_splitk_supports(const GemmDesc& g) {
  if (Status s = repack_supports<In>(g); !s.ok()) return s;
  if (forced_split_k() == 0 && choose_splits(repacked_desc(g, plan_tma_repack(g)), current_sm_count()) <= 1)
    return Status::unsupported("split-K would not split: the tiles already fill the SMs (the repack path serves it)");
  return Status::success();
}

template <DType In>
KernelEntry repack_splitk_entry(std::string_view name) {
  KernelEntry e = ws_entry<In>(name);
  e.preference = 3;
  e.supports = &repack_splitk_supports<In>;
  e.copy_bytes = &repack_copy_bytes;
  e.split_k = [](const GemmDesc& g) { return choose_splits(repacked_desc(g, plan_tma_repack(g)), current_sm_count()); };
  e.workspace_bytes = &repack_splitk_workspace<In>;
  e.launch = &repack_splitk_launch<In>;
  return e;
}

template <DType In>
KernelEntry splitk_entry(std::string_view name) {
  KernelEntry e = ws_entry<In>(name);
  e.preference = 3;
  e.supports = [](const GemmDesc& g) -> Status {
    if (Status s = sm90_wgmma_ws_splitk_supports(g, In); !s.ok()) return s;
    if (forced_split_k() == 0 && choose_splits(g, current_sm_count()) <= 1)
      return Status::unsupported("split-K would not split: the tiles already fill the SMs (the plain kernel serves it)");
    return Status::success();
  };
  e.workspace_bytes = [](const GemmDesc& g) { return sm90_wgmma_ws_splitk_workspace(g); };
  e.split_k = [](const GemmDesc& g) { return choose_splits(g, current_sm_count()); };
  e.launch = [](const GemmArgs& a) { return sm90_wgmma_ws_splitk_launch(a, In); };
  return e;
}

// Wave peeling (peel.hpp): the full-tile core, then the partial strips through split-K; the
// repack copies first where A/B break TMA's rule. Only shapes where peeling saves a wave.
template <DType In>
KernelEntry peel_entry(std::string_view name) {
  KernelEntry e = ws_entry<In>(name);
  e.preference = 0;  // its cost model is not yet checked against the device
  e.supports = [](const GemmDesc& g) { return sm90_wgmma_ws_peel_supports(g, In); };
  e.workspace_bytes = [](const GemmDesc& g) { return sm90_wgmma_ws_peel_workspace(g); };
  e.launch = [](const GemmArgs& a) { return sm90_wgmma_ws_peel_launch(a, In); };
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
  e.preference = 0;  // measured slower than the unclustered kernel (bench/NOTES.md); by name only
  return e;
}
// wgmma_ws_streamk.cu: the persistent kernel with units that end mid-tile and an in-kernel,
// fixed-order fix-up. Stream-K only where the tiles leave a partial last wave; serial split-K
// where split-K would split (or a count is forced). K-major A and B only. By name only until
// measured (the lead decides dispatch).
template <DType In>
KernelEntry streamk_entry(std::string_view name) {
  KernelEntry e = ws_entry<In, true>(name);
  const Sm90WsShape s = sm90_wgmma_ws_streamk_shape();
  e.stages = s.stages;
  e.threads = s.threads;
  e.preference = 0;
  e.supports = [](const GemmDesc& g) { return sm90_wgmma_ws_streamk_supports(g, In); };
  e.workspace_bytes = [](const GemmDesc& g) { return sm90_wgmma_ws_streamk_workspace(g); };
  e.launch = [](const GemmArgs& a) { return sm90_wgmma_ws_streamk_launch(a, In); };
  e.function = [] { return sm90_wgmma_ws_streamk_function(In); };
  return e;
}

template <DType In>
KernelEntry serial_splitk_entry(std::string_view name) {
  KernelEntry e = streamk_entry<In>(name);
  e.supports = [](const GemmDesc& g) { return sm90_wgmma_ws_serial_splitk_supports(g, In); };
  e.workspace_bytes = [](const GemmDesc& g) { return sm90_wgmma_ws_serial_splitk_workspace(g); };
  e.split_k = [](const GemmDesc& g) { return choose_splits(g, current_sm_count()); };
  e.launch = [](const GemmArgs& a) { return sm90_wgmma_ws_serial_splitk_launch(a, In); };
  return e;
}
}  // namespace

void register_sm90_kernels(std::vector<KernelEntry>& table) {
  table.push_back(ws_entry<DType::bf16>("sm90_wgmma_bf16_128x256x64_s4_ws"));
  table.push_back(ws_entry<DType::f16>("sm90_wgmma_f16_128x256x64_s4_ws"));
  table.push_back(ws_entry<DType::bf16, true>("sm90_wgmma_bf16_128x256x64_s4_ws_persistent"));
  table.push_back(ws_entry<DType::f16, true>("sm90_wgmma_f16_128x256x64_s4_ws_persistent"));
  table.push_back(repack_entry<DType::bf16>("sm90_wgmma_bf16_128x256x64_s4_ws_repack"));
  table.push_back(repack_entry<DType::f16>("sm90_wgmma_f16_128x256x64_s4_ws_repack"));
  table.push_back(splitk_entry<DType::bf16>("sm90_wgmma_bf16_128x256x64_s4_ws_splitk"));
  table.push_back(splitk_entry<DType::f16>("sm90_wgmma_f16_128x256x64_s4_ws_splitk"));
  table.push_back(peel_entry<DType::bf16>("sm90_wgmma_bf16_128x256x64_s4_ws_peel"));
  table.push_back(peel_entry<DType::f16>("sm90_wgmma_f16_128x256x64_s4_ws_peel"));
  table.push_back(repack_splitk_entry<DType::bf16>("sm90_wgmma_bf16_128x256x64_s4_ws_repack_splitk"));
  table.push_back(repack_splitk_entry<DType::f16>("sm90_wgmma_f16_128x256x64_s4_ws_repack_splitk"));
  table.push_back(ws_entry<DType::bf16, false, true>("sm90_wgmma_bf16_128x256x64_s4_ws_ds"));
  table.push_back(ws_entry<DType::f16, false, true>("sm90_wgmma_f16_128x256x64_s4_ws_ds"));
  table.push_back(ws_entry<DType::bf16, true, true>("sm90_wgmma_bf16_128x256x64_s4_ws_persistent_ds"));
  table.push_back(ws_entry<DType::f16, true, true>("sm90_wgmma_f16_128x256x64_s4_ws_persistent_ds"));
  table.push_back(cluster_entry<DType::bf16>("sm90_wgmma_bf16_128x256x64_s4_ws_ds_c2x1"));
  table.push_back(cluster_entry<DType::f16>("sm90_wgmma_f16_128x256x64_s4_ws_ds_c2x1"));
  table.push_back(streamk_entry<DType::bf16>("sm90_wgmma_bf16_128x256x64_s4_ws_streamk"));
  table.push_back(streamk_entry<DType::f16>("sm90_wgmma_f16_128x256x64_s4_ws_streamk"));
  table.push_back(serial_splitk_entry<DType::bf16>("sm90_wgmma_bf16_128x256x64_s4_ws_serial_splitk"));
  table.push_back(serial_splitk_entry<DType::f16>("sm90_wgmma_f16_128x256x64_s4_ws_serial_splitk"));
  // TF32 (f32 storage) on m64n256k8: K-major A and B only, BK = 32 (the same 128-byte rows); the
  // plain kernel's preference, so gemm() takes it over sm80_mma_sync_tf32 where it applies.
  table.push_back(ws_entry<DType::tf32>("sm90_wgmma_tf32_128x256x32_s4_ws"));
}

}  // namespace tcgemm
