// The kernel instances each ladder file contributes; the register_*.cu files collect them so
// the registry reads bottom rung to top.
#pragma once

#include <vector>

#include "runtime/registry.hpp"

namespace tcgemm {

void add_simt_naive_kernels(std::vector<KernelEntry>& table);
void add_simt_tiled_kernels(std::vector<KernelEntry>& table);
void add_wmma_naive_kernels(std::vector<KernelEntry>& table);
void add_wmma_tiled_kernels(std::vector<KernelEntry>& table);
void add_sm80_mma_sync_kernels(std::vector<KernelEntry>& table);

}  // namespace tcgemm
