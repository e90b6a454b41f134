// Our occupancy rules against the CUDA runtime's, on real kernels of many register and shared
// memory footprints. The kernels are never launched: only their compiled resource usage matters.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "gpu/gpu_test_util.hpp"
#include "tcgemm/device.hpp"
#include "tcgemm/occupancy.hpp"

using namespace tcgemm;

namespace {

// N values stay live through a dependent FMA chain, so the register count grows with N until
// the compiler's cap (or a launch bound) forces spills. S floats of static shared memory.
template <int N, int S>
__device__ __forceinline__ void pressure_body(float* out, const float* in, int iters) {
  float v[N];
#pragma unroll
  for (int i = 0; i < N; ++i) v[i] = in[threadIdx.x + i * blockDim.x];
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int i = 0; i < N; ++i) v[i] = fmaf(v[i], v[(i + 1) % N], v[(i + 7) % N]);
  }
  float s = 0;
#pragma unroll
  for (int i = 0; i < N; ++i) s += v[i];
  if constexpr (S > 0) {
    __shared__ float tile[S];
    for (int i = threadIdx.x; i < S; i += blockDim.x) tile[i] = s + i;
    __syncthreads();
    s += tile[(threadIdx.x * 7) % S];
  }
  extern __shared__ float dyn[];
  if (iters < 0) dyn[threadIdx.x] = s;  // reference the dynamic buffer without relying on it
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template <int N, int S>
__global__ void k_pressure(float* out, const float* in, int iters) {
  pressure_body<N, S>(out, in, iters);
}

template <int N>
__global__ void __launch_bounds__(1024) k_bounds1024(float* out, const float* in, int iters) {
  pressure_body<N, 0>(out, in, iters);
}
template <int N>
__global__ void __launch_bounds__(256, 2) k_bounds256x2(float* out, const float* in, int iters) {
  pressure_body<N, 0>(out, in, iters);
}
template <int N>
__global__ void __launch_bounds__(384, 1) k_bounds384x1(float* out, const float* in, int iters) {
  pressure_body<N, 0>(out, in, iters);
}

template <int N, int R>
__global__ void __maxnreg__(R) k_maxnreg(float* out, const float* in, int iters) {
  pressure_body<N, 0>(out, in, iters);
}

// One instance per carve-out, because the preference is an attribute of the function.
template <int Percent>
__global__ void k_carveout(float* out, const float* in, int iters) {
  pressure_body<24, 0>(out, in, iters);
}

struct Kernel {
  const char* name;
  const void* fn;
  int launch_bound;  // the declared __launch_bounds__ maximum; 0 when none
};

std::vector<Kernel> kernels() {
  return {
      {"pressure<4,0>", (const void*)k_pressure<4, 0>, 0},
      {"pressure<24,0>", (const void*)k_pressure<24, 0>, 0},
      {"pressure<48,0>", (const void*)k_pressure<48, 0>, 0},
      {"pressure<80,0>", (const void*)k_pressure<80, 0>, 0},
      {"pressure<120,0>", (const void*)k_pressure<120, 0>, 0},
      {"pressure<160,0>", (const void*)k_pressure<160, 0>, 0},
      {"pressure<200,0>", (const void*)k_pressure<200, 0>, 0},
      {"pressure<16,1000>", (const void*)k_pressure<16, 1000>, 0},       // 4000 B static
      {"pressure<64,8192>", (const void*)k_pressure<64, 8192>, 0},       // 32 KB static
      {"pressure<32,12288>", (const void*)k_pressure<32, 12288>, 0},     // 48 KB static
      {"bounds1024<64>", (const void*)k_bounds1024<64>, 1024},
      {"bounds256x2<160>", (const void*)k_bounds256x2<160>, 256},
      {"bounds384x1<200>", (const void*)k_bounds384x1<200>, 384},
      {"maxnreg<80,40>", (const void*)k_maxnreg<80, 40>, 0},
      {"maxnreg<120,96>", (const void*)k_maxnreg<120, 96>, 0},
      {"maxnreg<200,168>", (const void*)k_maxnreg<200, 168>, 0},
      {"maxnreg<240,232>", (const void*)k_maxnreg<240, 232>, 0},
  };
}

struct Row {
  std::string kernel;
  int threads = 0, regs = 0;
  int64_t static_smem = 0, dyn_smem = 0;
  int carveout = -1;
  int ours = -1, cuda = -1;  // -1: that side reported an error
  bool match = false;
};

// Compares one configuration. A block the runtime refuses outright (more threads than the
// function's register use allows) matches when our rules also say it cannot launch.
Row check(const DeviceProfile& dev, const Kernel& k, const cudaFuncAttributes& attr, int threads,
          int64_t dyn, int carveout) {
  Row r{k.name, threads, attr.numRegs, static_cast<int64_t>(attr.sharedSizeBytes), dyn, carveout};
  int n = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k.fn, threads, static_cast<size_t>(dyn)) ==
      cudaSuccess)
    r.cuda = n;
  else
    (void)cudaGetLastError();
  KernelResources res{.threads_per_block = threads, .regs_per_thread = attr.numRegs,
                      .static_smem = r.static_smem, .dynamic_smem = dyn, .carveout_percent = carveout};
  Result<Occupancy> o = compute_occupancy(dev, res);
  if (o.ok()) r.ours = o->ctas_per_sm;
  r.match = r.ours == r.cuda || (r.cuda == -1 && r.ours == 0 && threads > attr.maxThreadsPerBlock);
  return r;
}

