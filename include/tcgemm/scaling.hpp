// FP8 scaling recipes (host): per-tensor amax and scale, TransformerEngine-style delayed scaling,
// DeepGEMM-style fine-grained block scaling (1x128 activations, 128x128 weights) and OCP MX
// block scaling (32 elements share a power-of-two E8M0 scale).
//
// Two conventions, as the libraries that use them do:
//  - a per-tensor "scale" multiplies the data on the way in (codes = fp8(x * scale)); scale_inv
//    is what the GEMM epilogue multiplies by on the way out (TransformerEngine).
//  - a block "scale" is the dequantization multiplier (x ~= decode(code) * scale), stored per
//    block as DeepGEMM and MX store it.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "tcgemm/types.hpp"

namespace tcgemm {

// Largest finite value of an FP8 dtype (448 or 57344); 0 for any other dtype.
float fp8_max(DType fmt);
// Quantizes one value to an FP8 dtype with saturation (values past max clamp to +-max).
uint8_t fp8_encode(DType fmt, float x);
float fp8_decode(DType fmt, uint8_t code);

// Largest |x|. NaN anywhere gives NaN (so a scale computed from it is kept, not poisoned);
// an empty span gives 0.
float amax(std::span<const float> x);

// fp8_max * 2^-margin / amax, or previous_scale when amax is 0, negative or not finite. A finite
// amax so small the quotient overflows gives the largest finite float, never Inf.
float compute_scale(float amax, float fp8_max, int margin, float previous_scale);

// Quantizes x * scale element by element (saturating), the per-tensor recipe.
std::vector<uint8_t> quantize_per_tensor(std::span<const float> x, float scale, DType fmt);

enum class AmaxAlgo : uint8_t { max, most_recent };
std::string_view to_string(AmaxAlgo a);

// Delayed scaling in the spirit of TransformerEngine's recipe: the scale used for step t comes
// from amaxes observed at steps < t, kept in a fixed-length history (initialized to zeros, as
// TE does). With algo max the scale follows the largest amax in the window, so one outlier holds
// the scale down for amax_history_len updates; a NaN in the window keeps the previous scale
// until it rolls out.
class DelayedScaling {
 public:
  // fmt must be e4m3 or e5m2, margin >= 0, amax_history_len >= 1.
  static Result<DelayedScaling> create(DType fmt = DType::e4m3, int margin = 0,
                                       int amax_history_len = 1024, AmaxAlgo algo = AmaxAlgo::max);

  // Records one step's amax and recomputes the scale from the history.
  void update(float step_amax);
  float scale() const { return scale_; }
  float scale_inv() const { return 1.0f / scale_; }
  // The amax the current scale was computed from.
  float history_amax() const;
  // Oldest first.
  std::vector<float> history() const;
  DType format() const { return fmt_; }
  int margin() const { return margin_; }
  AmaxAlgo algo() const { return algo_; }

 private:
  DelayedScaling(DType fmt, int margin, int len, AmaxAlgo algo);
  DType fmt_;
  int margin_;
  AmaxAlgo algo_;
  std::vector<float> ring_;
  std::size_t next_ = 0;    // slot the next update writes
  std::size_t filled_ = 0;  // updates seen, capped at the history length
  float scale_ = 1.0f;
};

// How a block's scale is stored: a float (DeepGEMM 1x128 / 128x128) or an E8M0 exponent (MX).
enum class ScaleFormat : uint8_t { f32, e8m0 };

// E8M0: 8 exponent bits, bias 127, no sign or mantissa; 255 is NaN. Code 0 is 2^-127.
float decode_e8m0(uint8_t code);

struct BlockShape {
  int64_t rows = 1, cols = 128;
};
inline constexpr BlockShape kBlock1x128{1, 128};
inline constexpr BlockShape kBlock128x128{128, 128};
inline constexpr BlockShape kBlockMx{1, 32};

// A row-major rows x cols matrix in FP8 with one scale per block. Blocks at the right and bottom
// edges may be partial. Scales are row-major over the block grid, ceil(rows/block.rows) x
// ceil(cols/block.cols), and x[r][c] ~= decode(codes[r*cols+c]) * scales[block of (r,c)].
// A block holding NaN or Inf has a NaN scale (E8M0 code 255 for MX), so it dequantizes to NaN.
struct BlockScaledTensor {
  DType format = DType::e4m3;
  ScaleFormat scale_format = ScaleFormat::f32;
  int64_t rows = 0, cols = 0;
  BlockShape block;
  std::vector<uint8_t> codes;
  std::vector<float> scales;         // decoded scales, for either scale format
  std::vector<uint8_t> scale_codes;  // E8M0 codes when scale_format == e8m0, else empty

  int64_t scale_rows() const { return (rows + block.rows - 1) / block.rows; }
  int64_t scale_cols() const { return (cols + block.cols - 1) / block.cols; }
  float scale_at(int64_t r, int64_t c) const {
    return scales[static_cast<std::size_t>((r / block.rows) * scale_cols() + c / block.cols)];
  }
};

// Fine-grained scaling: each block's scale is amax / fp8_max (1 for an all-zero block), so the
// block's largest element lands on the format's max. x is row-major with x.size() == rows*cols.
Result<BlockScaledTensor> quantize_blockwise(std::span<const float> x, int64_t rows, int64_t cols,
                                             BlockShape block, DType fmt = DType::e4m3);

// OCP MX (v1.0): every 32 consecutive elements of a row share scale 2^e with
// e = floor(log2(amax)) - emax_elem (emax_elem = 8 for E4M3, 15 for E5M2), clamped to the E8M0
// range [-127, 127]; elements are then quantized with saturation, since x / 2^e can reach just
// under 2^(emax_elem+1), past the format's max. An all-zero block gets e = -127.
Result<BlockScaledTensor> quantize_mx(std::span<const float> x, int64_t rows, int64_t cols,
                                      DType fmt = DType::e4m3);

// The shared exponent MX gives a block of this amax, clamped to [-127, 127]; -127 for amax 0.
// floor(log2(amax)) is taken from the bits, so it is exact for subnormal amax too.
int mx_shared_exponent(float amax, DType fmt);

// Back to row-major float: decode(code) * scale. Checks that codes and scales match the shape.
Result<std::vector<float>> dequantize(const BlockScaledTensor& t);

}  // namespace tcgemm
