#include "tcgemm/types.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace tcgemm {

std::string_view to_string(DType t) {
  switch (t) {
    case DType::f64: return "f64";
    case DType::f32: return "f32";
    case DType::tf32: return "tf32";
    case DType::f16: return "f16";
    case DType::bf16: return "bf16";
    case DType::e4m3: return "fe4m3";
    case DType::e5m2: return "fe5m2";
    case DType::s8: return "s8";
    case DType::s32: return "s32";
  }
  return "?";
}

std::string_view to_string(MmaFamily f) {
  switch (f) {
    case MmaFamily::simt: return "simt";
    case MmaFamily::wmma: return "wmma";
    case MmaFamily::mma_sync: return "mma.sync";
    case MmaFamily::wgmma: return "wgmma";
  }
  return "?";
}

std::string_view to_string(Layout l) { return l == Layout::row ? "row" : "column"; }

static std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::optional<DType> parse_dtype(std::string_view s) {
  struct Alias { std::string_view name; DType type; };
  static constexpr std::array<Alias, 22> aliases{{
      {"f64", DType::f64},     {"fp64", DType::f64},       {"double", DType::f64},
      {"f32", DType::f32},     {"fp32", DType::f32},       {"float", DType::f32},
      {"tf32", DType::tf32},   {"f16", DType::f16},        {"fp16", DType::f16},
      {"half", DType::f16},    {"bf16", DType::bf16},      {"bfloat16", DType::bf16},
      {"fe4m3", DType::e4m3},  {"e4m3", DType::e4m3},      {"fp8_e4m3", DType::e4m3},
      {"fe5m2", DType::e5m2},  {"e5m2", DType::e5m2},      {"fp8_e5m2", DType::e5m2},
      {"s8", DType::s8},       {"int8", DType::s8},        {"s32", DType::s32},
      {"int32", DType::s32},
  }};
  const std::string key = lower(s);
  for (const auto& a : aliases)
    if (a.name == key) return a.type;
  return std::nullopt;
}

std::optional<Layout> parse_layout(std::string_view s) {
  const std::string key = lower(s);
  if (key == "row" || key == "t" || key == "rowmajor" || key == "row_major") return Layout::row;
  if (key == "column" || key == "col" || key == "n" || key == "columnmajor" || key == "column_major")
    return Layout::column;
  return std::nullopt;
}

std::string_view to_string(StatusCode c) {
  switch (c) {
    case StatusCode::ok: return "ok";
    case StatusCode::invalid_argument: return "invalid_argument";
    case StatusCode::unsupported: return "unsupported";
    case StatusCode::misaligned: return "misaligned";
    case StatusCode::workspace_too_small: return "workspace_too_small";
    case StatusCode::no_device: return "no_device";
    case StatusCode::cuda_error: return "cuda_error";
    case StatusCode::internal: return "internal";
  }
  return "?";
}

std::string Status::to_string() const {
  if (ok()) return "ok";
  return std::string(tcgemm::to_string(code_)) + ": " + message_;
}

}  // namespace tcgemm
