#include <cuda_runtime_api.h>

#include <iostream>

#include "commands.hpp"
#include "profile_runner.hpp"

namespace tcgemm::cli {

static bool gpu_present() {
  int n = 0;
  const bool ok = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
  (void)cudaGetLastError();
  return ok;
}

Runner add_main(CLI::App& app) {
  app.add_subcommand("main", "the README's main job: profile the default shapes against cuBLAS on a GPU, "
                             "or explain the default shape without one");
  return [] {
    if (!gpu_present()) {
      std::cout << "No CUDA GPU here: profiling needs a GPU. Explaining the default shape instead.\n\n";
      return run_default_explain();
    }
    return run_default_profile();
  };
}

}  // namespace tcgemm::cli
