// The ws kernel's per-CTA timeline (sm90_wgmma_ws_set_trace): the stamps are written for every CTA,
// in order, and only while the trace is set. With TCGEMM_TRACE_SHAPES=MxNxK[,...] it also times
// gemm()'s launch at those shapes between untraced neighbours (rotated inputs, PDL as in a profile)
// and prints where the CTAs' time goes (bench/NOTES.md, session 11); TCGEMM_RESULTS_DIR keeps the CSV.
// The persistent cluster kernel stamps the same words (one CTA a row, its first and last units).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/gpu_test_util.hpp"
#include "kernels/sm90/split_k.hpp"
#include "gpu/sm90_test_util.cuh"
#include "kernels/sm90/wgmma_tma_ws.hpp"
#include "runtime/registry.hpp"
#include "tcgemm/gemm.hpp"

namespace tcgemm {
namespace {

struct Timeline {
  int ctas = 0;
  std::vector<uint64_t> words;
};

// Runs gemm() `before` times untraced, once traced, `after` times untraced, alternating two input
// sets (B past L2 for the shapes of interest); returns the traced launch's stamps.
// `kernel`: that registry entry's launch instead of gemm()'s pick (else TCGEMM_TRACE_KERNEL's).
Timeline trace_gemm(Shape s, int before, int after, bool traced = true, const char* kernel = nullptr) {
  GemmDesc g = tn_problem(DType::bf16, s);
  if (const char* tight = std::getenv("TCGEMM_TRACE_TIGHT"); tight != nullptr && *tight == '1')
    g.a.ld = g.b.ld = s.k;  // as stored, whatever TMA's 16-byte rule says: the misaligned paths
  const size_t na = stored_elements(extent_a(g), g.a.layout, g.a.ld), nb = stored_elements(extent_b(g), g.b.layout, g.b.ld);
  const size_t nd = stored_elements(extent_c(g), g.d.layout, g.d.ld);
  DeviceBuffer a0(na * 2), a1(na * 2), b0(nb * 2), b1(nb * 2), d(nd * 2);
  fill(a0.p, na, DType::bf16), fill(a1.p, na, DType::bf16), fill(b0.p, nb, DType::bf16), fill(b1.p, nb, DType::bf16);
  const int words = sm90_wgmma_ws_trace_words(), max_ctas = sm90_wgmma_ws_trace_ctas();
  DeviceBuffer stamps(static_cast<size_t>(words) * max_ctas * 8);
  EXPECT_EQ(cudaMemset(stamps.p, 0xff, static_cast<size_t>(words) * max_ctas * 8), cudaSuccess);
  cudaStream_t st = nullptr;
  EXPECT_EQ(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking), cudaSuccess);
  // TCGEMM_TRACE_KERNEL=<entry>: that registry entry's launch instead of gemm()'s pick.
  const char* by_name = kernel != nullptr ? kernel : std::getenv("TCGEMM_TRACE_KERNEL");
  const KernelEntry* entry = by_name != nullptr && *by_name != '\0' ? find_kernel(by_name) : nullptr;
  EXPECT_TRUE(by_name == nullptr || *by_name == '\0' || entry != nullptr) << "no entry " << by_name;
  DeviceBuffer ws(entry != nullptr && entry->workspace_bytes ? std::max<size_t>(entry->workspace_bytes(g), 16) : 16);
  auto run = [&](int i) {
    const bool odd = i % 2 != 0;
    if (entry == nullptr) {
      EXPECT_TRUE(gemm(g, odd ? a1.p : a0.p, odd ? b1.p : b0.p, nullptr, d.p, st).ok());
      return;
    }
    GemmArgs args;
    args.desc = g;
    args.a = odd ? a1.p : a0.p;
    args.b = odd ? b1.p : b0.p;
    args.d = d.p;
    args.workspace = ws.p;
    args.workspace_bytes = entry->workspace_bytes ? entry->workspace_bytes(g) : 0;
    args.stream = st;
    const Status s = entry->launch(args);
    EXPECT_TRUE(s.ok()) << s.message();
  };
  for (int i = 0; i < before; ++i) run(i);
  if (traced) sm90_wgmma_ws_set_trace(static_cast<uint64_t*>(stamps.p));
  run(before);
  sm90_wgmma_ws_set_trace(nullptr);
  for (int i = 0; i < after; ++i) run(before + 1 + i);
  EXPECT_EQ(cudaStreamSynchronize(st), cudaSuccess);
  (void)cudaStreamDestroy(st);
  Timeline t;
  t.words.resize(static_cast<size_t>(words) * max_ctas);
  EXPECT_EQ(cudaMemcpy(t.words.data(), stamps.p, t.words.size() * 8, cudaMemcpyDeviceToHost), cudaSuccess);
  while (t.ctas < max_ctas && t.words[static_cast<size_t>(t.ctas) * words] != ~0ull) ++t.ctas;
  return t;
}

double pct(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[static_cast<size_t>(q * (v.size() - 1) + 0.5)];
}

// One CTA's words in time order; `epilogue`: word 6 (the last store) after the last MMA, and the
// mainloop's SM cycles in word 7.
void expect_stamps_in_order(const uint64_t* x, int c, bool epilogue) {
  EXPECT_LE(x[0], x[1]) << "entry <= after the PDL wait, CTA " << c;
  EXPECT_LE(x[1], x[3]) << "after the wait <= first stage full, CTA " << c;
  EXPECT_LE(x[3], x[4]) << "first <= last stage full, CTA " << c;
  EXPECT_LE(x[4], x[5]) << "last stage full <= last MMA done, CTA " << c;
  EXPECT_LT(x[2], 1024u) << "an SM id, CTA " << c;
  if (!epilogue) return;
  EXPECT_LE(x[5], x[6]) << "last MMA done <= the last store read out, CTA " << c;
  EXPECT_GT(x[7], 0u) << "SM cycles over the mainloop, CTA " << c;
}

TEST(Sm90WsTrace, StampsEveryCtaInOrderOnlyWhileSet) {
  TCGEMM_REQUIRE_GPU(90);
  // 16x1024x1024: the decode path's 64x16 swap tile (16 tiles, K split); 300x520x1000: 3 x 3 128x256 tiles.
  for (Shape s : {Shape{16, 1024, 1024}, Shape{300, 520, 1000}}) {
    EXPECT_EQ(trace_gemm(s, 2, 2, false).ctas, 0) << shape_name(s) << ": an untraced launch wrote stamps";
    const Timeline t = trace_gemm(s, 2, 2);
    const int w = sm90_wgmma_ws_trace_words();
    const int tiles = s.m == 16 ? 16 : 9;
    ASSERT_GE(t.ctas, tiles) << shape_name(s) << ": CTAs traced";
    ASSERT_EQ(t.ctas % tiles, 0) << shape_name(s) << ": a whole number of splits of every tile";
    for (int c = 0; c < t.ctas; ++c) expect_stamps_in_order(&t.words[static_cast<size_t>(c) * w], c, false);
  }
}

// The persistent cluster kernel writes the same words: one row a CTA of the persistent grid (at
// most one a resident CTA), each stamp in order, and none while the trace is unset.
TEST(Sm90WsTrace, PersistentClusterStampsInOrder) {
  TCGEMM_REQUIRE_GPU(90);
  const Shape s{1000, 1504, 776};  // 8 x 6 tiles of 128x256: 24 pair-tiles, K in 13 blocks (a tail)
  const char* name = "sm90_wgmma_bf16_128x256x64_s3_pc2x1_tmastore";
  ASSERT_NE(find_kernel(name), nullptr) << name;
  EXPECT_EQ(trace_gemm(s, 1, 1, false, name).ctas, 0) << "an untraced launch wrote stamps";
  const Timeline t = trace_gemm(s, 1, 1, true, name);
  const int w = sm90_wgmma_ws_trace_words();
  ASSERT_EQ(t.ctas, 48) << "one row a CTA: 24 clusters of 2";
  for (int c = 0; c < t.ctas; ++c) expect_stamps_in_order(&t.words[static_cast<size_t>(c) * w], c, true);
}

TEST(Sm90WsTrace, TimelineOfRequestedShapes) {
  TCGEMM_REQUIRE_GPU(90);
  const char* env = std::getenv("TCGEMM_TRACE_SHAPES");
  if (env == nullptr || *env == '\0') GTEST_SKIP() << "set TCGEMM_TRACE_SHAPES=MxNxK[,...] to trace gemm() at those shapes";
  std::stringstream list(env);
  for (std::string item; std::getline(list, item, ',');) {
    Shape s{};
    ASSERT_EQ(std::sscanf(item.c_str(), "%ldx%ldx%ld", &s.m, &s.n, &s.k), 3) << "bad shape '" << item << "'";
    // TCGEMM_TRACE_BEFORE: untraced launches first (default 40); thousands put the traced one at a
    // profile's sustained clocks rather than a short burst's.
    const char* before_env = std::getenv("TCGEMM_TRACE_BEFORE");
    const int before = before_env != nullptr && std::atoi(before_env) > 0 ? std::atoi(before_env) : 40;
    // TCGEMM_TRACE_SPLITS: a forced split count (as profile's --split_k_slices) for every launch.
    const char* splits_env = std::getenv("TCGEMM_TRACE_SPLITS");
    set_forced_split_k(splits_env != nullptr ? std::atoi(splits_env) : 0);
    const Timeline t = trace_gemm(s, before, 4);
    set_forced_split_k(0);
    ASSERT_GT(t.ctas, 0) << item << ": gemm() ran no traced kernel (ws, swap-steal, persistent cluster)";
    const int w = sm90_wgmma_ws_trace_words();
    uint64_t t0 = ~0ull, tend = 0;
    for (int c = 0; c < t.ctas; ++c) {
      t0 = std::min(t0, t.words[static_cast<size_t>(c) * w]);
      tend = std::max(tend, t.words[static_cast<size_t>(c) * w + 5]);
    }
    std::vector<double> entry, wait, first, stream, done, spare, head, extra, tail, mhz;
    std::string csv = "cta,sm,entry_us,go_us,first_us,last_us,done_us,own_us\n";
    for (int c = 0; c < t.ctas; ++c) {
      const uint64_t* x = &t.words[static_cast<size_t>(c) * w];
      auto us = [&](int i) { return (static_cast<double>(x[i]) - static_cast<double>(t0)) * 1e-3; };
      entry.push_back(us(0));
      wait.push_back(us(1) - us(0));
      first.push_back(us(3) - us(1));
      stream.push_back(us(4) - us(3));
      done.push_back(us(5));
      spare.push_back((static_cast<double>(tend) - static_cast<double>(x[5])) * 1e-3);
      if (x[7] != ~0ull && x[7] != 0 && x[5] > x[3]) mhz.push_back(static_cast<double>(x[7]) * 1e3 / static_cast<double>(x[5] - x[3]));
      if (x[6] != ~0ull && x[6] != 0) {
        head.push_back(us(6) - us(3));   // swap-steal: its own tile's head stored
        extra.push_back(us(6) - us(1));  // in-kernel copies: the split's copies all done
        tail.push_back(us(6) - us(5));   // split-K slabs and the cluster kernel: the epilogue
      }
      char line[192];
      std::snprintf(line, sizeof line, "%d,%llu,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n", c, static_cast<unsigned long long>(x[2]),
                    us(0), us(1), us(3), us(4), us(5), x[6] != ~0ull && x[6] != 0 ? us(6) : -1.0);
      csv += line;
    }
    std::printf("[trace] %s: %d CTAs, first entry to last MMA %.2f us (min / median / max, us)\n", item.c_str(), t.ctas,
                (static_cast<double>(tend) - static_cast<double>(t0)) * 1e-3);
    auto row = [&](const char* what, const std::vector<double>& v) {
      std::printf("[trace]   %-34s %8.2f %8.2f %8.2f\n", what, pct(v, 0), pct(v, 0.5), pct(v, 1));
    };
    row("entry (from the first CTA's)", entry);
    row("PDL wait", wait);
    row("wait -> first stage full", first);
    row("first -> last stage full", stream);
    if (!head.empty()) row("first -> head part stored (steal)", head);
    if (!extra.empty()) row("wait -> own stamp (copies met)", extra);
    if (!tail.empty()) row("last MMA -> own stamp (epilogue)", tail);
    row("last MMA done", done);
    if (!mhz.empty()) row("SM clock, first stage -> last MMA (MHz)", mhz);
    row("idle before the last CTA ends", spare);
    if (const char* dir = std::getenv("TCGEMM_RESULTS_DIR"); dir != nullptr && *dir != '\0')
      std::ofstream(std::string(dir) + "/trace_" + item + ".csv") << csv;
  }
}

}  // namespace
}  // namespace tcgemm
