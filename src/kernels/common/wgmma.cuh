// wgmma (sm_90a): warpgroup-wide asynchronous MMA with A and B read from shared memory through
// 64-bit matrix descriptors, the accumulator in registers.
#pragma once

#include <cstdint>

namespace tcgemm::dev {

// --- shared-memory matrix descriptor (PTX ISA "matrix descriptor", sm_90 format) -------------
// bits  0-13 start address >> 4      bits 16-29 leading-dimension byte offset >> 4
// bits 32-45 stride-dimension byte offset >> 4    bits 49-51 base offset (0: atoms 1024-aligned)
// bits 62-63 swizzle: 0 none, 1 = 128B, 2 = 64B, 3 = 32B
//
// With 128-byte swizzle, one "atom" is 8 rows of 128 bytes (1024 bytes):
//  K-major  (rows are M/N, 64 contiguous 16-bit K elements per row): SBO = byte distance between
//           consecutive 8-row groups along M/N; LBO is unused (the instruction's K=16 stays inside
//           the 128-byte row). Stepping K by 16 elements adds 32 bytes to the start address.
//  MN-major (rows are K, 64 contiguous 16-bit M/N elements per row): LBO = byte distance between
//           consecutive 64-element atoms along M/N; SBO = byte distance between 8-row groups along
//           K. Stepping K by 16 adds 16 rows = 2048 bytes.
// tf32 (4-byte elements, K-major only): a 128-byte row holds 32 K elements and the instruction's
// K = 8 is again 32 bytes, so the same byte arithmetic applies.
inline constexpr uint64_t kSwizzle128B = 1;

__device__ __forceinline__ uint64_t make_smem_desc_sw128(uint32_t smem_address, uint32_t lbo_bytes,
                                                         uint32_t sbo_bytes) {
  return static_cast<uint64_t>((smem_address & 0x3FFFF) >> 4) |
         (static_cast<uint64_t>((lbo_bytes & 0x3FFFF) >> 4) << 16) |
         (static_cast<uint64_t>((sbo_bytes & 0x3FFFF) >> 4) << 32) | (kSwizzle128B << 62);
}

// The start-address field is the low 14 bits; adding (bytes >> 4) moves the descriptor along the
// tile without rebuilding it (no carry can leave the field for addresses inside 256 KB).
__device__ __forceinline__ uint64_t desc_advance(uint64_t desc, uint32_t bytes) {
  return desc + static_cast<uint64_t>(bytes >> 4);
}

// --- ordering ------------------------------------------------------------------------------
// Before the first wgmma of a batch, and whenever accumulator registers were touched by other
// instructions since the last one.
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit_group() {
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}
// Waits until at most N committed groups of this warpgroup are still pending.
template <int N>
__device__ __forceinline__ void wgmma_wait_group() {
  static_assert(N >= 0 && N <= 7, "wgmma.wait_group takes 0..7");
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}

// Keeps the compiler from moving reads or writes of an accumulator register across a wgmma
// fence or wait (the hardware writes it asynchronously).
__device__ __forceinline__ void fence_operand(float& r) { asm volatile("" : "+f"(r)::"memory"); }

// --- the MMAs -------------------------------------------------------------------------------
// D(64xN, f32) = A(64xK) * B(KxN) + (scale_d ? D : 0), K = 16 for the 16-bit inputs, 8 for tf32.
// kTransA/kTransB: 0 = K-major operand in shared memory, 1 = M-major (A) / N-major (B); only
// 16-bit inputs may be MN-major (PTX ISA: the transpose immediates exist only for .f16/.bf16).
// tf32 operands are f32 in shared memory (4 bytes an element); see the tf32 note below.
enum class WgmmaInput { bf16, f16, tf32 };

// Bytes of one element in shared memory, and the instruction's K (always 32 bytes of a row).
template <WgmmaInput In>
inline constexpr int kWgmmaElementBytes = In == WgmmaInput::tf32 ? 4 : 2;
template <WgmmaInput In>
inline constexpr int kWgmmaK = 32 / kWgmmaElementBytes<In>;

// One struct per N, all three inputs: the asm strings differ only in the shape, the type and (for
// 16-bit inputs) the transpose immediates, so they are assembled by the macros below rather than
// written out per instance. N/2 f32 accumulators per thread; operand %NACC is desc_a, then desc_b,
// scale_d and the two transpose immediates.
template <int N, WgmmaInput In, int kTransA, int kTransB>
struct Wgmma;

// Register-name lists, 8 accumulators each (%0..%127).
#define TCGEMM_WGMMA_R0 "%0, %1, %2, %3, %4, %5, %6, %7"
#define TCGEMM_WGMMA_R1 "%8, %9, %10, %11, %12, %13, %14, %15"
#define TCGEMM_WGMMA_R2 "%16, %17, %18, %19, %20, %21, %22, %23"
#define TCGEMM_WGMMA_R3 "%24, %25, %26, %27, %28, %29, %30, %31"
#define TCGEMM_WGMMA_R4 "%32, %33, %34, %35, %36, %37, %38, %39"
#define TCGEMM_WGMMA_R5 "%40, %41, %42, %43, %44, %45, %46, %47"
#define TCGEMM_WGMMA_R6 "%48, %49, %50, %51, %52, %53, %54, %55"
#define TCGEMM_WGMMA_R7 "%56, %57, %58, %59, %60, %61, %62, %63"
#define TCGEMM_WGMMA_R8 "%64, %65, %66, %67, %68, %69, %70, %71"
#define TCGEMM_WGMMA_R9 "%72, %73, %74, %75, %76, %77, %78, %79"
#define TCGEMM_WGMMA_R10 "%80, %81, %82, %83, %84, %85, %86, %87"
#define TCGEMM_WGMMA_R11 "%88, %89, %90, %91, %92, %93, %94, %95"
#define TCGEMM_WGMMA_R12 "%96, %97, %98, %99, %100, %101, %102, %103"
#define TCGEMM_WGMMA_R13 "%104, %105, %106, %107, %108, %109, %110, %111"
#define TCGEMM_WGMMA_R14 "%112, %113, %114, %115, %116, %117, %118, %119"
#define TCGEMM_WGMMA_R15 "%120, %121, %122, %123, %124, %125, %126, %127"
#define TCGEMM_WGMMA_REGS8 TCGEMM_WGMMA_R0
#define TCGEMM_WGMMA_REGS16 TCGEMM_WGMMA_REGS8 ", " TCGEMM_WGMMA_R1
#define TCGEMM_WGMMA_REGS32 TCGEMM_WGMMA_REGS16 ", " TCGEMM_WGMMA_R2 ", " TCGEMM_WGMMA_R3
#define TCGEMM_WGMMA_REGS64 \
  TCGEMM_WGMMA_REGS32 ", " TCGEMM_WGMMA_R4 ", " TCGEMM_WGMMA_R5 ", " TCGEMM_WGMMA_R6 ", " TCGEMM_WGMMA_R7
#define TCGEMM_WGMMA_REGS72 TCGEMM_WGMMA_REGS64 ", " TCGEMM_WGMMA_R8
#define TCGEMM_WGMMA_REGS80 TCGEMM_WGMMA_REGS72 ", " TCGEMM_WGMMA_R9
#define TCGEMM_WGMMA_REGS88 TCGEMM_WGMMA_REGS80 ", " TCGEMM_WGMMA_R10
#define TCGEMM_WGMMA_REGS96 \
  TCGEMM_WGMMA_REGS64 ", " TCGEMM_WGMMA_R8 ", " TCGEMM_WGMMA_R9 ", " TCGEMM_WGMMA_R10 ", " TCGEMM_WGMMA_R11
#define TCGEMM_WGMMA_REGS128                                                                          \
  TCGEMM_WGMMA_REGS64 ", " TCGEMM_WGMMA_R8 ", " TCGEMM_WGMMA_R9 ", " TCGEMM_WGMMA_R10 ", " TCGEMM_WGMMA_R11 \
                      ", " TCGEMM_WGMMA_R12 ", " TCGEMM_WGMMA_R13 ", " TCGEMM_WGMMA_R14 ", " TCGEMM_WGMMA_R15

// Read-write accumulator operands d[i .. i+n).
#define TCGEMM_WGMMA_ACC8(i)                                                                     \
  "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), \
      "+f"(d[i + 6]), "+f"(d[i + 7])
#define TCGEMM_WGMMA_ACC16(i) TCGEMM_WGMMA_ACC8(i), TCGEMM_WGMMA_ACC8(i + 8)
#define TCGEMM_WGMMA_ACC32(i) TCGEMM_WGMMA_ACC16(i), TCGEMM_WGMMA_ACC16(i + 16)
#define TCGEMM_WGMMA_ACC64(i) TCGEMM_WGMMA_ACC32(i), TCGEMM_WGMMA_ACC32(i + 32)
#define TCGEMM_WGMMA_ACC72(i) TCGEMM_WGMMA_ACC64(i), TCGEMM_WGMMA_ACC8(i + 64)
#define TCGEMM_WGMMA_ACC80(i) TCGEMM_WGMMA_ACC64(i), TCGEMM_WGMMA_ACC16(i + 64)
#define TCGEMM_WGMMA_ACC88(i) TCGEMM_WGMMA_ACC80(i), TCGEMM_WGMMA_ACC8(i + 80)
#define TCGEMM_WGMMA_ACC96(i) TCGEMM_WGMMA_ACC64(i), TCGEMM_WGMMA_ACC32(i + 64)
#define TCGEMM_WGMMA_ACC128(i) TCGEMM_WGMMA_ACC64(i), TCGEMM_WGMMA_ACC64(i + 64)

// SHAPE: "m64nNk16" etc.; TYPES: ".bf16.bf16"; TAIL: the operands after the accumulators.
#define TCGEMM_WGMMA_ASM(NACC, SHAPE, TYPES, TAIL, SCALE)                                             \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, " SCALE ", 0;\nwgmma.mma_async.sync.aligned." SHAPE \
               ".f32" TYPES " {" TCGEMM_WGMMA_REGS##NACC "}, " TAIL ";\n}\n"                         \
               : TCGEMM_WGMMA_ACC##NACC(0)                                                            \
               : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(kTransA), "n"(kTransB))

