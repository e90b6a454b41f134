#include <cstdio>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "runtime/bandwidth.hpp"

namespace tcgemm::cli {
namespace {

struct BandwidthFlags {
  int64_t bytes = 134217728;
  std::vector<int> grids;
  int iterations = 60;
};

int run_bandwidth(const BandwidthFlags& f) {
  BandwidthRequest r;
  r.bytes = f.bytes;
  r.grids = f.grids;
  r.iterations = f.iterations;
  Result<std::vector<BandwidthPoint>> pts = measure_bandwidth(r);
  if (!pts.ok()) {
    if (pts.status().code() == StatusCode::no_device) {
      std::printf("tcgemm bandwidth: %s\n", pts.status().message().c_str());
      return 1;
    }
    return usage_error(pts.status().message());
  }
  std::printf("%-7s %12s %8s %11s %14s\n", "stream", "bytes", "CTAs", "median us", "TB/s (r + w)");
  for (const BandwidthPoint& p : *pts)
    std::printf("%-7s %12lld %8d %11.2f %14.3f\n", stream_kind_name(p.kind), static_cast<long long>(p.bytes), p.ctas,
                p.median_us, p.traffic_tbps);
  return 0;
}

}  // namespace

Runner add_bandwidth(CLI::App& app) {
  auto f = std::make_shared<BandwidthFlags>();
  CLI::App* cmd = app.add_subcommand(
      "bandwidth", "measure the GPU's read, write and copy rates (the memory floor's denominator), timed as profile times a GEMM");
  cmd->add_option("--bytes", f->bytes, "bytes a launch streams (a copy moves twice this)")->capture_default_str();
  cmd->add_option("--grids", f->grids, "CTA counts to try (default: 128 and 1, 2, 4, 8 CTAs a SM)")->delimiter(',');
  cmd->add_option("--iterations", f->iterations, "timed launches each")->capture_default_str();
  return [f] { return run_bandwidth(*f); };
}

}  // namespace tcgemm::cli
