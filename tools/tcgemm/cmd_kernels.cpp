#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "commands.hpp"
#include "profile_options.hpp"
#include "runtime/registry.hpp"

namespace tcgemm::cli {
namespace {

// Without a dynamic_smem hook, the multistage kernels' shared memory is their A and B stage
// buffers; the estimate is marked "~" in the table.
std::size_t estimated_dynamic_smem(const KernelEntry& k) {
  if (k.family != MmaFamily::mma_sync && k.family != MmaFamily::wgmma) return 0;
  return static_cast<std::size_t>(k.stages) * static_cast<std::size_t>(k.tile_m + k.tile_n) *
         static_cast<std::size_t>(k.tile_k) * dtype_bytes(k.input);
}

void print_aligned(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width(rows.front().size(), 0);
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
  for (const auto& r : rows) {
    std::string line;
    for (std::size_t i = 0; i < r.size(); ++i) {
      line += r[i];
      if (i + 1 < r.size()) line += std::string(width[i] - r[i].size() + 2, ' ');
    }
    std::printf("%s\n", line.c_str());
  }
}

int gpu_sm() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    return 0;
  }
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return p.major * 10 + p.minor;
}

}  // namespace

Runner add_kernels(CLI::App& app) {
  CLI::App* sub = app.add_subcommand("kernels", "list the registered kernels (with a GPU: "
                                                "registers, shared memory, CTAs/SM)");
  auto filter = std::make_shared<std::string>();
  sub->add_option("--kernels", *filter, "comma list of globs (or substrings) over kernel names");
  return [filter]() {
    const int sm = gpu_sm();
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> header{"Name", "Family", "DType", "Tile", "Stages", "Threads",
                                    "Cluster", "MinSM"};
    if (sm) {
      for (const char* h : {"Regs", "StaticSmem", "DynSmem", "CTAs/SM"}) header.emplace_back(h);
    }
    rows.push_back(header);
    std::vector<std::string> errors;
    for (const KernelEntry& k : kernel_registry()) {
      if (!filter->empty() && !kernel_filter_matches(*filter, k.name)) continue;
      std::vector<std::string> r{
          std::string(k.name), std::string(to_string(k.family)), std::string(to_string(k.input)),
          std::to_string(k.tile_m) + "x" + std::to_string(k.tile_n) + "x" + std::to_string(k.tile_k),
          std::to_string(k.stages), std::to_string(k.threads),
          std::to_string(k.cluster_m) + "x" + std::to_string(k.cluster_n), "sm_" + std::to_string(k.min_sm)};
      if (sm) {
        const void* fn = k.function ? k.function() : nullptr;
        if (!fn || k.min_sm > sm) {
          const std::string why = !fn ? "n/a" : "needs sm_" + std::to_string(k.min_sm);
          for (int i = 0; i < 4; ++i) r.push_back(why);
        } else {
          cudaFuncAttributes attr{};
          const std::size_t dyn = k.dynamic_smem ? k.dynamic_smem() : estimated_dynamic_smem(k);
          const std::string dyn_text = (k.dynamic_smem ? "" : "~") + std::to_string(dyn);
          cudaError_t e = cudaFuncGetAttributes(&attr, fn);
          int blocks = 0;
          // Above 48 KiB a kernel must opt in before the occupancy query counts it.
          if (e == cudaSuccess && dyn > 48 * 1024)
            e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(dyn));
          if (e == cudaSuccess && k.threads > 0)
            e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fn, k.threads, dyn);
          if (e != cudaSuccess) {
            errors.push_back(std::string(k.name) + ": " + cudaGetErrorString(e));
            (void)cudaGetLastError();
          }
          r.push_back(e == cudaSuccess ? std::to_string(attr.numRegs) : "err");
          r.push_back(e == cudaSuccess ? std::to_string(attr.sharedSizeBytes) : "err");
          r.push_back(dyn_text);
          r.push_back(e == cudaSuccess && k.threads > 0 ? std::to_string(blocks) : "err");
        }
      }
      rows.push_back(std::move(r));
    }
    if (rows.size() == 1) {
      std::printf(filter->empty() ? "no kernels registered yet\n"
                                  : "no registered kernel matches --kernels=%s\n",
                  filter->c_str());
    } else {
      print_aligned(rows);
    }
    if (!sm)
      std::printf("note: no CUDA device found: registers, shared memory and CTAs/SM need a GPU "
                  "(tcgemm occupancy predicts them without one)\n");
    else
      std::printf("note: DynSmem marked ~ is estimated as stages x (tile_m + tile_n) x tile_k "
                  "x element bytes\n");
    for (const std::string& e : errors) std::fprintf(stderr, "tcgemm: warning: %s\n", e.c_str());
    return errors.empty() ? 0 : 1;
  };
}

}  // namespace tcgemm::cli
