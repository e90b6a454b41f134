// `tcgemm profile` flags: parsing, validation and sweep expansion. Host-only (no CUDA, no CLI11)
// so the CPU tests can exercise every rule.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tcgemm/problem.hpp"

namespace tcgemm::cli {

// One flag `tcgemm profile` accepts, in cutlass_profiler's spelling (without the leading --).
struct FlagSpec {
  std::string_view name;
  std::string_view help;
};
const std::vector<FlagSpec>& profile_flag_specs();

// "a,b,c", "start:end:step" (end inclusive, as cutlass_profiler) or "start:end" (step 1), and
// comma-separated mixes of those. Every value must be >= min_value. Errors name the flag.
Result<std::vector<int64_t>> expand_int_sweep(std::string_view flag, std::string_view text,
                                              int64_t min_value);
// A single integer (flags where a sweep makes no sense: --seed, --device, iterations).
Result<int64_t> parse_int(std::string_view flag, std::string_view text, int64_t min_value);
Result<std::vector<double>> parse_float_list(std::string_view flag, std::string_view text);
Result<bool> parse_bool(std::string_view flag, std::string_view text);

struct OperandSpec {
  DType dtype = DType::bf16;
  Layout layout = Layout::row;
  bool layout_given = false;
};
// "bf16:row", "f16:column", "fe4m3:t", or a bare dtype ("bf16").
Result<OperandSpec> parse_operand(std::string_view flag, std::string_view text);

// '*' matches any run of characters, '?' any one character; the whole name must match.
bool glob_match(std::string_view pattern, std::string_view name);
// A comma-separated list of patterns. A pattern with '*' or '?' is a glob; one without is a
// substring, as cutlass_profiler's --kernels treats plain names.
bool kernel_filter_matches(std::string_view filter, std::string_view name);

struct Distribution {
  double min = -1.0;
  double max = 1.0;
};
// "uniform,min:-1,max:1" (min/max in any order, either may be left at its default).
Result<Distribution> parse_dist(std::string_view text);

// One point of the sweep: a full problem description and the knobs the runner sets process-wide
// before running it.
struct ProfileProblem {
  GemmDesc desc;
  int64_t split_k_slices = 0;  // 0: the split-K kernels choose; n: forced to n slices
  // Tile order of the persistent cluster kernels (set_pc_raster): heuristic | along_m | along_n,
  // and the group size in cluster rows or tile columns (0: the kernels' default).
  std::string raster_order = "heuristic";
  int64_t swizzle_size = 0;
};

enum class OutputFormat { none, csv, json };

struct ProfileOptions {
  std::vector<ProfileProblem> problems;  // the cartesian product of every swept flag
  bool provider_tcgemm = true;
  bool provider_cublas = true;
  std::string kernels;                   // empty: the kernel gemm() picks
  // --split_k_mode=serial: split-K runs in-kernel (the *_ws_serial_splitk kernels: partial tiles
  // handed over through a workspace, fixed-order fix-up) instead of parallel (slabs + a reduce).
  bool split_k_serial = false;
  bool verification_enabled = true;
  bool verify_with_device = true;
  bool verify_with_cublas = true;
  std::optional<double> epsilon;         // elementwise tolerance override
  int64_t warmup_iterations = 10;
  int64_t profiling_iterations = 100;    // 0: run for profiling_duration_ms instead
  double profiling_duration_ms = 10.0;
  // NOTES: timed one after another, the candidate measured first (after the long warm-up) ran 2-4%
  // faster than interleaved, and the next one slower; board heat and verification did not move it
  // (bench/NOTES.md, run 64). So each is timed in this many windows, interleaved across the
  // candidates, pooled into one median.
  int profiling_rounds = 4;
  uint64_t seed = 2019;
  Distribution dist;
  std::string output;
  OutputFormat output_format = OutputFormat::none;
  int64_t device = 0;
  std::vector<std::string> notes;        // one line per flag that is parsed but not (fully) effective
  std::string command_line;              // canonical re-spelling of the flags given
};

// At most this many problems in one sweep: a typo such as --m=1:100000 should fail fast.
inline constexpr std::size_t kMaxProblems = 100000;
inline constexpr int64_t kMaxIterations = 100000;
inline constexpr int64_t kMaxRounds = 64;

// `flags` maps a flag name (without --) to its value as typed. Unknown names are an error.
// The error Status's message names the flag: "--m: ...".
Result<ProfileOptions> parse_profile_options(const std::map<std::string, std::string>& flags);

// "m=4096 n=4096 k=4096 A=bf16:row B=bf16:column D=bf16:row" (alpha/beta when not 1/0).
std::string describe_problem(const ProfileProblem& p);
// "bf16:row"
std::string operand_string(const MatrixDesc& m);

}  // namespace tcgemm::cli
