#include "kernels/ladder_entries.hpp"

namespace tcgemm {

// Bottom rung: FP32 on the CUDA cores, first one thread per output, then shared-memory tiles.
void register_simt_kernels(std::vector<KernelEntry>& table) {
  add_simt_naive_kernels(table);
  add_simt_tiled_kernels(table);
}

}  // namespace tcgemm
