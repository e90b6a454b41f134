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

// The kernel's view of the problem: as given, or swapped (D^T = B^T A^T, swap_ab.hpp), where the
// tile's 128 rows lie along N and its 64 along M. Swapped at M <= 256 is cuBLAS's choice (run 216:
// at 128x8192x8192 and 1024x1024x8192 nvjet 128x64 in 1x2 clusters over all of K, split-K at
// 256x256x65536): the CTAs of neighbouring M tiles share B's rows through multicast, where the
// unswapped 128x64 tile has every CTA read the same A rows from L2. M x N is the cluster in the
// problem's terms (the name's mcMxN, what `tcgemm kernels` and explain read); the kernel's own is
// N x M when swapped.
template <bool kSwapped>
GemmDesc kernel_desc(const GemmDesc& g) {
  return kSwapped ? swapped_desc(g) : g;
}
template <bool kSwapped>
GemmArgs kernel_args(const GemmArgs& a) {
  return kSwapped ? swapped_args(a) : a;
}
template <bool kSwapped, int M, int N>
constexpr Sm90Multicast kernel_cluster() {
  return kSwapped ? Sm90Multicast{N, M} : Sm90Multicast{M, N};
}

template <DType In, Sm90WsVariant V, int M, int N, bool kSwapped>
KernelEntry mc_entry(std::string_view name) {
  KernelEntry e = wgmma_entry(name, In, sm90_wgmma_ws_shape(In, V));
  if (kSwapped) std::swap(e.tile_m, e.tile_n);  // listed as 64 (M) x 128 (N)
  e.cluster_m = M;
  e.cluster_n = N;
  e.preference = 0;  // by name until measured
  e.function = [] { return sm90_wgmma_ws_multicast_function(In, V); };
  return e;
}

std::size_t slabs_bytes(const GemmDesc& g, int splits) {
  return splits <= 1 ? 0 : split_slabs_bytes(g.m, g.n, g.d.layout == Layout::row, splits);
}

template <DType In, Sm90WsVariant V, int M, int N, bool kSwapped>
std::string tiles_in_clusters() {
  const int rows = sm90_wgmma_ws_shape(In, V).tile_m;
  return (kSwapped ? "swapped: 64 of M x " + std::to_string(rows) + " of N tiles in "
                   : std::to_string(rows) + "x" + std::to_string(V.tile_n) + " tiles in ") +
         std::to_string(M) + "x" + std::to_string(N) + " multicast clusters";
}

// Split-K into f32 slabs, the pass in clusters of M x N tiles; splits fill one round of clusters.
template <DType In, Sm90WsVariant V, int M, int N, bool kSwapped = false>
KernelEntry splitk_mc_entry(std::string_view name) {
  static constexpr Sm90Multicast kMc = kernel_cluster<kSwapped, M, N>();
  KernelEntry e = mc_entry<In, V, M, N, kSwapped>(name);
  e.supports = [](const GemmDesc& g) -> Status {
    const GemmDesc k = kernel_desc<kSwapped>(g);
    if (Status s = sm90_wgmma_ws_multicast_supports(k, In, V, kMc); !s.ok()) return s;
    if (multicast_splits(k, In, V, kMc) <= 1)
      return Status::unsupported("split-K would not split: the clusters already fill the SMs (the unsplit multicast entry serves it)");
    return Status::success();
  };
  e.split_k = [](const GemmDesc& g) { return multicast_splits(kernel_desc<kSwapped>(g), In, V, kMc); };
  e.workspace_bytes = [](const GemmDesc& g) {
    const GemmDesc k = kernel_desc<kSwapped>(g);
    return slabs_bytes(k, multicast_splits(k, In, V, kMc));
  };
  e.launch = [](const GemmArgs& a) -> Status {
    const GemmArgs k = kernel_args<kSwapped>(a);
    const int splits = multicast_splits(k.desc, In, V, kMc);
    if (splits <= 1) return Status::unsupported("split-K would not split");
    return sm90_wgmma_ws_run_split_k(k, In, V, splits, split_k_blocks_per_split(k.desc, splits, V), nullptr, kMc);
  };
  e.describe = [](const GemmDesc& g) {
    return tiles_in_clusters<In, V, M, N, kSwapped>() + ", split-K x" +
           std::to_string(multicast_splits(kernel_desc<kSwapped>(g), In, V, kMc)) + " into f32 slabs + reduce";
  };
  return e;
}

// Every tile over all of K, D written directly, in clusters of M x N tiles.
template <DType In, Sm90WsVariant V, int M, int N, bool kSwapped = false>
KernelEntry plain_mc_entry(std::string_view name) {
  static constexpr Sm90Multicast kMc = kernel_cluster<kSwapped, M, N>();
  KernelEntry e = mc_entry<In, V, M, N, kSwapped>(name);
  e.supports = [](const GemmDesc& g) { return sm90_wgmma_ws_multicast_supports(kernel_desc<kSwapped>(g), In, V, kMc); };
  e.split_k = [](const GemmDesc&) { return 1; };
  e.workspace_bytes = [](const GemmDesc&) { return std::size_t{0}; };
  e.launch = [](const GemmArgs& a) { return sm90_wgmma_ws_launch_multicast(kernel_args<kSwapped>(a), In, V, kMc); };
  e.describe = [](const GemmDesc&) {
    return tiles_in_clusters<In, V, M, N, kSwapped>() + " over all of K" + (kSwapped ? " (B shared along M)" : "");
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
  table.push_back(plain_mc_entry<DType::bf16, k128x64, 2, 1, true>("sm90_wgmma_bf16_64x128x64_s9_swapab_mc2x1"));
  table.push_back(plain_mc_entry<DType::bf16, k128x64, 2, 2, true>("sm90_wgmma_bf16_64x128x64_s9_swapab_mc2x2"));
  table.push_back(splitk_mc_entry<DType::bf16, k128x64, 2, 1, true>("sm90_wgmma_bf16_64x128x64_s9_swapab_splitk_mc2x1"));
}

}  // namespace tcgemm
