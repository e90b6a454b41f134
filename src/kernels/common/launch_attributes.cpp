#include "kernels/common/launch_attributes.hpp"

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>

#include "core/diag_flag.hpp"
#include "tcgemm/device.hpp"

namespace tcgemm {

Status allow_dynamic_smem(const void* kernel, int bytes) {
  int device = 0;
  if (cudaError_t e = cudaGetDevice(&device); e != cudaSuccess)
    return Status(StatusCode::cuda_error, std::string("cudaGetDevice: ") + cudaGetErrorString(e));
  static std::mutex mutex;
  static std::map<std::pair<int, const void*>, int> granted;
  std::lock_guard<std::mutex> lock(mutex);
  int& have = granted[{device, kernel}];
  if (have >= bytes) return Status::success();
  // Diagnosis (session 48, run 272): TCGEMM_DIAG_CLUSTER_POLICY=1 (spread) or 2 (load balancing)
  // sets the cluster scheduling policy of every kernel that passes here, to see whether where the
  // pairs land decides the L2 request coalescer's merges. Unset: the driver's default.
  static const int policy = [] {
    const char* e = std::getenv("TCGEMM_DIAG_CLUSTER_POLICY");
    return e != nullptr && (*e == '1' || *e == '2') ? *e - '0' : 0;
  }();
  if (policy != 0 && have == 0)
    if (cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeClusterSchedulingPolicyPreference, policy); e != cudaSuccess)
      return Status(StatusCode::cuda_error, std::string("cudaFuncSetAttribute(cluster scheduling policy): ") + cudaGetErrorString(e));
  if (cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes); e != cudaSuccess)
    return Status(StatusCode::cuda_error, "cudaFuncSetAttribute(max dynamic smem " + std::to_string(bytes) +
                                              "): " + cudaGetErrorString(e));
  have = bytes;
  return Status::success();
}

cudaLaunchAttribute cluster_dim_attribute(unsigned ctas) {
  cudaLaunchAttribute a{};
  a.id = cudaLaunchAttributeClusterDimension;
  a.val.clusterDim.x = ctas;
  a.val.clusterDim.y = 1;
  a.val.clusterDim.z = 1;
  return a;
}

Result<int> resident_clusters(const void* kernel, unsigned cluster_ctas, int threads, int smem_bytes) {
  int device = 0;
  if (cudaError_t e = cudaGetDevice(&device); e != cudaSuccess)
    return Status(StatusCode::cuda_error, std::string("cudaGetDevice: ") + cudaGetErrorString(e));
  static std::mutex mutex;
  static std::map<std::tuple<int, const void*, unsigned>, int> known;
  std::lock_guard<std::mutex> lock(mutex);
  int& clusters = known[{device, kernel, cluster_ctas}];
  if (clusters > 0) return clusters;
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(cluster_ctas);
  cfg.blockDim = dim3(threads);
  cfg.dynamicSmemBytes = smem_bytes;
  cudaLaunchAttribute attr = cluster_dim_attribute(cluster_ctas);
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  const cudaError_t e = cudaOccupancyMaxActiveClusters(&clusters, kernel, &cfg);
  if (e != cudaSuccess || clusters <= 0) {
    clusters = 0;
    return Status(StatusCode::cuda_error, std::string("cudaOccupancyMaxActiveClusters: ") +
                                              (e != cudaSuccess ? cudaGetErrorString(e) : "no cluster fits"));
  }
  return clusters;
}

namespace {

// Device attributes cannot change while the process runs, and gemm() asks for them on its hot
// path (the SM count in every entry's supports() and plan, PDL support on every launch): each is
// read from the driver once per device.
constexpr int kMaxDevices = 64;
std::atomic<int> g_sm_count[kMaxDevices];
std::atomic<int> g_cc_major[kMaxDevices];
std::atomic<int> g_mem_clock_khz[kMaxDevices];
std::atomic<int> g_bus_bits[kMaxDevices];

int cached_attribute(std::atomic<int>* table, cudaDeviceAttr attr) {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || device < 0) {
    (void)cudaGetLastError();
    return 0;
  }
  if (device >= kMaxDevices) {  // not cached: read it every time
    int v = 0;
    if (cudaDeviceGetAttribute(&v, attr, device) != cudaSuccess) (void)cudaGetLastError();
    return v;
  }
  int v = table[device].load(std::memory_order_relaxed);
  if (v > 0) return v;
  if (cudaDeviceGetAttribute(&v, attr, device) != cudaSuccess || v <= 0) {
    (void)cudaGetLastError();
    return 0;
  }
  table[device].store(v, std::memory_order_relaxed);
  return v;
}

}  // namespace

int current_device_sm_count() { return cached_attribute(g_sm_count, cudaDevAttrMultiProcessorCount); }

double current_device_mem_bandwidth_gbs() {
  const int clock_khz = cached_attribute(g_mem_clock_khz, cudaDevAttrMemoryClockRate);
  const int bus_bits = cached_attribute(g_bus_bits, cudaDevAttrGlobalMemoryBusWidth);
  return dram_peak_gbs(clock_khz, bus_bits);
}

bool device_has_pdl() { return cached_attribute(g_cc_major, cudaDevAttrComputeCapabilityMajor) >= 9; }

cudaLaunchAttribute pdl_attribute() {
  // TCGEMM_DIAG_NO_PDL=1 (diagnosis only): every launch serialises as without PDL, to time what the
  // early launch of the next grid does to a back-to-back loop (bench/NOTES.md, run 218).
  static const bool off = diag_flag("TCGEMM_DIAG_NO_PDL");
  cudaLaunchAttribute a{};
  a.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  a.val.programmaticStreamSerializationAllowed = off ? 0 : 1;
  return a;
}

}  // namespace tcgemm
