// The ws kernel's TMA multicast clusters (wgmma_tma_ws.hpp, Sm90Multicast) as registry entries, by
// name until measured: split-K passes whose neighbouring tiles share an operand's L2 reads
// (256x256x65536: cuBLAS runs 128x64 tiles in 1x2 clusters), and the one-consumer tiles over all of
// K with the 64 rows of A shared along N (cuBLAS's 64x4096x4096 kernel, run 198).
#include <string>
#include <utility>

#include "kernels/common/splitk_reduce.hpp"
#include "kernels/sm90/multicast.hpp"
#include "kernels/sm90/split_k.hpp"
#include "kernels/sm90/swap_ab.hpp"
#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "runtime/registry.hpp"

namespace tcgemm {

int multicast_splits(const GemmDesc& g, DType input, Sm90WsVariant v, Sm90Multicast mc) {
  // choose_splits over the CTAs one round of clusters keeps resident (clusters of 4 keep fewer SMs
  // busy: the GPCs are uneven, run 164).
  int resident = sm90_wgmma_ws_multicast_resident_ctas(input, v, mc);
  if (resident <= 0) resident = current_sm_count() / (mc.m * mc.n) * (mc.m * mc.n);
  return choose_splits(g, resident, v);
}

namespace {

// M x N: the cluster in the problem's terms (`tcgemm kernels` and explain read it); swapped: the
// tile's 128 rows lie along N, so the entry lists it as 64 (M) x 128 (N).
template <DType In, Sm90WsVariant V, int M, int N, bool kSwapped = false>
KernelEntry mc_entry(std::string_view name) {
  KernelEntry e = wgmma_entry(name, In, sm90_wgmma_ws_shape(In, V));
  if (kSwapped) std::swap(e.tile_m, e.tile_n);
  e.cluster_m = M;
  e.cluster_n = N;
  e.preference = 0;  // by name until measured
  e.function = [] { return sm90_wgmma_ws_multicast_function(In, V); };
  return e;
}

std::size_t slabs_bytes(const GemmDesc& g, int splits) {
  return splits <= 1 ? 0 : split_slabs_bytes(g.m, g.n, g.d.layout == Layout::row, splits);
}

// Split-K into f32 slabs, the pass in clusters of M x N tiles; splits fill one round of clusters.
template <DType In, Sm90WsVariant V, int M, int N>
KernelEntry splitk_mc_entry(std::string_view name) {
  KernelEntry e = mc_entry<In, V, M, N>(name);
  e.supports = [](const GemmDesc& g) -> Status {
    if (Status s = sm90_wgmma_ws_multicast_supports(g, In, V, {M, N}); !s.ok()) return s;
    if (multicast_splits(g, In, V, {M, N}) <= 1)
      return Status::unsupported("split-K would not split: the clusters already fill the SMs (the unsplit multicast entry serves it)");
    return Status::success();
  };
  e.split_k = [](const GemmDesc& g) { return multicast_splits(g, In, V, {M, N}); };
  e.workspace_bytes = [](const GemmDesc& g) { return slabs_bytes(g, multicast_splits(g, In, V, {M, N})); };
  e.launch = [](const GemmArgs& a) -> Status {
    const int splits = multicast_splits(a.desc, In, V, {M, N});
    if (splits <= 1) return Status::unsupported("split-K would not split");
    return sm90_wgmma_ws_run_split_k(a, In, V, splits, split_k_blocks_per_split(a.desc, splits, V), nullptr, {M, N});
  };
  e.describe = [](const GemmDesc& g) {
    return std::to_string(sm90_wgmma_ws_shape(In, V).tile_m) + "x" + std::to_string(V.tile_n) + " tiles in " +
           std::to_string(M) + "x" + std::to_string(N) + " multicast clusters, split-K x" +
           std::to_string(multicast_splits(g, In, V, {M, N})) + " into f32 slabs + reduce";
  };
  return e;
}

// Every tile over all of K, D written directly, in clusters of M x N tiles.
template <DType In, Sm90WsVariant V, int M, int N>
KernelEntry plain_mc_entry(std::string_view name) {
  KernelEntry e = mc_entry<In, V, M, N>(name);
  e.supports = [](const GemmDesc& g) { return sm90_wgmma_ws_multicast_supports(g, In, V, {M, N}); };
  e.split_k = [](const GemmDesc&) { return 1; };
  e.workspace_bytes = [](const GemmDesc&) { return std::size_t{0}; };
  e.launch = [](const GemmArgs& a) { return sm90_wgmma_ws_launch_multicast(a, In, V, {M, N}); };
  e.describe = [](const GemmDesc&) {
    return std::to_string(sm90_wgmma_ws_shape(In, V).tile_m) + "x" + std::to_string(V.tile_n) + " tiles in " +
           std::to_string(M) + "x" + std::to_string(N) + " multicast clusters over all of K";
  };
  return e;
}

// The same two kinds on the swapped problem (D^T = B^T A^T: swap_ab.hpp swapped_desc), the tile's
// 128 rows along N and its 64 along M. At M <= 256 this is cuBLAS's choice (run 216: at
// 128x8192x8192 and 1024x1024x8192 nvjet 128x64 in 1x2 clusters over all of K, and split-K at
// 256x256x65536): the CTAs of neighbouring M tiles share B's rows through multicast, where the
// unswapped 128x64 tile has every CTA read the same A rows from L2. The name keeps the problem's
// M x N (64x128) and the cluster along M (mc2x1): the swapped problem's 1x2.
GemmArgs swapped_args(const GemmArgs& a) {
  GemmArgs s = a;
  s.desc = swapped_desc(a.desc);
  s.a = a.b;
  s.b = a.a;
  return s;
}

template <DType In, Sm90WsVariant V, int M, int N>
KernelEntry swap_plain_mc_entry(std::string_view name) {
  KernelEntry e = mc_entry<In, V, M, N, true>(name);
  e.supports = [](const GemmDesc& g) { return sm90_wgmma_ws_multicast_supports(swapped_desc(g), In, V, {N, M}); };
  e.split_k = [](const GemmDesc&) { return 1; };
  e.workspace_bytes = [](const GemmDesc&) { return std::size_t{0}; };
  e.launch = [](const GemmArgs& a) { return sm90_wgmma_ws_launch_multicast(swapped_args(a), In, V, {N, M}); };
  e.describe = [](const GemmDesc&) {
    return "swapped: 64 of M x " + std::to_string(sm90_wgmma_ws_shape(In, V).tile_m) + " of N tiles in " +
           std::to_string(M) + "x" + std::to_string(N) + " multicast clusters over all of K (B shared along M)";
  };
  return e;
}

template <DType In, Sm90WsVariant V, int M, int N>
KernelEntry swap_splitk_mc_entry(std::string_view name) {
  KernelEntry e = mc_entry<In, V, M, N, true>(name);
  e.supports = [](const GemmDesc& g) -> Status {
    const GemmDesc s = swapped_desc(g);
    if (Status st = sm90_wgmma_ws_multicast_supports(s, In, V, {N, M}); !st.ok()) return st;
    if (multicast_splits(s, In, V, {N, M}) <= 1)
      return Status::unsupported("split-K would not split: the clusters already fill the SMs (the unsplit entry serves it)");
    return Status::success();
  };
  e.split_k = [](const GemmDesc& g) { return multicast_splits(swapped_desc(g), In, V, {N, M}); };
  e.workspace_bytes = [](const GemmDesc& g) {
    const GemmDesc s = swapped_desc(g);
    return slabs_bytes(s, multicast_splits(s, In, V, {N, M}));
  };
  e.launch = [](const GemmArgs& a) -> Status {
    const GemmArgs s = swapped_args(a);
    const int splits = multicast_splits(s.desc, In, V, {N, M});
    if (splits <= 1) return Status::unsupported("split-K would not split");
    return sm90_wgmma_ws_run_split_k(s, In, V, splits, split_k_blocks_per_split(s.desc, splits, V), nullptr, {N, M});
  };
  e.describe = [](const GemmDesc& g) {
    return "swapped: 64 of M x " + std::to_string(sm90_wgmma_ws_shape(In, V).tile_m) + " of N tiles in " +
           std::to_string(M) + "x" + std::to_string(N) + " multicast clusters, split-K x" +
           std::to_string(multicast_splits(swapped_desc(g), In, V, {N, M})) + " into f32 slabs + reduce";
  };
  return e;
}

constexpr Sm90WsVariant k128x256{256, 4};
constexpr Sm90WsVariant k128x128{128, 7};
constexpr Sm90WsVariant k128x64{64, 9};
constexpr Sm90WsVariant k64x64{64, 14, 1};
constexpr Sm90WsVariant k64x32{32, 16, 1};

}  // namespace

void add_sm90_multicast_kernels(std::vector<KernelEntry>& table) {
  static_assert(k128x128.stages == 7 && k64x32.stages == 16, "the narrow variants' stage counts (names below)");
  table.push_back(splitk_mc_entry<DType::bf16, k128x256, 2, 1>("sm90_wgmma_bf16_128x256x64_s4_splitk_mc2x1"));
  table.push_back(splitk_mc_entry<DType::bf16, k128x256, 1, 2>("sm90_wgmma_bf16_128x256x64_s4_splitk_mc1x2"));
  table.push_back(splitk_mc_entry<DType::bf16, k128x128, 2, 1>("sm90_wgmma_bf16_128x128x64_s7_splitk_mc2x1"));
  table.push_back(splitk_mc_entry<DType::bf16, k128x128, 1, 2>("sm90_wgmma_bf16_128x128x64_s7_splitk_mc1x2"));
  table.push_back(splitk_mc_entry<DType::bf16, k128x128, 2, 2>("sm90_wgmma_bf16_128x128x64_s7_splitk_mc2x2"));
  table.push_back(splitk_mc_entry<DType::bf16, k128x64, 1, 2>("sm90_wgmma_bf16_128x64x64_s9_splitk_mc1x2"));
  table.push_back(splitk_mc_entry<DType::bf16, k128x64, 2, 2>("sm90_wgmma_bf16_128x64x64_s9_splitk_mc2x2"));
  table.push_back(splitk_mc_entry<DType::bf16, k64x64, 1, 2>("sm90_wgmma_bf16_64x64x64_s14_splitk_mc1x2"));
  table.push_back(plain_mc_entry<DType::bf16, k64x64, 1, 2>("sm90_wgmma_bf16_64x64x64_s14_mc1x2"));
  table.push_back(plain_mc_entry<DType::bf16, k64x32, 1, 2>("sm90_wgmma_bf16_64x32x64_s16_mc1x2"));
  table.push_back(plain_mc_entry<DType::bf16, k128x256, 2, 1>("sm90_wgmma_bf16_128x256x64_s4_mc2x1"));
  table.push_back(plain_mc_entry<DType::bf16, k128x256, 1, 2>("sm90_wgmma_bf16_128x256x64_s4_mc1x2"));
  table.push_back(plain_mc_entry<DType::bf16, k128x64, 1, 2>("sm90_wgmma_bf16_128x64x64_s9_mc1x2"));
  table.push_back(swap_plain_mc_entry<DType::bf16, k128x64, 2, 1>("sm90_wgmma_bf16_64x128x64_s9_swapab_mc2x1"));
  table.push_back(swap_plain_mc_entry<DType::bf16, k128x64, 2, 2>("sm90_wgmma_bf16_64x128x64_s9_swapab_mc2x2"));
  table.push_back(swap_splitk_mc_entry<DType::bf16, k128x64, 2, 1>("sm90_wgmma_bf16_64x128x64_s9_swapab_splitk_mc2x1"));
}

}  // namespace tcgemm
