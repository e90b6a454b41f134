#include "runtime/cublaslt_provider.hpp"

#include <cstdio>
#include <optional>

namespace tcgemm {
namespace {

Status lt_status(cublasStatus_t s, const char* what) {
  if (s == CUBLAS_STATUS_SUCCESS) return Status::success();
  const StatusCode code =
      s == CUBLAS_STATUS_NOT_SUPPORTED ? StatusCode::unsupported : StatusCode::cuda_error;
  return Status(code, std::string("cuBLASLt ") + what + ": " + cublasLtGetStatusString(s));
}

Status cuda_status(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return Status::success();
  return Status(StatusCode::cuda_error, std::string(what) + ": " + cudaGetErrorString(e));
}

std::optional<cudaDataType_t> cuda_type(DType t) {
  switch (t) {
    case DType::bf16: return CUDA_R_16BF;
    case DType::f16: return CUDA_R_16F;
    case DType::f32: case DType::tf32: return CUDA_R_32F;
    case DType::e4m3: return CUDA_R_8F_E4M3;
    case DType::e5m2: return CUDA_R_8F_E5M2;
    default: return std::nullopt;
  }
}

// f32 and tf32 are one storage type; cuBLASLt sees them alike except for the compute type.
DType storage(DType t) { return t == DType::tf32 ? DType::f32 : t; }


// One operand as cuBLASLt sees it: a column-major stored matrix and whether to transpose it.
struct LtOperand {
  cublasOperation_t op;
  uint64_t rows, cols;
  int64_t ld;
};

// Our matrix (r x c logical, stored `layout` with `ld`) used as `want_transpose ? M^T : M`.
// Column-major storage of M is M itself; row-major storage of M is column-major M^T.
LtOperand as_operand(int64_t r, int64_t c, Layout layout, int64_t ld, bool want_transpose) {
  const bool stored_is_transpose = layout == Layout::row;
  const uint64_t sr = static_cast<uint64_t>(stored_is_transpose ? c : r);
  const uint64_t sc = static_cast<uint64_t>(stored_is_transpose ? r : c);
  const cublasOperation_t op = stored_is_transpose == want_transpose ? CUBLAS_OP_N : CUBLAS_OP_T;
  return {op, sr, sc, ld};
}

}  // namespace

struct CublasLtProvider::Plan {
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr, d = nullptr;
  cublasLtMatmulAlgo_t algo{};
  bool swap_ab = false;      // cuBLASLt's A is our B (row-major D computed as D^T = B^T A^T)
  bool c_is_d = false;       // beta == 0: C aliases D with D's layout
  bool c_null = false;       // beta == 0 with an FP8 D: C may not be FP8, so none is passed
  std::string description;

