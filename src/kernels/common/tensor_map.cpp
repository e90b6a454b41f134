#include "kernels/common/tensor_map.hpp"

#include <cuda_runtime_api.h>
#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled_v12000

#include <algorithm>
#include <string>

namespace tcgemm {
namespace {

std::string ld_name(const char* operand) { return std::string("ld") + static_cast<char>(operand[0] + ('a' - 'A')); }

Result<PFN_cuTensorMapEncodeTiled_v12000> encode_tiled_entry() {
  static PFN_cuTensorMapEncodeTiled_v12000 fn = nullptr;
  static cudaError_t err = cudaSuccess;
  static cudaDriverEntryPointQueryResult query = cudaDriverEntryPointSuccess;
  static const bool looked_up = [] {
    void* p = nullptr;
    err = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault,
                                           &query);
    if (err == cudaSuccess && query == cudaDriverEntryPointSuccess) fn = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
    return true;
  }();
  (void)looked_up;
  if (fn == nullptr)
    return Status(StatusCode::cuda_error,
                  std::string("cuTensorMapEncodeTiled is not available from the driver (") +
                      (err != cudaSuccess ? cudaGetErrorString(err) : "symbol not found") +
                      "); TMA kernels need a CUDA 12+ driver");
  return fn;
}

}  // namespace

Status check_tma_operand(const char* operand, DType dtype, uint64_t base_alignment, int64_t ld) {
  const uint64_t bytes = dtype_bytes(dtype);
  if (base_alignment % 16 != 0)
    return Status(StatusCode::misaligned,
                  std::string(operand) + ": base pointer is only " + std::to_string(base_alignment) +
                      "-byte aligned; TMA needs 16 (TMA address rule); use the repack path");
  if ((static_cast<uint64_t>(ld) * bytes) % 16 != 0)
    return Status(StatusCode::misaligned,
                  std::string(operand) + ": " + ld_name(operand) + "*" + std::to_string(bytes) +
                      " bytes = " + std::to_string(static_cast<uint64_t>(ld) * bytes) +
                      " is not a multiple of 16 (TMA stride rule); use the repack path");
  if (static_cast<uint64_t>(ld) * bytes >= (uint64_t{1} << 40))
    return Status::unsupported(std::string(operand) + ": " + ld_name(operand) +
                               " byte stride must be below 2^40 (TMA stride rule)");
  return Status::success();
}

Result<TensorMap2d> make_tensor_map_2d(const char* operand, DType dtype, const void* base,
                                       uint64_t line_length, uint64_t lines, int64_t ld,
                                       uint32_t box_inner, uint32_t box_outer, bool promote_l2, bool swizzle_128b) {
  CUtensorMapDataType type;
  switch (dtype) {
    case DType::bf16: type = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16; break;
    case DType::f16: type = CU_TENSOR_MAP_DATA_TYPE_FLOAT16; break;
    // tf32 is f32 storage; the map copies the bits unchanged (FLOAT32, not TFLOAT32), so the
    // kernel sees exactly what is in memory.
    case DType::f32: case DType::tf32: type = CU_TENSOR_MAP_DATA_TYPE_FLOAT32; break;
    default:
      return Status::unsupported(std::string(operand) + ": TMA maps here cover bf16/f16/f32/tf32 only (got " +
                                 std::string(to_string(dtype)) + ")");
  }
  const uint64_t address = reinterpret_cast<uint64_t>(base);
  // The lowest set bit of the address is its alignment (an address of 0 is never passed here).
  if (Status s = check_tma_operand(operand, dtype, address & (~address + 1), ld); !s.ok()) return s;
  if (box_inner * dtype_bytes(dtype) > 128 || box_inner == 0 || box_outer == 0 || box_outer > 256)
    return Status(StatusCode::internal, std::string(operand) + ": TMA box " + std::to_string(box_inner) +
                                            "x" + std::to_string(box_outer) +
                                            " breaks the 128B-swizzle box rule");

  Result<PFN_cuTensorMapEncodeTiled_v12000> encode = encode_tiled_entry();
  if (!encode.ok()) return encode.status();

  TensorMap2d out{};
  const cuuint64_t dims[2] = {line_length, lines};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(ld) * dtype_bytes(dtype)};
  const cuuint32_t box[2] = {box_inner, box_outer};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = (*encode)(&out.map, type, 2, const_cast<void*>(base), dims, strides, box,
                               element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                               swizzle_128b ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE,
                               promote_l2 ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B : CU_TENSOR_MAP_L2_PROMOTION_NONE,
                               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    return Status(StatusCode::cuda_error, std::string(operand) + ": cuTensorMapEncodeTiled failed (CUresult " +
                                              std::to_string(static_cast<int>(r)) + ") for " +
                                              std::to_string(line_length) + "x" + std::to_string(lines) +
                                              " elements, ld " + std::to_string(ld) + ", box " +
                                              std::to_string(box_inner) + "x" + std::to_string(box_outer));
  return out;
}

