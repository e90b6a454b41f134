// The host-side pieces every measuring routine (bandwidth, the ingest probe) needs around the CUDA
// runtime: a cudaError_t as a Status, an owned device allocation, and "is there a GPU at all".
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "tcgemm/types.hpp"

namespace tcgemm {

inline Status cuda_check(cudaError_t e, const char* what) {
  return e == cudaSuccess ? Status::success() : Status(StatusCode::cuda_error, std::string(what) + ": " + cudaGetErrorString(e));
}

struct DeviceBuffer {
  void* p = nullptr;
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    if (p) cudaFree(p);
  }
};

// no_device, "no CUDA GPU is present: <what> needs one", where the runtime finds no device (its
// error cleared); success otherwise.
inline Status require_gpu(const char* what) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    return Status(StatusCode::no_device, std::string("no CUDA GPU is present: ") + what + " needs one");
  }
  return Status::success();
}

}  // namespace tcgemm
