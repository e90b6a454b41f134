// Rows of a profile run and their three renderings: an aligned table, CSV and JSON.
// Host-only: the CPU tests check the formats byte for byte.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace tcgemm::cli {

struct ProfileRow {
  std::string problem;       // describe_problem()
  int64_t m = 0, n = 0, k = 0;
  std::string a, b, c, d;    // "bf16:row"
  double alpha = 1, beta = 0;
  std::string provider;      // tcgemm | cublas
  std::string kernel;
  std::string disposition;   // passed | failed | not_verified | not_supported | error
  std::string detail;        // the reason (not_supported, failed, error) or the verification numbers
  double runtime_ms = 0;     // 0 when not timed
  double gflops = 0;
  double gbps = 0;
  double ratio_to_cublas = 0;  // cuBLAS time / this time in the same run; 0 when unknown
  // The tile order the persistent cluster kernels ran with (resolved: never "heuristic" or 0 once
  // the runner has set them); empty/0 where not recorded.
  std::string raster_order;
  int64_t swizzle_size = 0;
};

struct RunInfo {
  std::string date;          // ISO 8601, UTC
  std::string device;
  std::string driver;        // "13.0"
  std::string command_line;
};

// Aligned columns: Problem, Provider, Kernel, Disposition, Runtime(ms), GFLOP/s, GB/s,
// vs cuBLAS; then one "notes" line per row whose detail explains a non-pass.
void print_table(std::ostream& os, const std::vector<ProfileRow>& rows);

// RFC 4180 quoting: a field with a comma, quote or newline is quoted, quotes doubled.
std::string csv_field(std::string_view s);
// Header then one line per row; every row repeats date, device, driver and command line so a
// CSV concatenated from several runs stays self-describing.
void write_csv(std::ostream& os, const std::vector<ProfileRow>& rows, const RunInfo& info);
nlohmann::json to_json(const std::vector<ProfileRow>& rows, const RunInfo& info);

}  // namespace tcgemm::cli
