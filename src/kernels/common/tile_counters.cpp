#include "kernels/common/tile_counters.hpp"

#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace tcgemm {

Result<uint32_t*> tile_counters(cudaStream_t stream) {
  static std::mutex mu;
  static std::map<std::pair<int, cudaStream_t>, uint32_t*> buffers;  // never freed: 16 KB a stream
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) return Status(StatusCode::cuda_error, "tile counters: no current CUDA device");
  std::lock_guard<std::mutex> lock(mu);
  const auto key = std::make_pair(dev, stream);
  if (auto it = buffers.find(key); it != buffers.end()) return it->second;
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &capture) != cudaSuccess || capture != cudaStreamCaptureStatusNone)
    return Status::unsupported("tile counters: the stream is capturing and has no counter buffer yet");
  void* p = nullptr;
  const std::size_t bytes = kTileCounterWords * sizeof(uint32_t);
  if (cudaError_t e = cudaMalloc(&p, bytes); e != cudaSuccess)
    return Status(StatusCode::cuda_error, std::string("tile counters: cudaMalloc: ") + cudaGetErrorString(e));
  // Synchronous: the zeros are in place before any launch on any stream can read them.
  if (cudaError_t e = cudaMemset(p, 0, bytes); e != cudaSuccess) {
    cudaFree(p);
    return Status(StatusCode::cuda_error, std::string("tile counters: cudaMemset: ") + cudaGetErrorString(e));
  }
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    cudaFree(p);
    return Status(StatusCode::cuda_error, std::string("tile counters: sync: ") + cudaGetErrorString(e));
  }
  buffers[key] = static_cast<uint32_t*>(p);
  return static_cast<uint32_t*>(p);
}

}  // namespace tcgemm