Result<TensorMap2d> make_tensor_map_k_chunks(const char* operand, DType dtype, const void* base, uint64_t line_length,
                                             uint64_t lines, int64_t ld, uint32_t box_rows, uint32_t box_chunks) {
  if (dtype_bytes(dtype) != 2 || (dtype != DType::bf16 && dtype != DType::f16))
    return Status::unsupported(std::string(operand) + ": K-chunk maps cover bf16/f16 only");
  const uint64_t address = reinterpret_cast<uint64_t>(base);
  if (Status s = check_tma_operand(operand, dtype, address & (~address + 1), ld); !s.ok()) return s;
  if (line_length % 64 != 0 || line_length == 0 || box_rows == 0 || box_rows > 256 || box_chunks == 0 ||
      box_chunks > 256 || box_chunks > line_length / 64)
    return Status(StatusCode::internal, std::string(operand) + ": K-chunk box " + std::to_string(box_rows) + " rows x " +
                                            std::to_string(box_chunks) + " chunks over K = " + std::to_string(line_length) +
                                            " (K must be a multiple of 64)");
  Result<PFN_cuTensorMapEncodeTiled_v12000> encode = encode_tiled_entry();
  if (!encode.ok()) return encode.status();
  TensorMap2d out{};
  const cuuint64_t dims[3] = {64, lines, line_length / 64};
  const cuuint64_t strides[2] = {static_cast<cuuint64_t>(ld) * 2, 128};
  const cuuint32_t box[3] = {64, box_rows, box_chunks};
  const cuuint32_t element_strides[3] = {1, 1, 1};
  const CUresult r = (*encode)(&out.map, dtype == DType::bf16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
                               3, const_cast<void*>(base), dims, strides, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                               CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    return Status(StatusCode::cuda_error, std::string(operand) + ": cuTensorMapEncodeTiled (K chunks) failed (CUresult " +
                                              std::to_string(static_cast<int>(r)) + ")");
  return out;
}

RowClassLayout row_class_layout(uint64_t address, int64_t ld, int64_t lines, uint32_t element_bytes) {
  RowClassLayout out{};
  for (int j = 0; j < kRowClasses; ++j) {
    const uint64_t first = address + static_cast<uint64_t>(j) * static_cast<uint64_t>(ld) * element_bytes;
    out.base[j] = first & ~uint64_t{15};
    out.x0[j] = static_cast<int32_t>((first - out.base[j]) / element_bytes);
    out.rows[j] = lines > j ? (lines - j + kRowClasses - 1) / kRowClasses : 0;
  }
  // Class j's key: how many earlier classes share its x0 / 2, then x0 / 2; a stable sort on it puts
  // the first of each x0 / 2 in positions 0-3 and the second in 4-7 when each value comes twice.
  int32_t key[kRowClasses];
  for (int j = 0; j < kRowClasses; ++j) {
    int rank = 0;
    for (int e = 0; e < j; ++e) rank += (out.x0[e] >> 1) == (out.x0[j] >> 1);
    key[j] = 4 * rank + (out.x0[j] >> 1);
  }
  for (int j = 0; j < kRowClasses; ++j) out.order[j] = j;
  std::stable_sort(out.order, out.order + kRowClasses, [&](int32_t x, int32_t y) { return key[x] < key[y]; });
  return out;
}

Result<RowClassMaps> make_row_class_maps(const char* operand, DType dtype, const void* base, uint64_t line_length,
                                         uint64_t lines, int64_t ld, uint32_t box_inner, uint32_t box_rows,
                                         bool promote_l2) {
  const uint32_t bytes = static_cast<uint32_t>(dtype_bytes(dtype));
  const uint64_t address = reinterpret_cast<uint64_t>(base);
  if (bytes < 2 || address % bytes != 0)
    return Status(StatusCode::misaligned, std::string(operand) + ": row classes need 2- or 4-byte elements on their own alignment");
  const RowClassLayout l = row_class_layout(address, ld, static_cast<int64_t>(lines), bytes);
  if (line_length + kRowClasses > (uint64_t{1} << 32))
    return Status::unsupported(std::string(operand) + ": rows of 2^32 elements or more");
  RowClassMaps out{};
  for (int j = 0; j < kRowClasses; ++j) {
    const int c = l.rows[j] > 0 ? j : 0;  // classes with no rows are never loaded
    Result<TensorMap2d> m = make_tensor_map_2d(operand, dtype, reinterpret_cast<const void*>(l.base[c]),
                                               line_length + static_cast<uint64_t>(l.x0[c]),
                                               static_cast<uint64_t>(std::max<int64_t>(l.rows[c], 1)),
                                               ld * kRowClasses, box_inner, box_rows, promote_l2, false);
    if (!m.ok()) return m.status();
    out.map[j] = m.value().map;
    out.x0[j] = l.x0[j];
    out.rows[j] = static_cast<int32_t>(l.rows[j]);
    out.order[j] = l.order[j];
  }
  return out;
}

}  // namespace tcgemm
