// Measured memory rates of the live GPU: the denominator of every memory floor. explain's floors
// use the device profile's copy rate; this says what a plain stream of the same bytes reaches on
// this board, timed the way `profile` times a GEMM (back-to-back launches, CUDA events, median,
// buffers rotated past L2), so a kernel's "% of floor" can be read against what is reachable.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tcgemm/types.hpp"

namespace tcgemm {

enum class StreamKind { read, write, copy, memcpy };
const char* stream_kind_name(StreamKind k);

struct BandwidthPoint {
  StreamKind kind = StreamKind::read;
  int64_t bytes = 0;        // bytes per launch of one buffer (a copy moves 2x this)
  int ctas = 0;             // 0 for cudaMemcpyAsync
  double median_us = 0;
  double traffic_tbps = 0;  // bytes read plus bytes written, over the median time
};

struct BandwidthRequest {
  int64_t bytes = 134217728;           // 8192 x 8192 bf16: the decode shape's B
  std::vector<int> grids;              // CTA counts for the kernels; empty: SMs x {1, 2, 4, 8} and 128
  std::vector<StreamKind> kinds{StreamKind::read, StreamKind::write, StreamKind::copy, StreamKind::memcpy};
  double warmup_ms = 300;              // the clocks ramp for the first ~100 ms (DESIGN.md)
  int iterations = 60;
};

// Needs a GPU; returns no_device without one, invalid for bytes < 1 MiB or not a multiple of 16.
Result<std::vector<BandwidthPoint>> measure_bandwidth(const BandwidthRequest& r);

}  // namespace tcgemm