  ~Plan() {
    // Destroy failures cannot be acted on here; the handles are freed or already invalid.
    if (a) (void)cublasLtMatrixLayoutDestroy(a);
    if (b) (void)cublasLtMatrixLayoutDestroy(b);
    if (c) (void)cublasLtMatrixLayoutDestroy(c);
    if (d) (void)cublasLtMatrixLayoutDestroy(d);
    if (op) (void)cublasLtMatmulDescDestroy(op);
  }
};

Result<std::unique_ptr<CublasLtProvider>> CublasLtProvider::create() {
  std::unique_ptr<CublasLtProvider> p(new CublasLtProvider());
  if (Status s = lt_status(cublasLtCreate(&p->handle_), "create"); !s.ok()) {
    p->handle_ = nullptr;
    return s;
  }
  if (Status s = cuda_status(cudaMalloc(&p->workspace_, kWorkspaceBytes), "cuBLASLt workspace");
      !s.ok()) {
    p->workspace_ = nullptr;
    return s;
  }
  return p;
}

CublasLtProvider::~CublasLtProvider() {
  plans_.clear();
  if (workspace_) (void)cudaFree(workspace_);
  if (handle_) (void)cublasLtDestroy(handle_);
}

CublasLtProvider::Key CublasLtProvider::make_key(const GemmDesc& g, const void* A, const void* B,
                                                 const void* C, const void* D) {
  auto pack = [](const MatrixDesc& m) {
    return static_cast<uint64_t>(m.dtype) << 1 | static_cast<uint64_t>(m.layout);
  };
  const uint64_t types = pack(g.a) | pack(g.b) << 8 | pack(g.c) << 16 | pack(g.d) << 24 |
                         static_cast<uint64_t>(g.accumulate) << 32;
  const uint64_t aligns = uint64_t{address_alignment(A)} | uint64_t{address_alignment(B)} << 16 |
                          uint64_t{address_alignment(C)} << 32 | uint64_t{address_alignment(D)} << 48;
  return {g.m, g.n, g.k, types,
          effective_ld(g.a, extent_a(g)), effective_ld(g.b, extent_b(g)),
          effective_ld(g.c, extent_c(g)), effective_ld(g.d, extent_c(g)), aligns, g.beta != 0.0f};
}

Result<const CublasLtProvider::Plan*> CublasLtProvider::plan_for(const GemmDesc& g, const Key& key,
                                                                 uint32_t align_a, uint32_t align_b,
                                                                 uint32_t align_c,
                                                                 uint32_t align_d) {
  if (auto it = plans_.find(key); it != plans_.end()) return it->second.get();

  if (g.accumulate != DType::f32)
    return Status::unsupported("cuBLASLt provider: only f32 accumulation is offered");
  const auto ta = cuda_type(g.a.dtype), tb = cuda_type(g.b.dtype), td = cuda_type(g.d.dtype);
  if (!ta || !tb || !td)
    return Status::unsupported("cuBLASLt provider: dtypes " + std::string(to_string(g.a.dtype)) +
                               "/" + std::string(to_string(g.d.dtype)) + " are not offered");
  const bool fp8 = is_fp8(g.a.dtype);
  const bool beta = g.beta != 0.0f;
  // cuBLASLt's type table (cublasLtMatmul docs): C and D share a type, except that an FP8 D
  // takes a BF16 or F16 C.
  if (fp8) {
    if (g.a.dtype == DType::e5m2 && g.b.dtype == DType::e5m2)
      return Status::unsupported("cuBLASLt has no e5m2 x e5m2 GEMM (use e4m3 for A or B)");
    if (g.a.layout != Layout::row || g.b.layout != Layout::column)
      return Status::unsupported(
          "cuBLASLt FP8 GEMM needs the TN form: A row-major and B column-major");
    if (is_fp8(g.d.dtype) && beta && g.c.dtype != DType::bf16 && g.c.dtype != DType::f16)
      return Status::unsupported("cuBLASLt FP8 GEMM with an FP8 D needs C in bf16 or f16");
    if (!is_fp8(g.d.dtype) && beta && storage(g.c.dtype) != storage(g.d.dtype))
      return Status::unsupported("cuBLASLt needs C and D of the same dtype");
  } else {
    const DType in = storage(g.a.dtype), out = storage(g.d.dtype);
    const bool ok_out = out == DType::f32 || out == in;
    if (!ok_out || is_fp8(g.d.dtype))
      return Status::unsupported("cuBLASLt with " + std::string(to_string(g.a.dtype)) +
                                 " inputs writes D as " +
                                 (in == DType::f32 ? std::string("f32") :
                                  std::string(to_string(g.a.dtype)) + " or f32"));
    if (beta && storage(g.c.dtype) != out)
      return Status::unsupported("cuBLASLt needs C and D of the same dtype");
  }
  if (beta && g.c.layout != g.d.layout)
    return Status::unsupported("cuBLASLt provider needs C and D in the same layout");

  auto plan = std::make_unique<Plan>();
  // cuBLASLt is column-major. A row-major D is column-major D^T, so compute D^T = B^T * A^T with
  // cuBLAS's A being our B: row-major A and column-major B then reach cuBLAS as its "TN" case,
  // its fastest path, as PyTorch does. A column-major D is computed directly.
  plan->swap_ab = g.d.layout == Layout::row;
  const int64_t lda = effective_ld(g.a, extent_a(g)), ldb = effective_ld(g.b, extent_b(g));
  const int64_t ldc = effective_ld(g.c, extent_c(g)), ldd = effective_ld(g.d, extent_c(g));
  LtOperand opa, opb;
  uint64_t rows_d, cols_d;
  if (plan->swap_ab) {
    opa = as_operand(g.k, g.n, g.b.layout, ldb, /*want_transpose=*/true);   // B^T: N x K
    opb = as_operand(g.m, g.k, g.a.layout, lda, /*want_transpose=*/true);   // A^T: K x M
    rows_d = static_cast<uint64_t>(g.n);
    cols_d = static_cast<uint64_t>(g.m);
  } else {
    opa = as_operand(g.m, g.k, g.a.layout, lda, false);
    opb = as_operand(g.k, g.n, g.b.layout, ldb, false);
    rows_d = static_cast<uint64_t>(g.m);
    cols_d = static_cast<uint64_t>(g.n);
  }
  const cudaDataType_t lt_a = plan->swap_ab ? *tb : *ta, lt_b = plan->swap_ab ? *ta : *tb;
  if (fp8 && (opa.op != CUBLAS_OP_T || opb.op != CUBLAS_OP_N))
    return Status(StatusCode::internal, "cuBLASLt provider: FP8 mapping did not reach the TN form");

  const cublasComputeType_t compute =
      g.a.dtype == DType::tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
  if (Status s = lt_status(cublasLtMatmulDescCreate(&plan->op, compute, CUDA_R_32F), "desc");
      !s.ok())
    return s;
  if (Status s = lt_status(cublasLtMatmulDescSetAttribute(plan->op, CUBLASLT_MATMUL_DESC_TRANSA,
                                                          &opa.op, sizeof(opa.op)), "transa");
      !s.ok())
    return s;
  if (Status s = lt_status(cublasLtMatmulDescSetAttribute(plan->op, CUBLASLT_MATMUL_DESC_TRANSB,
                                                          &opb.op, sizeof(opb.op)), "transb");
      !s.ok())
    return s;

  if (Status s = lt_status(cublasLtMatrixLayoutCreate(&plan->a, lt_a, opa.rows, opa.cols, opa.ld),
                           "layout A");
      !s.ok())
    return s;
  if (Status s = lt_status(cublasLtMatrixLayoutCreate(&plan->b, lt_b, opb.rows, opb.cols, opb.ld),
                           "layout B");
      !s.ok())
    return s;
  if (Status s = lt_status(cublasLtMatrixLayoutCreate(&plan->d, *td, rows_d, cols_d, ldd),
                           "layout D");
      !s.ok())
    return s;
  cudaDataType_t tc = *td;
  int64_t c_ld = ldd;
  if (beta) {
    tc = *cuda_type(g.c.dtype);
    c_ld = ldc;
  } else if (is_fp8(g.d.dtype)) {
    // PyTorch's scaled_mm does the same: no C, a BF16 descriptor to satisfy the type table.
    plan->c_null = true;
    tc = CUDA_R_16BF;
  } else {
    plan->c_is_d = true;
  }
  if (Status s = lt_status(cublasLtMatrixLayoutCreate(&plan->c, tc, rows_d, cols_d, c_ld),
                           "layout C");
      !s.ok())
    return s;

  cublasLtMatmulPreference_t pref = nullptr;
  if (Status s = lt_status(cublasLtMatmulPreferenceCreate(&pref), "preference"); !s.ok()) return s;
  struct PrefGuard {
    cublasLtMatmulPreference_t p;
    ~PrefGuard() { (void)cublasLtMatmulPreferenceDestroy(p); }
  } guard{pref};
  const uint64_t ws = kWorkspaceBytes;
  // The heuristic assumes 256-byte aligned pointers unless told; a smaller real alignment must
  // exclude the algorithms that would fault on it.
  const uint32_t aligns[4] = {plan->swap_ab ? align_b : align_a, plan->swap_ab ? align_a : align_b,
                              plan->c_is_d ? align_d : align_c, align_d};
  const cublasLtMatmulPreferenceAttributes_t align_attr[4] = {
      CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
      CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES};
  if (Status s = lt_status(cublasLtMatmulPreferenceSetAttribute(
                               pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws)),
                           "workspace preference");
      !s.ok())
    return s;
  for (int i = 0; i < 4; ++i)
    if (Status s = lt_status(cublasLtMatmulPreferenceSetAttribute(pref, align_attr[i], &aligns[i],
                                                                  sizeof(aligns[i])),
                             "alignment preference");
        !s.ok())
      return s;

