// Subcommands of the `tcgemm` tool. Each adds itself to the app and returns what to run when
// the user chose it.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

namespace tcgemm::cli {

using Runner = std::function<int()>;

// Exit code for bad input (unknown flag value, out-of-range size): a one-line error, never a crash.
inline constexpr int kUsageError = 2;

Runner add_explain(CLI::App& app);
Runner add_occupancy(CLI::App& app);
Runner add_main(CLI::App& app);
Runner add_bench(CLI::App& app);
Runner add_profile(CLI::App& app);
Runner add_kernels(CLI::App& app);
Runner add_bandwidth(CLI::App& app);
Runner add_tune(CLI::App& app);
Runner add_ingest(CLI::App& app);

// `explain` on the default shape (4096^3 bf16, A row, B column) on the h200 profile.
int run_default_explain();

// Prints "tcgemm: error: <msg>" on stderr and returns kUsageError.
int usage_error(const std::string& msg);

}  // namespace tcgemm::cli
