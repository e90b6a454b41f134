// Element types, storage orders and the Status every public function returns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace tcgemm {

// Element types of operands and results. tf32 is a compute mode over f32 storage: an operand
// stored as f32 and multiplied on the Tensor Cores is declared tf32.
enum class DType : uint8_t { f64, f32, tf32, f16, bf16, e4m3, e5m2, s8, s32 };

enum class Layout : uint8_t { row, column };

// The instruction family a kernel multiplies with, from the bottom of the ladder to the top.
enum class MmaFamily : uint8_t { simt, wmma, mma_sync, wgmma };
std::string_view to_string(MmaFamily f);  // "simt", "wmma", "mma.sync", "wgmma"

// Bytes one element occupies in memory (tf32 is stored as 4-byte f32).
constexpr std::size_t dtype_bytes(DType t) {
  switch (t) {
    case DType::f64: return 8;
    case DType::f32: case DType::tf32: case DType::s32: return 4;
    case DType::f16: case DType::bf16: return 2;
    case DType::e4m3: case DType::e5m2: case DType::s8: return 1;
  }
  return 0;
}

constexpr bool is_fp8(DType t) { return t == DType::e4m3 || t == DType::e5m2; }

// Names as cutlass_profiler spells them: f32, tf32, f16, bf16, fe4m3, fe5m2, s8, s32, f64.
// Parsing also accepts the common aliases (fp16, half, bfloat16, e4m3, fp8_e4m3, ...).
std::string_view to_string(DType t);
std::string_view to_string(Layout l);
std::optional<DType> parse_dtype(std::string_view s);
// "row", "column" and cutlass_profiler's "n"/"t" aliases: column == n, row == t.
std::optional<Layout> parse_layout(std::string_view s);

enum class StatusCode : uint8_t {
  ok,
  invalid_argument,    // the caller passed something no kernel can accept
  unsupported,         // valid input, but no implemented path serves it
  misaligned,          // a pointer or leading dimension breaks the chosen kernel's rule
  workspace_too_small,
  no_device,           // a GPU was needed and none is present
  cuda_error,
  internal,
};

std::string_view to_string(StatusCode c);

// Errors are values: every public entry point returns a Status whose message says what to change.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status success() { return {}; }
  static Status invalid(std::string msg) { return {StatusCode::invalid_argument, std::move(msg)}; }
  static Status unsupported(std::string msg) { return {StatusCode::unsupported, std::move(msg)}; }

  bool ok() const { return code_ == StatusCode::ok; }
  explicit operator bool() const { return ok(); }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "invalid_argument: m must be >= 1 (got 0)"
  std::string to_string() const;

 private:
  StatusCode code_ = StatusCode::ok;
  std::string message_;
};

// A value or the Status that explains why there is none.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}             // NOLINT: implicit on purpose
  Result(Status status) : status_(std::move(status)) {}     // NOLINT: implicit on purpose
  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  const T& value() const& { return *value_; }
  T& value() & { return *value_; }
  T&& value() && { return std::move(*value_); }
  const T* operator->() const { return &*value_; }
  const T& operator*() const { return *value_; }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace tcgemm
