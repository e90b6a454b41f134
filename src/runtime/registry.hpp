// Kernel instances as data: one table the dispatcher, `tcgemm kernels`, the profiler's --kernels
// filter and the docs all read.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tcgemm/problem.hpp"

namespace tcgemm {

struct GemmArgs {
  GemmDesc desc;
  const void* a = nullptr;
  const void* b = nullptr;
  const void* c = nullptr;
  void* d = nullptr;
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;
  cudaStream_t stream = nullptr;
};

struct KernelEntry {
  std::string_view name;   // sm90_wgmma_bf16_128x128x64_s4_tn
  int min_sm = 80;         // compute capability x10 the kernel needs (90 for sm_90a)
  MmaFamily family = MmaFamily::simt;
  DType input = DType::f32;  // dtype of A and B
  int tile_m = 0, tile_n = 0, tile_k = 0;
  int stages = 1;
  int threads = 0;
  int cluster_m = 1, cluster_n = 1;
  // Among kernels of one family that support a problem, gemm() takes the highest preference
  // (then the larger tile, then the deeper pipeline). Composite paths that exist for one kind of
  // shape (split-K, repack) refuse other shapes in supports() and rank above the plain kernel;
  // variants not yet measured to win anywhere rank below it (0) and run only when named.
  int preference = 1;
  // A gated path that gemm() takes over every family where its supports() accepts (the tiny
  // problems' CUDA-core kernel, faster there than any tensor-core path: bench/NOTES.md).
  bool outranks_families = false;
  // ok, or why this kernel cannot run this problem (dtype, layout, alignment, size).
  Status (*supports)(const GemmDesc&) = nullptr;
  // Workspace the launch needs (0 for none); nullptr means none.
  std::size_t (*workspace_bytes)(const GemmDesc&) = nullptr;
  // Launches on args.stream; args are validated and supports() returned ok.
  Status (*launch)(const GemmArgs&) = nullptr;
  // For `explain --measure`'s prediction of this path: how many K slices it will run (nullptr: 1)
  // and how many bytes it copies before the GEMM (nullptr: none).
  int (*split_k)(const GemmDesc&) = nullptr;
  std::size_t (*copy_bytes)(const GemmDesc&) = nullptr;
  // The tile (M side, N side) it runs for g where a rule picks it per shape (gemm()'s fitting-width
  // entries, which list their widest; the planned split-K entries, which list 128x256); nullptr:
  // tile_m x tile_n.
  std::pair<int, int> (*tile_for)(const GemmDesc&) = nullptr;
  // What this path will run for g when it plans per problem (the tile and split the split-K
  // planner picks, with its predicted time), for `tcgemm explain`; nullptr: nothing to add.
  std::string (*describe)(const GemmDesc&) = nullptr;
  // The __global__ function, for cudaFuncGetAttributes (registers, smem) in `tcgemm kernels`.
  const void* (*function)() = nullptr;
  // Dynamic shared memory bytes per CTA the launch requests, for occupancy in `tcgemm kernels`;
  // nullptr means the kernel uses none (or only static shared memory).
  std::size_t (*dynamic_smem)() = nullptr;
};

// What `tcgemm kernels` lists of an entry: its family, input type, CTA tile, stages and threads.
struct EntryShape {
  MmaFamily family;
  DType input;
  int tile_m, tile_n, tile_k, stages, threads;
};
// An entry with that shape for sm_`min_sm`/10 and later; every other field at its default.
inline KernelEntry shaped_entry(std::string_view name, int min_sm, const EntryShape& s) {
  KernelEntry e;
  e.name = name;
  e.min_sm = min_sm;
  e.family = s.family;
  e.input = s.input;
  e.tile_m = s.tile_m;
  e.tile_n = s.tile_n;
  e.tile_k = s.tile_k;
  e.stages = s.stages;
  e.threads = s.threads;
  return e;
}

// Every kernel family appends its instances; registry.cpp calls each once.
void register_simt_kernels(std::vector<KernelEntry>& table);
void register_wmma_kernels(std::vector<KernelEntry>& table);
void register_sm80_kernels(std::vector<KernelEntry>& table);
void register_sm90_kernels(std::vector<KernelEntry>& table);

std::span<const KernelEntry> kernel_registry();
const KernelEntry* find_kernel(std::string_view name);

}  // namespace tcgemm
