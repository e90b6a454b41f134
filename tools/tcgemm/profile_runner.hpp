// Runs `tcgemm profile`: every provider and kernel on every problem of the sweep, verified and
// timed, then the table (and CSV/JSON).
#pragma once

#include "profile_options.hpp"

namespace tcgemm::cli {

// Exit code when profiling was asked for and there is no GPU.
inline constexpr int kNoDevice = 3;

// 0 when every row ran and no verification failed; 1 when one failed or errored; kNoDevice
// without a GPU; kUsageError for a --device the machine does not have.
int run_profile(const ProfileOptions& options);

// The default suite (bf16 TN: 4096^3, 8192^3, 4096x10240x8192, 4097^3, 16x8192x8192) with
// providers tcgemm and cublas, verified; prints the table. For `tcgemm main`.
int run_default_profile();

}  // namespace tcgemm::cli
