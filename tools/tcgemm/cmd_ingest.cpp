#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "kernels/sm90/ingest_probe.hpp"

namespace tcgemm::cli {
namespace {

struct IngestFlags {
  int64_t m = 256, n = 512, k = 16384;
  std::vector<std::string> tiles{"64x64"};
  std::vector<int> splits{4};
  std::vector<int> stages{8};
  std::vector<std::string> modes{"tma", "mma", "both"};
  std::vector<std::string> stage_layouts{"1"};
  std::vector<int> mma_depths{1};
  std::vector<int> k_ways{1};
  int iterations = 20;
};

bool parse_tile(const std::string& s, int& tm, int& tn) {
  const auto x = s.find('x');
  if (x == std::string::npos) return false;
  try {
    tm = std::stoi(s.substr(0, x));
    tn = std::stoi(s.substr(x + 1));
  } catch (...) {
    return false;
  }
  return true;
}

int run_ingest(const IngestFlags& f) {
  // Every point is checked before the first runs, so a typo fails at once, not after minutes.
  std::vector<IngestRequest> reqs;
  for (const std::string& t : f.tiles)
    for (int sp : f.splits)
      for (int st : f.stages)
        for (const std::string& lay : f.stage_layouts)
          for (int depth : f.mma_depths)
            for (int ways : f.k_ways)
              for (const std::string& mo : f.modes) {
                IngestRequest r;
                if (lay != "1" && lay != "2" && lay != "2c")
                  return usage_error("--stage-layouts: '" + lay + "' is not 1, 2 or 2c");
                r.stage_k_blocks = lay == "1" ? 1 : 2;
                r.chunked = lay == "2c";
                r.mma_depth = depth;
                r.k_ways = ways;
                r.m = f.m, r.n = f.n, r.k = f.k, r.splits = sp, r.stages = st, r.iterations = f.iterations;
                if (!parse_tile(t, r.tile_m, r.tile_n)) return usage_error("--tiles: '" + t + "' is not MxN");
                Result<IngestMode> mode = parse_ingest_mode(mo);
                if (!mode.ok()) return usage_error("--modes: " + mode.status().message());
                r.mode = *mode;
                if (std::string e = check_ingest_request(r); !e.empty()) return usage_error(e);
                reqs.push_back(r);
              }
  bool header = false;
  for (const IngestRequest& r : reqs) {
    Result<IngestPoint> p = measure_ingest(r);
    if (!p.ok()) {
      std::printf("tcgemm ingest: %s\n", p.status().message().c_str());
      return p.status().code() == StatusCode::no_device || p.status().code() == StatusCode::unsupported ? 1 : kUsageError;
    }
    if (!header) {
      std::printf("ingest probe, %lldx%lldx%lld bf16 (K-major A and B), k-blocks of 64; 'tensor-core' is the k-block's MMAs at "
                  "2048 FMA/clk an SM\n",
                  static_cast<long long>(f.m), static_cast<long long>(f.n), static_cast<long long>(f.k));
      std::printf("%-5s %8s %6s %5s %5s %4s %6s %5s %8s %10s %12s %12s %9s %7s\n", "mode", "tile", "stages", "stage",
                  "depth", "ways", "splits", "CTAs", "k-blocks",
                  "median us", "clk/k-block", "tensor-core", "B/clk/SM", "MHz");
      header = true;
    }
    const std::string tile = std::to_string(r.tile_m) + "x" + std::to_string(r.tile_n);
    const char* layout = r.stage_k_blocks == 1 ? "1" : r.chunked ? "2c" : "2";
    std::printf("%-5s %8s %6d %5s %5d %4d %6d %5d %8d %10.2f %12.1f %12d %9.1f %7.0f\n", ingest_mode_name(r.mode),
                tile.c_str(), r.stages, layout, r.mma_depth, r.k_ways, r.splits, p->ctas, p->k_blocks, p->median_us, p->cycles_per_k_block,
                r.tile_m * r.tile_n * 64 / 2048, p->bytes_per_clock_sm, p->sm_mhz);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

Runner add_ingest(CLI::App& app) {
  auto f = std::make_shared<IngestFlags>();
  CLI::App* cmd = app.add_subcommand(
      "ingest", "measure an SM's operand ingest: a split-K tile grid streaming its TMA loads alone, its MMAs alone, or both "
                "(cycles a k-block per CTA)");
  cmd->add_option("--m", f->m, "rows of A (tiles of tile_m)")->capture_default_str();
  cmd->add_option("--n", f->n, "rows of B (tiles of tile_n)")->capture_default_str();
  cmd->add_option("--k", f->k, "the shared dimension, a multiple of 64 x splits")->capture_default_str();
  cmd->add_option("--tiles", f->tiles, "tiles MxN: 64x64, 64x128, 128x64, 128x128, 128x256")->delimiter(',')->capture_default_str();
  cmd->add_option("--splits", f->splits, "K slices (grid z)")->delimiter(',')->capture_default_str();
  cmd->add_option("--stages", f->stages, "ring stages")->delimiter(',')->capture_default_str();
  cmd->add_option("--modes", f->modes, "tma (loads alone), mma (MMAs alone on resident operands), both")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--stage-layouts", f->stage_layouts,
                  "a stage: 1 (one k-block of 64), 2 (two, a box each), 2c (two in one 3D box an operand)")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--mma-depths", f->mma_depths, "stages whose MMAs stay in flight before the oldest is released (1-3)")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--k-ways", f->k_ways, "consumer warpgroups a 64 rows taking stages in turn (1; 2 at N = 64)")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--iterations", f->iterations, "timed launches each")->capture_default_str();
  return [f] { return run_ingest(*f); };
}

}  // namespace tcgemm::cli
