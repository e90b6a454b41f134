// cuBLASLt as a provider: the baseline timed beside our kernels and a verification reference.
// Never called by gemm(); a tcgemm::run() answer always comes from our own kernels.
#pragma once

#include <cublasLt.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>

#include "tcgemm/problem.hpp"

namespace tcgemm {

class CublasLtProvider {
 public:
  // 32 MiB: NVIDIA's workspace recommendation for Hopper, so cuBLASLt can pick split-K and
  // stream-K algorithms it would refuse with less.
  static constexpr std::size_t kWorkspaceBytes = std::size_t{32} << 20;

  // Creates the handle and workspace on the current device.
  static Result<std::unique_ptr<CublasLtProvider>> create();
  ~CublasLtProvider();
  CublasLtProvider(const CublasLtProvider&) = delete;
  CublasLtProvider& operator=(const CublasLtProvider&) = delete;

  // D = alpha*A*B + beta*C in our row/column conventions. unsupported (with the rule cuBLASLt
  // applies, where we know it) when cuBLASLt has no algorithm for this problem. C may be nullptr
  // when beta == 0. The algorithm is chosen once per problem (shape, dtypes, layouts, lds,
  // pointer alignment) and reused.
  Status run(const GemmDesc& desc, const void* A, const void* B, const void* C, void* D,
             cudaStream_t stream = nullptr);

  // The algorithm last chosen for `desc` with these pointers' alignment, e.g.
  // "cublasLt algo=66 tile=20 stages=24 splitK=1 cluster=2", or "" if none is cached.
  std::string describe(const GemmDesc& desc, const void* A, const void* B, const void* C,
                       const void* D) const;

 private:
  CublasLtProvider() = default;
  struct Plan;
  // m, n, k, dtypes+layouts packed, lda, ldb, ldc, ldd, alignments packed, beta != 0
  using Key = std::tuple<int64_t, int64_t, int64_t, uint64_t, int64_t, int64_t, int64_t, int64_t,
                         uint64_t, bool>;
  static Key make_key(const GemmDesc& desc, const void* A, const void* B, const void* C,
                      const void* D);
  Result<const Plan*> plan_for(const GemmDesc& desc, const Key& key, uint32_t align_a,
                               uint32_t align_b, uint32_t align_c, uint32_t align_d);

  cublasLtHandle_t handle_ = nullptr;
  void* workspace_ = nullptr;
  std::map<Key, std::unique_ptr<Plan>> plans_;
};

}  // namespace tcgemm