  cublasLtMatmulHeuristicResult_t result{};
  int returned = 0;
  const cublasStatus_t hs = cublasLtMatmulAlgoGetHeuristic(
      handle_, plan->op, plan->a, plan->b, plan->c, plan->d, pref, 1, &result, &returned);
  if (hs != CUBLAS_STATUS_SUCCESS || returned == 0 || result.state != CUBLAS_STATUS_SUCCESS) {
    std::string why = "cuBLASLt found no algorithm (" +
                      std::string(cublasLtGetStatusString(hs != CUBLAS_STATUS_SUCCESS ? hs
                                                          : returned == 0
                                                              ? CUBLAS_STATUS_NOT_SUPPORTED
                                                              : result.state)) +
                      ")";
    if (fp8)
      why += "; its FP8 rules: 16-byte aligned pointers and leading dimensions that are "
             "multiples of 16";
    return Status::unsupported(why);
  }
  plan->algo = result.algo;

  int32_t id = 0, splitk = 1;
  uint32_t tile = 0, stages = 0;
  uint16_t cluster = 0;
  std::size_t got = 0;
  // Descriptions are best effort: an attribute the library does not report stays at its default.
  (void)cublasLtMatmulAlgoConfigGetAttribute(&plan->algo, CUBLASLT_ALGO_CONFIG_ID, &id, sizeof(id), &got);
  (void)cublasLtMatmulAlgoConfigGetAttribute(&plan->algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, sizeof(tile), &got);
  (void)cublasLtMatmulAlgoConfigGetAttribute(&plan->algo, CUBLASLT_ALGO_CONFIG_STAGES_ID, &stages, sizeof(stages), &got);
  (void)cublasLtMatmulAlgoConfigGetAttribute(&plan->algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &splitk, sizeof(splitk), &got);
  (void)cublasLtMatmulAlgoConfigGetAttribute(&plan->algo, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID, &cluster, sizeof(cluster), &got);
  char buf[160];
  std::snprintf(buf, sizeof(buf), "cublasLt algo=%d tile=%u stages=%u splitK=%d cluster=%u ws=%zuB",
                id, tile, stages, splitk, unsigned{cluster}, result.workspaceSize);
  plan->description = buf;

