#include "runtime/registry.hpp"

namespace tcgemm {

std::span<const KernelEntry> kernel_registry() {
  static const std::vector<KernelEntry> table = [] {
    std::vector<KernelEntry> t;
    register_simt_kernels(t);
    register_wmma_kernels(t);
    register_sm80_kernels(t);
    register_sm90_kernels(t);
    return t;
  }();
  return table;
}

const KernelEntry* find_kernel(std::string_view name) {
  for (const KernelEntry& k : kernel_registry())
    if (k.name == name) return &k;
  return nullptr;
}

}  // namespace tcgemm
