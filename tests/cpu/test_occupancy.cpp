// Occupancy arithmetic checked by hand, byte for byte, and the built-in device table.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "tcgemm/device.hpp"
#include "tcgemm/occupancy.hpp"

using namespace tcgemm;

namespace {

const DeviceProfile& profile(std::string_view name) {
  const DeviceProfile* d = find_device_profile(name);
  if (d == nullptr) throw std::runtime_error("missing profile " + std::string(name));
  return *d;
}

Occupancy occ(std::string_view device, int threads, int regs, int64_t dyn, int64_t stat = 0,
              int carveout = -1) {
  KernelResources k;
  k.threads_per_block = threads;
  k.regs_per_thread = regs;
  k.static_smem = stat;
  k.dynamic_smem = dyn;
  k.carveout_percent = carveout;
  Result<Occupancy> r = compute_occupancy(profile(device), k);
  EXPECT_TRUE(r.ok()) << r.status().to_string();
  return r.ok() ? r.value() : Occupancy{};
}

bool binds(const Occupancy& o, Limiter l) {
  return std::find(o.binding.begin(), o.binding.end(), l) != o.binding.end();
}

bool has_note(const Occupancy& o, std::string_view text) {
  return std::any_of(o.notes.begin(), o.notes.end(),
                     [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

}  // namespace

// The Blackwell kernel of "Grid 24 is not headroom": 230,400 B of shared memory and
// 155 registers x 256 threads; both resources allow exactly one CTA.
TEST(Occupancy, SeedKernelOnB200IsClosedAtOneCta) {
  Occupancy o = occ("b200", 256, 155, 230400);
  EXPECT_EQ(o.ctas_per_sm, 1);
  EXPECT_EQ(o.registers_per_cta, 40960);  // 155*32 = 4960 -> 5120 per warp, x 8 warps
  EXPECT_EQ(o.smem_per_cta, 230400 + 1024);
  EXPECT_EQ(o.limits.registers, 1);
  EXPECT_EQ(o.limits.shared_memory, 1);
  EXPECT_EQ(o.limits.threads, 8);
  EXPECT_EQ(o.limits.blocks, 32);
  EXPECT_TRUE(binds(o, Limiter::registers));
  EXPECT_TRUE(binds(o, Limiter::shared_memory));
  EXPECT_EQ(o.binding.size(), 2u);
  EXPECT_TRUE(o.closed);
  EXPECT_EQ(o.active_warps_per_sm, 8);
  EXPECT_DOUBLE_EQ(o.occupancy, 8.0 / 64.0);
  EXPECT_TRUE(has_note(o, "stage depth is the only latency hiding left")) << o.notes.front();
}

TEST(Occupancy, H200LargeTileBindsOnRegistersAndSharedMemory) {
  // 168 regs x 32 = 5376 = 21 units of 256; a sub-partition (16384 regs) holds 3 such warps,
  // so 12 warps per SM: one 12-warp CTA. 200 KB + 1 KB reservation leaves no room for a second.
  Occupancy o = occ("h200", 384, 168, 200 * 1024);
  EXPECT_EQ(o.registers_per_cta, 5376 * 12);
  EXPECT_EQ(o.smem_per_cta, 200 * 1024 + 1024);
  EXPECT_EQ(o.limits.registers, 1);
  EXPECT_EQ(o.limits.shared_memory, 1);
  EXPECT_EQ(o.limits.threads, 5);
  EXPECT_EQ(o.ctas_per_sm, 1);
  EXPECT_TRUE(o.closed);
}

TEST(Occupancy, SmallBlocksBindOnThreadsAndRegistersTogether) {
  // 32 regs x 2048 threads is exactly the register file, and 16 x 4 warps fills the 64 slots.
  Occupancy o = occ("h200", 128, 32, 0);
  EXPECT_EQ(o.ctas_per_sm, 16);
  EXPECT_EQ(o.limits.threads, 16);
  EXPECT_EQ(o.limits.registers, 16);
  EXPECT_EQ(o.limits.blocks, 32);
  EXPECT_EQ(o.limits.shared_memory, 228);  // 233472 / 1024 (the reservation alone)
  EXPECT_TRUE(binds(o, Limiter::threads));
  EXPECT_TRUE(binds(o, Limiter::registers));
  EXPECT_DOUBLE_EQ(o.occupancy, 1.0);

  Occupancy tiny = occ("h200", 32, 16, 0);  // one warp: the 32-block limit binds
  EXPECT_EQ(tiny.ctas_per_sm, 32);
  EXPECT_EQ(tiny.binding, std::vector<Limiter>{Limiter::blocks});
  EXPECT_FALSE(tiny.closed);
  EXPECT_DOUBLE_EQ(tiny.occupancy, 0.5);

  Occupancy ada = occ("l40s", 32, 16, 0);  // sm_89: 24 blocks, 48 warps
  EXPECT_EQ(ada.ctas_per_sm, 24);
  EXPECT_DOUBLE_EQ(ada.occupancy, 0.5);
}

TEST(Occupancy, RegistersAreAllocatedPerWarpInUnitsOf256) {
  // 255 x 32 = 8160 rounds to 8192 per warp: the whole register file for 8 warps.
  Occupancy o = occ("h200", 256, 255, 0);
  EXPECT_EQ(o.registers_per_cta, 65536);
  EXPECT_EQ(o.ctas_per_sm, 1);
  // 249..255 all round to the same allocation; 248 x 32 = 7936 is exactly 31 units.
  EXPECT_EQ(occ("h200", 256, 249, 0).registers_per_cta, 65536);
  EXPECT_EQ(occ("h200", 256, 248, 0).registers_per_cta, 7936 * 8);
  // 64 regs: 4 CTAs of 8 warps; 65 regs -> 2304 per warp, 7 warps per sub-partition -> 3 CTAs.
  EXPECT_EQ(occ("h200", 256, 64, 0).limits.registers, 4);
  EXPECT_EQ(occ("h200", 256, 65, 0).limits.registers, 3);
}

TEST(Occupancy, WarpsCannotSpanSubPartitions) {
  // 200 regs -> 6400 per warp; a 16384-register sub-partition holds 2 (not 2.56), so 8 warps
  // per SM: 4 two-warp CTAs, where dividing the whole file would say 5.
  EXPECT_EQ(occ("h200", 64, 200, 0).limits.registers, 4);
  EXPECT_EQ(occ("h200", 256, 200, 0).limits.registers, 1);
}

TEST(Occupancy, OverfullRegisterBlocksCannotLaunch) {
  // 1024 x 64 is exactly 65536 registers; one more register per thread cannot launch.
  EXPECT_EQ(occ("h200", 1024, 64, 0).ctas_per_sm, 1);
  Occupancy o = occ("h200", 1024, 65, 0);
  EXPECT_EQ(o.ctas_per_sm, 0);
  EXPECT_EQ(o.limits.registers, 0);
  EXPECT_TRUE(has_note(o, "cannot launch"));
  // 9 warps x 6400 = 57600 fits the block cap, but the launch check rounds to 12 warps
  // (76800 registers), so this block cannot launch either.
  EXPECT_EQ(occ("h200", 288, 200, 0).ctas_per_sm, 0);
}

TEST(Occupancy, SharedMemoryHasGranularityAndPerBlockReservation) {
  Occupancy one_byte = occ("h200", 128, 32, 1);
  EXPECT_EQ(one_byte.smem_per_cta, 128 + 1024);
  EXPECT_EQ(occ("h200", 128, 32, 0, 129).smem_per_cta, 256 + 1024);
  // 48 KB dynamic + 1 KB: 233472 / 50176 = 4 CTAs.
  Occupancy o = occ("h200", 128, 32, 48 * 1024);
  EXPECT_EQ(o.limits.shared_memory, 4);
  EXPECT_EQ(o.binding, std::vector<Limiter>{Limiter::shared_memory});
  EXPECT_TRUE(has_note(o, "would allow 5 CTAs/SM"));
  // The whole opt-in still fits one CTA: 227 KB + 1 KB = 228 KB.
  EXPECT_EQ(occ("h200", 128, 32, 227 * 1024).ctas_per_sm, 1);
  EXPECT_EQ(occ("a100", 128, 32, 163 * 1024).ctas_per_sm, 1);
  EXPECT_EQ(occ("rtx5090", 128, 32, 99 * 1024).ctas_per_sm, 1);
  EXPECT_EQ(occ("h200", 128, 32, 0).smem_carveout, 228 * 1024);
}

TEST(Occupancy, CarveoutPreferenceRoundsUpToASupportedSize) {
  // 50% of 228 KB is 114 KB, which rounds up to the 132 KB carve-out: 135168 / 21504 = 6.
  Occupancy half = occ("h200", 128, 32, 20 * 1024, 0, 50);
  EXPECT_EQ(half.smem_carveout, 132 * 1024);
  EXPECT_EQ(half.ctas_per_sm, 6);
  EXPECT_EQ(occ("h200", 128, 32, 20 * 1024).ctas_per_sm, 10);
  // A preference too small for one CTA is overridden by the smallest carve-out that holds it.
  Occupancy none = occ("h200", 128, 32, 20 * 1024, 0, 0);
  EXPECT_EQ(none.smem_carveout, 32 * 1024);
  EXPECT_EQ(none.ctas_per_sm, 1);
}

TEST(Occupancy, BarrierCountLimitsHopperWhenKnown) {
  KernelResources k{.threads_per_block = 128, .regs_per_thread = 32, .static_smem = 0,
                    .dynamic_smem = 0, .carveout_percent = -1, .block_barriers = 8};
  Result<Occupancy> r = compute_occupancy(profile("h200"), k);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->limits.barriers, 8);  // 2 x 32 block slots / 8 barriers
  EXPECT_EQ(r->ctas_per_sm, 8);
  EXPECT_EQ(r->binding, std::vector<Limiter>{Limiter::barriers});
  // Ampere has no such rule in the occupancy calculation.
  EXPECT_EQ(compute_occupancy(profile("a100"), k)->ctas_per_sm, 16);
}

TEST(Occupancy, InvalidInputsNameTheField) {
  const DeviceProfile& h200 = profile("h200");
  auto message = [&](KernelResources k) {
    Result<Occupancy> r = compute_occupancy(h200, k);
    EXPECT_EQ(r.status().code(), StatusCode::invalid_argument);
    return r.status().message();
  };
  KernelResources good{.threads_per_block = 256, .regs_per_thread = 64};
  ASSERT_TRUE(compute_occupancy(h200, good).ok());

  KernelResources k = good;
  k.threads_per_block = 2048;
  EXPECT_EQ(message(k), "--threads=2048 exceeds the 1024 threads a block may have on h200");
  k.threads_per_block = 0;
  EXPECT_NE(message(k).find("--threads=0"), std::string::npos);
  k = good;
  k.regs_per_thread = 0;
  EXPECT_NE(message(k).find("--regs=0"), std::string::npos);
  k.regs_per_thread = 256;
  EXPECT_NE(message(k).find("--regs=256 exceeds the 255 registers"), std::string::npos);
  k = good;
  k.dynamic_smem = 227 * 1024 + 1;
  EXPECT_NE(message(k).find("232449 bytes"), std::string::npos) << message(k);
  k.dynamic_smem = -1;
  EXPECT_NE(message(k).find("--smem=-1"), std::string::npos);
  k = good;
  k.static_smem = 200 * 1024;
  k.dynamic_smem = 30 * 1024;
  EXPECT_NE(message(k).find("static 204800 + dynamic 30720"), std::string::npos);
  k = good;
  k.carveout_percent = 101;
  EXPECT_NE(message(k).find("--carveout=101"), std::string::npos);

  DeviceProfile broken = h200;
  broken.max_threads_per_sm = 0;
  Result<Occupancy> r = compute_occupancy(broken, good);
  EXPECT_EQ(r.status().code(), StatusCode::invalid_argument);
  EXPECT_NE(r.status().message().find("max_threads_per_sm"), std::string::npos);
}

TEST(DeviceProfiles, EveryBuiltInProfileIsPresentAndSane) {
  const char* names[] = {"h100-sxm", "h100-pcie", "h200", "a100", "l40s", "rtx4090", "b200", "rtx5090"};
  EXPECT_EQ(builtin_device_profiles().size(), std::size(names));
  for (const char* name : names) {
    SCOPED_TRACE(name);
    const DeviceProfile* d = find_device_profile(name);
    ASSERT_NE(d, nullptr);
    EXPECT_NE(device_profile_names().find(name), std::string::npos);
    EXPECT_FALSE(d->description.empty());
    EXPECT_GT(d->sm_count, 0);
    EXPECT_GE(d->cc_major, 8);
    EXPECT_TRUE(d->max_threads_per_sm == 2048 || d->max_threads_per_sm == 1536);
    EXPECT_TRUE(d->max_blocks_per_sm == 32 || d->max_blocks_per_sm == 24);
    EXPECT_EQ(d->regs_per_sm, 65536);
    EXPECT_EQ(d->smem_per_block_optin + d->smem_reserved_per_block, d->smem_per_sm);
    EXPECT_GT(d->l2_bytes, 0);
    EXPECT_GT(d->boost_clock_mhz, 0);
    EXPECT_GT(d->mem_bandwidth_gbs, 0);
    EXPECT_GT(d->peak.tf32, 0);
    EXPECT_GT(d->peak.fp16, 0);
    EXPECT_GT(d->peak.int8, 0);
    EXPECT_GT(d->peak.fp32_simt, 0);
    EXPECT_GE(d->peak.fp16, d->peak.tf32);
    // Only Ampere lacks FP8; only the data-center parts have FP64 Tensor Cores.
    EXPECT_EQ(d->peak.fp8 > 0, d->cc_major * 10 + d->cc_minor >= 89);
    const bool datacenter = d->cc_minor == 0 && d->cc_major <= 10;
    EXPECT_EQ(d->peak.fp64_tc > 0, datacenter);
    EXPECT_FALSE(d->live);
    EXPECT_TRUE(compute_occupancy(*d, {.threads_per_block = 256, .regs_per_thread = 64}).ok());
  }
  EXPECT_EQ(find_device_profile("h300"), nullptr);
}

TEST(DeviceProfiles, PeakRateFollowsTheInputType) {
  const DeviceProfile& h200 = profile("h200");
  EXPECT_DOUBLE_EQ(peak_tflops(h200, DType::bf16), h200.peak.fp16);
  EXPECT_DOUBLE_EQ(peak_tflops(h200, DType::f16), h200.peak.fp16);
  EXPECT_DOUBLE_EQ(peak_tflops(h200, DType::tf32), h200.peak.tf32);
  EXPECT_DOUBLE_EQ(peak_tflops(h200, DType::f32), h200.peak.fp32_simt);
  EXPECT_DOUBLE_EQ(peak_tflops(h200, DType::e4m3), h200.peak.fp8);
  EXPECT_DOUBLE_EQ(peak_tflops(h200, DType::e5m2), h200.peak.fp8);
  EXPECT_DOUBLE_EQ(peak_tflops(h200, DType::s8), h200.peak.int8);
  EXPECT_DOUBLE_EQ(peak_tflops(h200, DType::f64), h200.peak.fp64_tc);
  // The DESIGN.md anchors: 989 dense BF16, 1979 FP8, 495 TF32.
  EXPECT_NEAR(peak_tflops(h200, DType::bf16), 989, 1);
  EXPECT_NEAR(peak_tflops(h200, DType::e4m3), 1979, 1);
  EXPECT_NEAR(peak_tflops(h200, DType::tf32), 495, 1);
  EXPECT_EQ(peak_tflops(profile("a100"), DType::e4m3), 0);
}
