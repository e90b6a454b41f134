#include "kernels/common/launch_attributes.hpp"

#include <cuda_runtime_api.h>

#include <map>
#include <mutex>
#include <string>
#include <utility>

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
  if (cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes); e != cudaSuccess)
    return Status(StatusCode::cuda_error, "cudaFuncSetAttribute(max dynamic smem " + std::to_string(bytes) +
                                              "): " + cudaGetErrorString(e));
  have = bytes;
  return Status::success();
}

bool device_has_pdl() {
  int device = 0, major = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return major >= 9;
}

cudaLaunchAttribute pdl_attribute() {
  cudaLaunchAttribute a{};
  a.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  a.val.programmaticStreamSerializationAllowed = 1;
  return a;
}

}  // namespace tcgemm
