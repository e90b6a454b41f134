// Per-tile counters for kernels whose CTAs meet in global memory (split-K's in-kernel fix-up): a
// buffer of kTileCounterWords 32-bit words a (device, stream), zeroed once when first asked for.
// Every kernel that uses it leaves it zeroed, so no launch needs a memset (a memset between two
// launches would also break their programmatic-launch overlap). Launches on one stream are
// ordered, so they can share one; two streams get two buffers.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "tcgemm/types.hpp"

namespace tcgemm {

inline constexpr int kTileCounterWords = 4096;

// Fails (and the caller takes a path without counters) when allocating or zeroing fails, or when
// the stream is being captured into a graph before a buffer exists for it: cudaMalloc and the
// synchronous zeroing are not allowed there.
Result<uint32_t*> tile_counters(cudaStream_t stream);

}  // namespace tcgemm