std::vector<int64_t> dyn_sizes(int64_t room) {
  std::vector<int64_t> out;
  for (int64_t s : {int64_t{0}, int64_t{1}, int64_t{1000}, int64_t{4096}, int64_t{16384},
                    int64_t{40000}, int64_t{49153}, int64_t{65536}, int64_t{100000},
                    int64_t{131072}, int64_t{160000}, int64_t{200000}, room - 128, room})
    if (s >= 0 && s <= room) out.push_back(s);
  return out;
}

void report(const std::vector<Row>& rows, const DeviceProfile& dev, const char* csv_name) {
  int matched = 0;
  for (const Row& r : rows) matched += r.match;
  std::printf("occupancy check: %d/%zu configurations match cudaOccupancyMaxActiveBlocksPerMultiprocessor on %s\n",
              matched, rows.size(), dev.name.c_str());
  for (const Row& r : rows)
    if (!r.match)
      std::printf("  MISMATCH %s threads=%d regs=%d static=%lld dyn=%lld carveout=%d: ours=%d cuda=%d\n",
                  r.kernel.c_str(), r.threads, r.regs, static_cast<long long>(r.static_smem),
                  static_cast<long long>(r.dyn_smem), r.carveout, r.ours, r.cuda);
  if (const char* dir = std::getenv("TCGEMM_RESULTS_DIR"); dir != nullptr && *dir != '\0') {
    std::ofstream csv(std::string(dir) + "/" + csv_name);
    csv << "threads,regs,static_smem,dyn_smem,ours,cuda,match,kernel,carveout\n";
    for (const Row& r : rows)
      csv << r.threads << ',' << r.regs << ',' << r.static_smem << ',' << r.dyn_smem << ',' << r.ours
          << ',' << r.cuda << ',' << (r.match ? 1 : 0) << ',' << r.kernel << ',' << r.carveout << '\n';
    EXPECT_TRUE(csv.good()) << "could not write " << dir << "/" << csv_name;
  }
  EXPECT_EQ(matched, static_cast<int>(rows.size()));
}

// Opts the function into the whole per-block shared memory and returns its attributes.
cudaFuncAttributes prepare(const Kernel& k, const DeviceProfile& dev) {
  cudaFuncAttributes attr{};
  EXPECT_EQ(cudaFuncGetAttributes(&attr, k.fn), cudaSuccess) << k.name;
  const int room = static_cast<int>(dev.smem_per_block_optin - static_cast<int64_t>(attr.sharedSizeBytes));
  EXPECT_EQ(cudaFuncSetAttribute(k.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, room), cudaSuccess)
      << k.name;
  EXPECT_EQ(cudaFuncGetAttributes(&attr, k.fn), cudaSuccess) << k.name;
  return attr;
}

}  // namespace

TEST(OccupancyGpu, MatchesTheRuntimeOnRealKernels) {
  TCGEMM_REQUIRE_GPU(80);
  Result<DeviceProfile> dev = live_device_profile(0);
  ASSERT_TRUE(dev.ok()) << dev.status().to_string();

  const int block_sizes[] = {32, 64, 96, 128, 160, 192, 256, 288, 320, 384, 512, 640, 768, 1024};
  std::vector<Row> rows;
  for (const Kernel& k : kernels()) {
    const cudaFuncAttributes attr = prepare(k, *dev);
    std::printf("  %-20s numRegs=%3d static=%6zu maxThreadsPerBlock=%4d\n", k.name, attr.numRegs,
                attr.sharedSizeBytes, attr.maxThreadsPerBlock);
    const int64_t room = dev->smem_per_block_optin - static_cast<int64_t>(attr.sharedSizeBytes);
    for (int threads : block_sizes) {
      // Past a declared launch bound the launch is refused for a reason the resource rules do
      // not model; past the register-derived limit it is exactly what they model.
      if (k.launch_bound > 0 && threads > k.launch_bound) continue;
      for (int64_t dyn : dyn_sizes(room)) rows.push_back(check(*dev, k, attr, threads, dyn, -1));
    }
  }
  EXPECT_GE(rows.size(), 200u);
  report(rows, *dev, "occupancy_check.csv");
}

