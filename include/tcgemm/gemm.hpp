// The public entry points: run any GEMM on the GPU, correctly, with the best kernel we have.
#pragma once

#include <cuda_runtime_api.h>

#include <string_view>

#include "tcgemm/problem.hpp"

namespace tcgemm {

// D = alpha * A * B + beta * C on `stream`. Picks a kernel (analyzer-informed heuristic),
// manages any workspace itself, and is correct for every M, N, K >= 1 of a supported dtype and
// layout. Invalid input returns a Status with a message; nothing is launched then.
// C may be nullptr when beta == 0. D must not alias A or B. Paths that need a workspace (repack,
// split-K) use one grow-only buffer per device that gemm() owns; calls that need it must not run
// concurrently on several streams of one device. The choice of kernel is remembered for the last
// few problems (every desc field and the pointers' alignments), so repeated calls on one shape
// skip the registry scan (thread-safe). With autotuning on (tcgemm/tuning.hpp, off by default) the
// first call for a split-K problem also times its candidate plans and synchronizes the stream.
Status gemm(const GemmDesc& desc, const void* A, const void* B, const void* C, void* D,
            cudaStream_t stream = nullptr);

// The same, on the kernel named as in `tcgemm kernels`; unsupported (with the kernel's reason)
// when that kernel cannot run this problem.
Status gemm_with_kernel(std::string_view kernel_name, const GemmDesc& desc, const void* A,
                        const void* B, const void* C, void* D, cudaStream_t stream = nullptr);

// The name of the kernel gemm() would pick for this problem (for reports and tests).
Result<std::string_view> pick_kernel(const GemmDesc& desc);

}  // namespace tcgemm
