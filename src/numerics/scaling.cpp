#include "tcgemm/scaling.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <string>

#include "tcgemm/fp8.hpp"

namespace tcgemm {

float fp8_max(DType fmt) {
  if (fmt == DType::e4m3) return fp8::kE4M3Max;
  if (fmt == DType::e5m2) return fp8::kE5M2Max;
  return 0.0f;
}

uint8_t fp8_encode(DType fmt, float x) {
  return fmt == DType::e5m2 ? fp8::encode_e5m2(x, true) : fp8::encode_e4m3(x, true);
}

float fp8_decode(DType fmt, uint8_t code) {
  return fmt == DType::e5m2 ? fp8::decode_e5m2(code) : fp8::decode_e4m3(code);
}

float amax(std::span<const float> x) {
  float m = 0.0f;
  for (float v : x) {
    if (std::isnan(v)) return std::numeric_limits<float>::quiet_NaN();
    m = std::max(m, std::fabs(v));
  }
  return m;
}

float compute_scale(float a, float max_value, int margin, float previous_scale) {
  if (!(a > 0.0f) || !std::isfinite(a)) return previous_scale;
  const float s = std::ldexp(max_value, -margin) / a;
  return std::isfinite(s) ? s : FLT_MAX;
}

std::vector<uint8_t> quantize_per_tensor(std::span<const float> x, float scale, DType fmt) {
  std::vector<uint8_t> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = fp8_encode(fmt, x[i] * scale);
  return out;
}

std::string_view to_string(AmaxAlgo a) { return a == AmaxAlgo::max ? "max" : "most_recent"; }

Result<DelayedScaling> DelayedScaling::create(DType fmt, int margin, int len, AmaxAlgo algo) {
  if (!is_fp8(fmt))
    return Status::invalid("delayed scaling needs an FP8 format (e4m3 or e5m2), got " +
                           std::string(to_string(fmt)));
  if (margin < 0) return Status::invalid("margin must be >= 0 (got " + std::to_string(margin) + ")");
  if (len < 1)
    return Status::invalid("amax_history_len must be >= 1 (got " + std::to_string(len) + ")");
  return DelayedScaling(fmt, margin, len, algo);
}

DelayedScaling::DelayedScaling(DType fmt, int margin, int len, AmaxAlgo algo)
    : fmt_(fmt), margin_(margin), algo_(algo), ring_(static_cast<std::size_t>(len), 0.0f) {}

void DelayedScaling::update(float step_amax) {
  ring_[next_] = step_amax;
  next_ = (next_ + 1) % ring_.size();
  filled_ = std::min(filled_ + 1, ring_.size());
  scale_ = compute_scale(history_amax(), fp8_max(fmt_), margin_, scale_);
}

float DelayedScaling::history_amax() const {
  if (filled_ == 0) return 0.0f;
  if (algo_ == AmaxAlgo::most_recent) return ring_[(next_ + ring_.size() - 1) % ring_.size()];
  return amax(ring_);  // unfilled slots hold 0 and cannot win
}

std::vector<float> DelayedScaling::history() const {
  std::vector<float> out;
  out.reserve(ring_.size());
  for (std::size_t i = 0; i < ring_.size(); ++i) out.push_back(ring_[(next_ + i) % ring_.size()]);
  return out;
}

float decode_e8m0(uint8_t code) {
  if (code == 255) return std::numeric_limits<float>::quiet_NaN();
  return std::ldexp(1.0f, static_cast<int>(code) - 127);
}

namespace {

Status check_matrix(std::span<const float> x, int64_t rows, int64_t cols, DType fmt) {
  if (!is_fp8(fmt))
    return Status::invalid("block scaling quantizes to e4m3 or e5m2, not " + std::string(to_string(fmt)));
  if (rows < 1 || cols < 1)
    return Status::invalid("matrix must be at least 1x1 (got " + std::to_string(rows) + "x" +
                           std::to_string(cols) + ")");
  // rows*cols cannot overflow: both are checked against the span's size first.
  const auto n = static_cast<int64_t>(x.size());
  if (rows > n || cols > n || rows * cols != n)
    return Status::invalid("input holds " + std::to_string(x.size()) + " floats, a " + std::to_string(rows) +
                           "x" + std::to_string(cols) + " row-major matrix needs rows*cols");
  return Status::success();
}

BlockScaledTensor make_tensor(int64_t rows, int64_t cols, BlockShape block, DType fmt, ScaleFormat sf) {
  BlockScaledTensor t;
  t.format = fmt;
  t.scale_format = sf;
  t.rows = rows;
  t.cols = cols;
  t.block = block;
  t.codes.resize(static_cast<std::size_t>(rows * cols));
  t.scales.resize(static_cast<std::size_t>(t.scale_rows() * t.scale_cols()));
  if (sf == ScaleFormat::e8m0) t.scale_codes.resize(t.scales.size());
  return t;
}

// Visits every block: f(block_row, block_col, r0, r1, c0, c1) with half-open element ranges.
template <class F>
void for_each_block(const BlockScaledTensor& t, F&& f) {
  for (int64_t br = 0; br < t.scale_rows(); ++br)
    for (int64_t bc = 0; bc < t.scale_cols(); ++bc) {
      const int64_t r0 = br * t.block.rows, c0 = bc * t.block.cols;
      f(br, bc, r0, std::min(r0 + t.block.rows, t.rows), c0, std::min(c0 + t.block.cols, t.cols));
    }
}

// Block amax, or NaN when the block holds NaN or Inf.
float block_amax(std::span<const float> x, int64_t cols, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
  float m = 0.0f;
  for (int64_t r = r0; r < r1; ++r)
    for (int64_t c = c0; c < c1; ++c) {
      const float v = x[static_cast<std::size_t>(r * cols + c)];
      if (!std::isfinite(v)) return std::numeric_limits<float>::quiet_NaN();
      m = std::max(m, std::fabs(v));
    }
  return m;
}

void encode_block(std::span<const float> x, BlockScaledTensor& t, float scale, int64_t r0, int64_t r1,
                  int64_t c0, int64_t c1) {
  for (int64_t r = r0; r < r1; ++r)
    for (int64_t c = c0; c < c1; ++c) {
      const auto i = static_cast<std::size_t>(r * t.cols + c);
      // NaN scale (non-finite block): x / NaN is NaN, which encodes as the NaN code.
      t.codes[i] = fp8_encode(t.format, x[i] / scale);
    }
}

}  // namespace

Result<BlockScaledTensor> quantize_blockwise(std::span<const float> x, int64_t rows, int64_t cols,
                                             BlockShape block, DType fmt) {
  if (Status s = check_matrix(x, rows, cols, fmt); !s.ok()) return s;
  if (block.rows < 1 || block.cols < 1)
    return Status::invalid("block shape must be at least 1x1 (got " + std::to_string(block.rows) + "x" +
                           std::to_string(block.cols) + ")");
  BlockScaledTensor t = make_tensor(rows, cols, block, fmt, ScaleFormat::f32);
  const float fmax = fp8_max(fmt);
  for_each_block(t, [&](int64_t br, int64_t bc, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
    const float a = block_amax(x, cols, r0, r1, c0, c1);
    // amax / fmax can underflow to 0 for a block of tiny subnormals; keep it positive so the
    // division in encode_block stays finite (the block then quantizes to zeros, as it should).
    float s = a == 0.0f ? 1.0f : a / fmax;
    if (s == 0.0f) s = std::numeric_limits<float>::denorm_min();
    t.scales[static_cast<std::size_t>(br * t.scale_cols() + bc)] = s;
    encode_block(x, t, s, r0, r1, c0, c1);
  });
  return t;
}

int mx_shared_exponent(float a, DType fmt) {
  if (a == 0.0f) return -127;
  const int emax_elem = fmt == DType::e5m2 ? 15 : 8;
  return std::clamp(std::ilogb(a) - emax_elem, -127, 127);
}

Result<BlockScaledTensor> quantize_mx(std::span<const float> x, int64_t rows, int64_t cols, DType fmt) {
  if (Status s = check_matrix(x, rows, cols, fmt); !s.ok()) return s;
  BlockScaledTensor t = make_tensor(rows, cols, kBlockMx, fmt, ScaleFormat::e8m0);
  for_each_block(t, [&](int64_t br, int64_t bc, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
    const float a = block_amax(x, cols, r0, r1, c0, c1);
    const auto idx = static_cast<std::size_t>(br * t.scale_cols() + bc);
    if (std::isnan(a)) {
      t.scale_codes[idx] = 255;
      t.scales[idx] = std::numeric_limits<float>::quiet_NaN();
      encode_block(x, t, t.scales[idx], r0, r1, c0, c1);
      return;
    }
    const int e = mx_shared_exponent(a, fmt);
    t.scale_codes[idx] = static_cast<uint8_t>(e + 127);
    t.scales[idx] = decode_e8m0(t.scale_codes[idx]);
    // Dividing by a power of two is exact unless it lands below float's normal range; 2^-127
    // itself is subnormal, so scale by ldexp rather than by t.scales[idx].
    for (int64_t r = r0; r < r1; ++r)
      for (int64_t c = c0; c < c1; ++c) {
        const auto i = static_cast<std::size_t>(r * cols + c);
        t.codes[i] = fp8_encode(fmt, std::ldexp(x[i], -e));
      }
  });
  return t;
}

Result<std::vector<float>> dequantize(const BlockScaledTensor& t) {
  if (!is_fp8(t.format)) return Status::invalid("block-scaled tensor format must be e4m3 or e5m2");
  if (t.rows < 1 || t.cols < 1 || t.block.rows < 1 || t.block.cols < 1)
    return Status::invalid("block-scaled tensor needs rows, cols and block dims >= 1");
  if (t.codes.size() != static_cast<std::size_t>(t.rows * t.cols))
    return Status::invalid("block-scaled tensor holds " + std::to_string(t.codes.size()) + " codes for " +
                           std::to_string(t.rows) + "x" + std::to_string(t.cols));
  if (t.scales.size() != static_cast<std::size_t>(t.scale_rows() * t.scale_cols()))
    return Status::invalid("block-scaled tensor holds " + std::to_string(t.scales.size()) +
                           " scales, its block grid needs " + std::to_string(t.scale_rows() * t.scale_cols()));
  std::vector<float> out(t.codes.size());
  for (int64_t r = 0; r < t.rows; ++r)
    for (int64_t c = 0; c < t.cols; ++c) {
      const auto i = static_cast<std::size_t>(r * t.cols + c);
      out[i] = fp8_decode(t.format, t.codes[i]) * t.scale_at(r, c);
    }
  return out;
}

}  // namespace tcgemm
