// Runs `tcgemm profile`: every provider and kernel on every problem of the sweep, verified and
// timed, then the table (and CSV/JSON).
#pragma once

#include <string>
#include <vector>

#include "profile_options.hpp"
#include "profile_report.hpp"

namespace tcgemm::cli {

// Exit code when profiling was asked for and there is no GPU.
inline constexpr int kNoDevice = 3;

struct ProfileRun {
  RunInfo info;
  std::string device_line;  // "device: NVIDIA H200 (sm_90, 132 SMs, L2 60 MiB), driver 13.0"
  std::vector<ProfileRow> rows;
  bool stopped_early = false;  // a CUDA error ended the run
};

// Runs every problem of the sweep and returns the rows (no printing but progress on stderr).
// no_device without a GPU; invalid_argument for a --device the machine does not have.
Result<ProfileRun> collect_profile(const ProfileOptions& options);

// Writes rows as CSV or JSON.
Status write_rows(const std::string& path, OutputFormat format, const ProfileRun& run);

// 0 when every row ran and no verification failed; 1 when one failed or errored; kNoDevice
// without a GPU; kUsageError for a --device the machine does not have.
int run_profile(const ProfileOptions& options);

// The default suite (bf16 TN: 4096^3, 8192^3, 4096x10240x8192, 4097^3, 16x8192x8192) with
// providers tcgemm and cublas, verified; prints the table. For `tcgemm main`.
int run_default_profile();

}  // namespace tcgemm::cli