  const Plan* raw = plan.get();
  plans_.emplace(key, std::move(plan));
  return raw;
}

Status CublasLtProvider::run(const GemmDesc& g, const void* A, const void* B, const void* C,
                             void* D, cudaStream_t stream) {
  if (Status s = validate(g); !s.ok()) return s;
  if (!A || !B || !D || (g.beta != 0.0f && !C))
    return Status::invalid("cuBLASLt provider: null pointer (C may be null only when beta == 0)");
  const Key key = make_key(g, A, B, C, D);
  auto plan = plan_for(g, key, address_alignment(A), address_alignment(B), address_alignment(C), address_alignment(D));
  if (!plan.ok()) return plan.status();
  const Plan& p = **plan;
  const void* lt_a = p.swap_ab ? B : A;
  const void* lt_b = p.swap_ab ? A : B;
  const void* lt_c = p.c_null ? nullptr : p.c_is_d ? D : C;
  const float alpha = g.alpha, beta = g.beta;
  return lt_status(cublasLtMatmul(handle_, p.op, &alpha, lt_a, p.a, lt_b, p.b, &beta, lt_c,
                                  p.c_is_d ? p.d : p.c, D, p.d, &p.algo, workspace_,
                                  kWorkspaceBytes, stream),
                   "matmul");
}

std::string CublasLtProvider::describe(const GemmDesc& g, const void* A, const void* B,
                                       const void* C, const void* D) const {
  auto it = plans_.find(make_key(g, A, B, C, D));
  return it == plans_.end() ? std::string() : it->second->description;
}

}  // namespace tcgemm
