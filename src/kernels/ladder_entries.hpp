// The kernel instances each ladder file contributes; the register_*.cu files collect them so
// the registry reads bottom rung to top.
#pragma once

#include <string_view>
#include <vector>

#include "runtime/registry.hpp"

namespace tcgemm {

// A ladder rung's registry entry (sm_80 and later): its shape and supports/launch/function; every
// other field at KernelEntry's default.
inline KernelEntry ladder_entry(std::string_view name, const EntryShape& s, Status (*supports)(const GemmDesc&),
                                Status (*launch)(const GemmArgs&), const void* (*function)()) {
  KernelEntry e = shaped_entry(name, 80, s);
  e.supports = supports;
  e.launch = launch;
  e.function = function;
  return e;
}

// Calls launch_for.template operator()<LA, LB>() with A's and B's layouts as template arguments,
// for the rungs compiled once per layout pair.
template <class F>
Status dispatch_ab_layouts(const GemmArgs& args, F&& launch_for) {
  const bool ar = args.desc.a.layout == Layout::row, br = args.desc.b.layout == Layout::row;
  if (ar && br) return launch_for.template operator()<Layout::row, Layout::row>();
  if (ar) return launch_for.template operator()<Layout::row, Layout::column>();
  if (br) return launch_for.template operator()<Layout::column, Layout::row>();
  return launch_for.template operator()<Layout::column, Layout::column>();
}

void add_simt_naive_kernels(std::vector<KernelEntry>& table);
void add_simt_tiled_kernels(std::vector<KernelEntry>& table);
void add_wmma_naive_kernels(std::vector<KernelEntry>& table);
void add_wmma_tiled_kernels(std::vector<KernelEntry>& table);
void add_sm80_mma_sync_kernels(std::vector<KernelEntry>& table);

}  // namespace tcgemm
