#include "kernels/ladder_entries.hpp"

namespace tcgemm {

// Second rung: nvcuda::wmma fragments, first straight from global memory, then from shared tiles.
void register_wmma_kernels(std::vector<KernelEntry>& table) {
  add_wmma_naive_kernels(table);
  add_wmma_tiled_kernels(table);
}

}  // namespace tcgemm