// The carve-out preference (cudaFuncAttributePreferredSharedMemoryCarveout) changes the shared
// memory per SM the rules assume; checked separately so a disagreement here is visible as such.
TEST(OccupancyGpu, MatchesTheRuntimeUnderACarveoutPreference) {
  TCGEMM_REQUIRE_GPU(80);
  Result<DeviceProfile> dev = live_device_profile(0);
  ASSERT_TRUE(dev.ok()) << dev.status().to_string();

  const std::vector<std::pair<int, Kernel>> carved = {
      {0, {"carveout<0>", (const void*)k_carveout<0>, 0}},
      {10, {"carveout<10>", (const void*)k_carveout<10>, 0}},
      {25, {"carveout<25>", (const void*)k_carveout<25>, 0}},
      {50, {"carveout<50>", (const void*)k_carveout<50>, 0}},
      {75, {"carveout<75>", (const void*)k_carveout<75>, 0}},
      {100, {"carveout<100>", (const void*)k_carveout<100>, 0}},
  };
  std::vector<Row> rows;
  for (const auto& [percent, k] : carved) {
    ASSERT_EQ(cudaFuncSetAttribute(k.fn, cudaFuncAttributePreferredSharedMemoryCarveout, percent),
              cudaSuccess);
    const cudaFuncAttributes attr = prepare(k, *dev);
    const int64_t room = dev->smem_per_block_optin - static_cast<int64_t>(attr.sharedSizeBytes);
    for (int threads : {64, 128, 256, 512})
      for (int64_t dyn : dyn_sizes(room)) rows.push_back(check(*dev, k, attr, threads, dyn, percent));
  }
  report(rows, *dev, "occupancy_check_carveout.csv");
}

TEST(LiveDevice, AgreesWithCudaGetDeviceProperties) {
  TCGEMM_REQUIRE_GPU(80);
  Result<DeviceProfile> live = live_device_profile(0);
  ASSERT_TRUE(live.ok()) << live.status().to_string();
  cudaDeviceProp p{};
  ASSERT_EQ(cudaGetDeviceProperties(&p, 0), cudaSuccess);
  const DeviceProfile& d = *live;
  EXPECT_TRUE(d.live);
  EXPECT_EQ(d.name, std::string("auto:") + p.name);
  EXPECT_EQ(d.cc_major, p.major);
  EXPECT_EQ(d.cc_minor, p.minor);
  EXPECT_EQ(d.sm_count, p.multiProcessorCount);
  EXPECT_EQ(d.warp_size, p.warpSize);
  EXPECT_EQ(d.max_threads_per_sm, p.maxThreadsPerMultiProcessor);
  EXPECT_EQ(d.max_threads_per_block, p.maxThreadsPerBlock);
  EXPECT_EQ(d.max_blocks_per_sm, p.maxBlocksPerMultiProcessor);
  EXPECT_EQ(d.regs_per_sm, p.regsPerMultiprocessor);
  EXPECT_EQ(d.max_regs_per_block, p.regsPerBlock);
  EXPECT_EQ(d.smem_per_sm, static_cast<int64_t>(p.sharedMemPerMultiprocessor));
  EXPECT_EQ(d.smem_per_block_optin, static_cast<int64_t>(p.sharedMemPerBlockOptin));
  EXPECT_EQ(d.smem_reserved_per_block, static_cast<int64_t>(p.reservedSharedMemPerBlock));
  EXPECT_EQ(d.l2_bytes, p.l2CacheSize);
  EXPECT_GT(d.boost_clock_mhz, 500);
  EXPECT_GT(d.mem_bandwidth_gbs, 100);
  std::printf("live profile: %s, sm_%d%d, %d SMs, %.0f MHz, %.0f GB/s, L2 %lld B, bf16 peak %.1f TFLOP/s\n",
              d.description.c_str(), d.cc_major, d.cc_minor, d.sm_count, d.boost_clock_mhz,
              d.mem_bandwidth_gbs, static_cast<long long>(d.l2_bytes), d.peak.fp16);

  // The live profile must agree with the built-in table where the table knows the part.
  if (std::string(p.name).find("H200") != std::string::npos) {
    const DeviceProfile* h200 = find_device_profile("h200");
    ASSERT_NE(h200, nullptr);
    EXPECT_EQ(d.peak.fp16, h200->peak.fp16);
    EXPECT_EQ(d.smem_per_sm, h200->smem_per_sm);
    EXPECT_EQ(d.smem_per_block_optin, h200->smem_per_block_optin);
    EXPECT_EQ(d.max_blocks_per_sm, h200->max_blocks_per_sm);
    EXPECT_EQ(d.l2_bytes, h200->l2_bytes);
  }
  EXPECT_EQ(live_device_profile(-1).status().code(), StatusCode::invalid_argument);
}

// The one GPU-library test that runs on a machine without a GPU: the failure must be a value.
TEST(LiveDevice, ReportsNoDeviceWithoutAGpu) {
  if (::tcgemm::test::gpu_sm() != 0) GTEST_SKIP() << "a GPU is present";
  Result<DeviceProfile> live = live_device_profile(0);
  EXPECT_EQ(live.status().code(), StatusCode::no_device);
  EXPECT_NE(live.status().message().find("h200"), std::string::npos) << live.status().message();
}