// A, B, SCALE, TA, TB: the operand numbers NACC .. NACC+4 as strings.
#define TCGEMM_WGMMA_DEFINE(N, NACC, A, B, SCALE, TA, TB)                                              \
  template <WgmmaInput In, int kTransA, int kTransB>                                                   \
  struct Wgmma<N, In, kTransA, kTransB> {                                                              \
    static_assert(In != WgmmaInput::tf32 || (kTransA == 0 && kTransB == 0),                            \
                  "tf32 wgmma reads K-major A and B only");                                            \
    static constexpr int kAccumulators = NACC;                                                         \
    __device__ __forceinline__ static void mma(float (&d)[NACC], uint64_t desc_a, uint64_t desc_b,     \
                                               uint32_t scale_d) {                                     \
      if constexpr (In == WgmmaInput::bf16) {                                                          \
        TCGEMM_WGMMA_ASM(NACC, "m64n" #N "k16", ".bf16.bf16", A ", " B ", p, 1, 1, " TA ", " TB, SCALE); \
      } else if constexpr (In == WgmmaInput::f16) {                                                    \
        TCGEMM_WGMMA_ASM(NACC, "m64n" #N "k16", ".f16.f16", A ", " B ", p, 1, 1, " TA ", " TB, SCALE);   \
      } else {                                                                                         \
        TCGEMM_WGMMA_ASM(NACC, "m64n" #N "k8", ".tf32.tf32", A ", " B ", p, 1, 1", SCALE);              \
      }                                                                                                \
    }                                                                                                  \
  };

// tf32: A and B hold f32 bit patterns in shared memory, read as they are; both must be K-major (no
// transpose immediates exist for .tf32). Nothing rounds them to tf32 on the way: the Tensor Cores
// use sign, exponent and the top 10 mantissa bits, so the low 13 bits are in effect truncated
// (the device reference rounds with cvt.rna; the difference is ~8e-4 in norm, see the tests).
TCGEMM_WGMMA_DEFINE(16, 8, "%8", "%9", "%10", "%11", "%12")
TCGEMM_WGMMA_DEFINE(32, 16, "%16", "%17", "%18", "%19", "%20")
TCGEMM_WGMMA_DEFINE(64, 32, "%32", "%33", "%34", "%35", "%36")
TCGEMM_WGMMA_DEFINE(128, 64, "%64", "%65", "%66", "%67", "%68")
// 144, 160 and 176: the persistent kernel's grid-fitting tile widths (wgmma takes N in steps of 8).
TCGEMM_WGMMA_DEFINE(144, 72, "%72", "%73", "%74", "%75", "%76")
TCGEMM_WGMMA_DEFINE(160, 80, "%80", "%81", "%82", "%83", "%84")
TCGEMM_WGMMA_DEFINE(176, 88, "%88", "%89", "%90", "%91", "%92")
TCGEMM_WGMMA_DEFINE(192, 96, "%96", "%97", "%98", "%99", "%100")
TCGEMM_WGMMA_DEFINE(256, 128, "%128", "%129", "%130", "%131", "%132")

// --- a stage's k-blocks ----------------------------------------------------------------------
// A stage of kBlocks k-blocks as one committed group: kSteps wgmmas along K a k-block, the
// descriptors advanced a_step and b_step bytes a step and a_block and b_block bytes a k-block.
// accumulate == false (a tile's first stage) zeroes D on the first step. The accumulator fences on
// both sides keep the compiler off the registers while the Tensor Cores own them. Never under a
// run-time branch: ptxas serializes every wgmma of a kernel that has some in a path it cannot prove
// warp-uniform (C7520), so a split's short last stage is padded with zero k-blocks by its producer.
template <class Mma, int kSteps, int kBlocks>
__device__ __forceinline__ void mma_k_blocks(float (&acc)[Mma::kAccumulators], uint64_t desc_a, uint64_t desc_b,
                                             uint32_t a_step, uint32_t b_step, uint32_t a_block, uint32_t b_block,
                                             bool accumulate) {
#pragma unroll
  for (int i = 0; i < Mma::kAccumulators; ++i) fence_operand(acc[i]);
  wgmma_fence();
#pragma unroll
  for (int j = 0; j < kBlocks; ++j)
#pragma unroll
    for (int kk = 0; kk < kSteps; ++kk)
      Mma::mma(acc, desc_advance(desc_a, j * a_block + kk * a_step), desc_advance(desc_b, j * b_block + kk * b_step),
               (accumulate || j > 0 || kk > 0) ? 1u : 0u);
  wgmma_commit_group();
#pragma unroll
  for (int i = 0; i < Mma::kAccumulators; ++i) fence_operand(acc[i]);
}

// One k-block a stage.
template <class Mma, int kSteps>
__device__ __forceinline__ void mma_k_block(float (&acc)[Mma::kAccumulators], uint64_t desc_a, uint64_t desc_b,
                                            uint32_t a_step, uint32_t b_step, bool accumulate) {
  mma_k_blocks<Mma, kSteps, 1>(acc, desc_a, desc_b, a_step, b_step, 0, 0, accumulate);
}

}  // namespace tcgemm::dev
