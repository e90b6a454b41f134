// gemm()'s autotuning of the split-K planner's plans (tcgemm/tuning.hpp, set_split_autotune): the
// model ranks plans from constant rates and misses by up to 40% on some shapes (bench/NOTES.md,
// run 265's sweep); timing its best few on the GPU once a problem replaces the guess there.
#pragma once

#include <cuda_runtime_api.h>

#include "runtime/registry.hpp"

namespace tcgemm {

// Whether gemm() should tune g before running entry k: autotuning is on, k is the split planner's
// TMA entry (bf16 or f16), no split count is forced, and neither the table nor an earlier tuning
// has settled g's problem.
bool split_autotune_wanted(const KernelEntry& k, const GemmDesc& g);

// Times the model's plan and each split tile's three lowest-priced counts on `stream` (A, B and C
// as given, D and the slabs in scratch memory, L2 flushed before each of 5 timed runs; the medians
// of a forward and a reverse pass averaged) and adds the fastest to the tuned table where it beats
// the model's plan by 2% or more. The problem is settled either way, so it is tuned once a process.
// Synchronizes `stream`; does nothing on a stream being captured. A failed scratch allocation
// leaves the model's plan (ok).
Status split_autotune_run(const GemmDesc& g, const void* A, const void* B, const void* C, cudaStream_t stream);

}  // namespace tcgemm
