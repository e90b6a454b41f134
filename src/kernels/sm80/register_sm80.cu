#include "kernels/ladder_entries.hpp"

namespace tcgemm {

// Third rung: mma.sync with ldmatrix, fed by a cp.async multistage pipeline (sm_80 and later).
void register_sm80_kernels(std::vector<KernelEntry>& table) { add_sm80_mma_sync_kernels(table); }

}  // namespace tcgemm
