#include "profile_runner.hpp"

#include "kernels/sm90/split_k.hpp"
#include "kernels/sm90/wgmma_ws_persistent_cluster.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "core/diag_flag.hpp"
#include "profile_report.hpp"
#include "runtime/cublaslt_provider.hpp"
#include "runtime/device_reference.hpp"
#include "runtime/registry.hpp"
#include "runtime/verify.hpp"
#include "tcgemm/gemm.hpp"

namespace tcgemm::cli {
namespace {

// H200 clocks ramp for the first ~100 ms of load (measured up to 25% slow), so the first
// measurement of the process warms for seconds and every later one for at least 200 ms.
constexpr double kFirstWarmupMs = 2000.0;
constexpr double kWarmupMs = 200.0;
// A candidate's later windows: the board is already hot; this lets the clock settle on the new kernel.
constexpr double kRewarmMs = 50.0;

Status cuda_check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return Status::success();
  return Status(StatusCode::cuda_error, std::string(what) + ": " + cudaGetErrorString(e));
}

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), bytes_(o.bytes_) {}
  ~DeviceBuffer() { if (p_) (void)cudaFree(p_); }
  Status allocate(std::size_t bytes) {
    bytes_ = bytes;
    return cuda_check(cudaMalloc(&p_, std::max<std::size_t>(bytes, 1)), "cudaMalloc");
  }
  void* get() const { return p_; }
  float* as_float() const { return static_cast<float*>(p_); }
  std::size_t bytes() const { return bytes_; }

 private:
  void* p_ = nullptr;
  std::size_t bytes_ = 0;
};

class Event {
 public:
  Event() { status_ = cuda_check(cudaEventCreate(&e_), "cudaEventCreate"); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  Event(Event&& o) noexcept : e_(std::exchange(o.e_, nullptr)), status_(o.status_) {}
  ~Event() { if (e_) (void)cudaEventDestroy(e_); }
  cudaEvent_t get() const { return e_; }
  const Status& status() const { return status_; }

 private:
  cudaEvent_t e_ = nullptr;
  Status status_;
};

class Stream {
 public:
  Stream() { status_ = cuda_check(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "cudaStreamCreate"); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream() { if (s_) (void)cudaStreamDestroy(s_); }
  cudaStream_t get() const { return s_; }
  const Status& status() const { return status_; }

 private:
  cudaStream_t s_ = nullptr;
  Status status_;
};

Result<float> elapsed_ms(const Event& a, const Event& b) {
  float ms = 0;
  if (Status s = cuda_check(cudaEventElapsedTime(&ms, a.get(), b.get()), "cudaEventElapsedTime"); !s.ok())
    return s;
  return ms;
}

// Bytes an operand spans with its leading dimension.
std::size_t span_bytes(const MatrixDesc& m, StoredExtent e) {
  const int64_t ld = effective_ld(m, e);
  const int64_t outer = m.layout == Layout::row ? e.rows : e.cols;
  return static_cast<std::size_t>(ld) * static_cast<std::size_t>(outer) * dtype_bytes(m.dtype);
}

// Each input read once, C once when beta != 0, D written once.
double minimal_bytes(const GemmDesc& g) {
  const double mn = double(g.m) * double(g.n);
  return double(g.m) * g.k * dtype_bytes(g.a.dtype) + double(g.k) * g.n * dtype_bytes(g.b.dtype) +
         (g.beta != 0.0f ? mn * dtype_bytes(g.c.dtype) : 0.0) + mn * dtype_bytes(g.d.dtype);
}

std::string gib(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.2f GiB", bytes / double(1ull << 30));
  return buf;
}

struct BufferSet {
  DeviceBuffer a, b, c, d;
};

using RunFn = std::function<Status(const BufferSet&, cudaStream_t)>;

struct Candidate {
  std::string provider;
  std::string kernel;
  bool is_cublas = false;
  RunFn run;
};

struct DeviceInfo {
  int ordinal = 0;
  int sm = 0;
  std::string name;
  std::string driver;
  std::size_t l2_bytes = 0;
};

class Profiler {
 public:
  Profiler(const ProfileOptions& o, const DeviceInfo& dev) : o_(o), dev_(dev) {}

  Status init() {
    if (Status s = stream_.status(); !s.ok()) return s;
    if (o_.provider_cublas || (o_.verification_enabled && o_.verify_with_cublas)) {
      auto lt = CublasLtProvider::create();
      if (lt.ok()) lt_ = std::move(lt).value();
      else lt_error_ = lt.status().message();
    }
    return Status::success();
  }

  // Appends this problem's rows; a non-ok Status is a CUDA failure that poisons the context.
  Status profile(const ProfileProblem& p, std::vector<ProfileRow>& rows) {
    const GemmDesc& g = p.desc;
    // --split_k_slices reaches the split-K kernels through their process-wide override; the
    // profiler is single-threaded, so setting it per problem is safe here.
    set_forced_split_k(static_cast<int>(p.split_k_slices));
    // Likewise --raster_order / --swizzle_size for the persistent cluster kernels.
    set_pc_raster(p.raster_order == "along_m"   ? PcRaster::along_m
                  : p.raster_order == "along_n" ? PcRaster::along_n
                                                : PcRaster::heuristic,
                  static_cast<int>(p.swizzle_size));
    ProfileRow base;
    base.raster_order = to_string(pc_raster_resolved());
    base.swizzle_size = pc_swizzle_resolved();
    base.problem = describe_problem(p);
    base.m = g.m; base.n = g.n; base.k = g.k;
    base.a = operand_string(g.a); base.b = operand_string(g.b);
    base.c = g.beta != 0.0f ? operand_string(g.c) : "";
    base.d = operand_string(g.d);
    base.alpha = g.alpha; base.beta = g.beta;
    auto add_row = [&](std::string provider, std::string kernel, std::string disposition,
                       std::string detail) {
      ProfileRow r = base;
      r.provider = std::move(provider); r.kernel = std::move(kernel);
      r.disposition = std::move(disposition); r.detail = std::move(detail);
      rows.push_back(std::move(r));
    };

    std::vector<Candidate> cands = candidates(g, add_row);
    if (cands.empty()) return Status::success();

    // Buffer sets: enough that one pass over them exceeds 2x L2, so no timed run finds its
    // inputs in cache from the previous one. Past 512 sets (problems under ~2*L2/512 bytes)
    // the set-up cost outweighs the benefit and such small problems run partly from L2.
    const std::size_t set_bytes = span_bytes(g.a, extent_a(g)) + span_bytes(g.b, extent_b(g)) +
                                  (g.beta != 0.0f ? span_bytes(g.c, extent_c(g)) : 0) +
                                  span_bytes(g.d, extent_c(g));
    const std::size_t mn_floats = static_cast<std::size_t>(g.m) * static_cast<std::size_t>(g.n) * sizeof(float);
    const std::size_t verify_bytes =
        o_.verification_enabled ? mn_floats * 3 + span_bytes(g.d, extent_c(g)) : 0;
    std::size_t free_bytes = 0, total_bytes = 0;
    if (Status s = cuda_check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo"); !s.ok()) return s;
    const double budget = 0.85 * double(free_bytes) - double(CublasLtProvider::kWorkspaceBytes);
    if (double(set_bytes + verify_bytes) > budget) {
      for (const Candidate& c : cands)
        add_row(c.provider, c.kernel, "not_supported",
                "needs " + gib(double(set_bytes + verify_bytes)) + " of device memory, " +
                    gib(double(free_bytes)) + " free");
      return Status::success();
    }
    std::size_t nsets = std::clamp<std::size_t>(2 * dev_.l2_bytes / std::max<std::size_t>(set_bytes, 1) + 2, 2, 512);
    while (nsets > 1 && double(nsets * set_bytes + verify_bytes) > budget) --nsets;

    std::vector<BufferSet> sets(nsets);
    uint64_t seed = o_.seed * 1000003ull + problem_index_++ * 64;
    for (BufferSet& s : sets) {
      for (auto [buf, m, e] : {std::tuple{&s.a, &g.a, extent_a(g)}, std::tuple{&s.b, &g.b, extent_b(g)}}) {
        const std::size_t bytes = span_bytes(*m, e);
        if (Status st = buf->allocate(bytes); !st.ok()) return st;
        if (Status st = fill_random_device(buf->get(), bytes / dtype_bytes(m->dtype), m->dtype,
                                           o_.dist.min, o_.dist.max, seed++, stream_.get());
            !st.ok())
          return st;
      }
      if (g.beta != 0.0f) {
        const std::size_t bytes = span_bytes(g.c, extent_c(g));
        if (Status st = s.c.allocate(bytes); !st.ok()) return st;
        if (Status st = fill_random_device(s.c.get(), bytes / dtype_bytes(g.c.dtype), g.c.dtype,
                                           o_.dist.min, o_.dist.max, seed++, stream_.get());
            !st.ok())
          return st;
      }
      if (Status st = s.d.allocate(span_bytes(g.d, extent_c(g))); !st.ok()) return st;
      if (Status st = poison_device(s.d.get(), s.d.bytes(), stream_.get()); !st.ok()) return st;
    }

    // References on set 0, computed once per problem.
    DeviceBuffer ref_device, ref_cublas, cublas_d, scratch;
    std::string cublas_ref_note;
    if (o_.verification_enabled) {
      if (Status st = scratch.allocate(mn_floats); !st.ok()) return st;
      if (o_.verify_with_device) {
        if (Status st = ref_device.allocate(mn_floats); !st.ok()) return st;
        if (Status st = reference_gemm_device(g, sets[0].a.get(), sets[0].b.get(), sets[0].c.get(),
                                              ref_device.as_float(), false, stream_.get());
            !st.ok())
          return st;
      }
      if (o_.verify_with_cublas && lt_) {
        if (Status st = cublas_d.allocate(span_bytes(g.d, extent_c(g))); !st.ok()) return st;
        if (Status st = poison_device(cublas_d.get(), cublas_d.bytes(), stream_.get()); !st.ok()) return st;
        Status st = lt_->run(g, sets[0].a.get(), sets[0].b.get(), sets[0].c.get(), cublas_d.get(), stream_.get());
        if (st.ok()) {
          if (Status a = ref_cublas.allocate(mn_floats); !a.ok()) return a;
          if (Status c = convert_to_float_device(g, cublas_d.get(), ref_cublas.as_float(), stream_.get()); !c.ok())
            return c;
        } else {
          cublas_ref_note = "cublas reference unavailable: " + st.message();
        }
      } else if (o_.verify_with_cublas) {
        cublas_ref_note = "cublas reference unavailable: " + lt_error_;
      }
      if (Status st = cuda_check(cudaStreamSynchronize(stream_.get()), "references"); !st.ok()) return st;
    }

    Tolerance tol = default_tolerance(g);
    if (o_.epsilon) tol.elementwise = *o_.epsilon;
    const std::size_t first_row = rows.size();
    // The candidates that ran and verified, with their rows: timed after every verification, in
    // interleaved windows (see ProfileOptions::profiling_rounds).
    struct Timed {
      const Candidate* cand;
      std::size_t row;
      std::vector<double> times;
    };
    std::vector<Timed> timed;
    for (Candidate& c : cands) {
      ProfileRow r = base;
      r.provider = c.provider;
      r.kernel = c.kernel;
      // The verification run, on poisoned output: an element the kernel skips stays NaN.
      if (Status st = poison_device(sets[0].d.get(), sets[0].d.bytes(), stream_.get()); !st.ok()) return st;
      Status st = c.run(sets[0], stream_.get());
      if (!st.ok()) {
        const bool refused = st.code() == StatusCode::unsupported ||
                             st.code() == StatusCode::misaligned ||
                             st.code() == StatusCode::invalid_argument;
        r.disposition = refused ? "not_supported" : "error";
        r.detail = st.message();
        rows.push_back(std::move(r));
        if (st.code() == StatusCode::cuda_error) return st;
        continue;
      }
      if (Status s2 = cuda_check(cudaStreamSynchronize(stream_.get()), c.kernel.c_str()); !s2.ok()) {
        r.disposition = "error";
        r.detail = s2.message();
        rows.push_back(std::move(r));
        return s2;
      }
      if (c.is_cublas) r.kernel = lt_->describe(g, sets[0].a.get(), sets[0].b.get(), sets[0].c.get(), sets[0].d.get());

      r.disposition = "not_verified";
      if (o_.verification_enabled) {
        std::string detail;
        bool any = false, all_pass = true;
        auto check = [&](const char* against, const DeviceBuffer& ref, const Tolerance& t) -> Status {
          auto v = verify_gemm_output(g, sets[0].d.get(), ref.as_float(), scratch.as_float(), t, stream_.get());
          if (!v.ok()) return v.status();
          any = true;
          all_pass = all_pass && v->passed;
          detail += (detail.empty() ? "" : "; ") + std::string(against) + ": " + v->message;
          return Status::success();
        };
        if (ref_device.get())
          if (Status s3 = check("vs device reference", ref_device, c.is_cublas ? for_baseline(tol) : tol); !s3.ok())
            return s3;
        // cuBLAS is not checked against itself.
        if (!c.is_cublas && ref_cublas.get())
          // cuBLAS as the reference carries its own (split-K) error on top of ours.
          if (Status s3 = check("vs cublas", ref_cublas, for_baseline(against_rounded_reference(tol))); !s3.ok())
            return s3;
        if (!c.is_cublas && !cublas_ref_note.empty())
          detail += (detail.empty() ? "" : "; ") + cublas_ref_note;
        if (any) r.disposition = all_pass ? "passed" : "failed";
        r.detail = detail;
      }

      timed.push_back({&c, rows.size(), {}});
      rows.push_back(std::move(r));
    }

    // Round r visits the candidates forward (r even) or backward, so none is always timed first
    // or last; each window warms up again, briefly after the candidate's first.
    const int rounds = std::max(o_.profiling_rounds, 1);
    for (int round = 0; round < rounds; ++round)
      for (std::size_t j = 0; j < timed.size(); ++j) {
        Timed& t = timed[round % 2 == 0 ? j : timed.size() - 1 - j];
        if (Status s = measure(*t.cand, sets, rounds, !t.times.empty(), t.times); !s.ok()) {
          rows[t.row].disposition = "error";
          rows[t.row].detail = s.message();
          return s;
        }
      }
    double cublas_ms = 0;
    for (Timed& t : timed) {
      std::sort(t.times.begin(), t.times.end());
      const std::size_t n = t.times.size();
      const double ms = n % 2 ? t.times[n / 2] : 0.5 * (t.times[n / 2 - 1] + t.times[n / 2]);
      if (!(ms > 0)) return Status(StatusCode::internal, "median time is 0: below the event timer's resolution");
      ProfileRow& r = rows[t.row];
      r.runtime_ms = ms;
      r.gflops = 2.0 * double(g.m) * double(g.n) * double(g.k) / (ms * 1e6);
      r.gbps = minimal_bytes(g) / (ms * 1e6);
      if (t.cand->is_cublas) cublas_ms = ms;
    }
    if (cublas_ms > 0)
      for (std::size_t i = first_row; i < rows.size(); ++i)
        if (rows[i].runtime_ms > 0) rows[i].ratio_to_cublas = cublas_ms / rows[i].runtime_ms;
    return Status::success();
  }

 private:
  static bool is_serial_split_k(const KernelEntry& k) {
    return std::string_view(k.name).find("_serial_splitk") != std::string_view::npos;
  }
  static bool is_parallel_split_k(const KernelEntry& k) { return k.split_k != nullptr && !is_serial_split_k(k); }

  // --split_k_mode=serial without --kernels: the in-kernel split-K entry that takes g (nullptr:
  // none does, and gemm()'s pick runs).
  const KernelEntry* serial_split_k_kernel(const GemmDesc& g) const {
    for (const KernelEntry& k : kernel_registry())
      if (is_serial_split_k(k) && k.min_sm <= dev_.sm && k.supports && k.supports(g).ok()) return &k;
    return nullptr;
  }

  template <class AddRow>
  std::vector<Candidate> candidates(const GemmDesc& g, AddRow& add_row) {
    std::vector<Candidate> out;
    if (o_.provider_tcgemm) {
      const KernelEntry* serial = o_.split_k_serial && o_.kernels.empty() ? serial_split_k_kernel(g) : nullptr;
      if (serial != nullptr) {
        const std::string name(serial->name);
        out.push_back({"tcgemm", name, false, [g, name](const BufferSet& s, cudaStream_t st) {
                         return gemm_with_kernel(name, g, s.a.get(), s.b.get(), s.c.get(), s.d.get(), st);
                       }});
      } else if (o_.kernels.empty()) {
        auto picked = pick_kernel(g);
        if (picked.ok()) {
          out.push_back({"tcgemm", std::string(*picked), false,
                         [g](const BufferSet& s, cudaStream_t st) {
                           return gemm(g, s.a.get(), s.b.get(), s.c.get(), s.d.get(), st);
                         }});
        } else {
          add_row("tcgemm", "-", "not_supported", picked.status().message());
        }
      } else {
        std::string first_reason;
        std::size_t matched = 0;
        for (const KernelEntry& k : kernel_registry()) {
          if (!kernel_filter_matches(o_.kernels, k.name)) continue;
          ++matched;
          Status why;
          if (o_.split_k_serial && is_parallel_split_k(k))
            why = Status::unsupported("--split_k_mode=serial: a parallel split-K path (slabs + reduce)");
          else if (k.min_sm > dev_.sm)
            why = Status::unsupported("needs sm_" + std::to_string(k.min_sm) + ", device is sm_" + std::to_string(dev_.sm));
          else if (k.supports)
            why = k.supports(g);
          if (!why.ok()) {
            if (first_reason.empty()) first_reason = std::string(k.name) + ": " + why.message();
            continue;
          }
          const std::string name(k.name);
          out.push_back({"tcgemm", name, false, [g, name](const BufferSet& s, cudaStream_t st) {
                           return gemm_with_kernel(name, g, s.a.get(), s.b.get(), s.c.get(), s.d.get(), st);
                         }});
        }
        if (out.empty())
          add_row("tcgemm", o_.kernels, "not_supported",
                  matched == 0 ? "no registered kernel matches --kernels=" + o_.kernels
                               : std::to_string(matched) + " kernel(s) match but none runs this problem (" +
                                     first_reason + ")");
      }
    }
    if (o_.provider_cublas) {
      if (lt_) {
        CublasLtProvider* lt = lt_.get();
        out.push_back({"cublas", "cublasLt", true, [g, lt](const BufferSet& s, cudaStream_t st) {
                         return lt->run(g, s.a.get(), s.b.get(), s.c.get(), s.d.get(), st);
                       }});
      } else {
        add_row("cublas", "cublasLt", "error", lt_error_);
      }
    }
    return out;
  }

  // One timed window of c (1/rounds of the iterations or duration) after a warm-up, rotating
  // through the buffer sets; appends each iteration's event time to times.
  Status measure(const Candidate& c, const std::vector<BufferSet>& sets, int rounds, bool rewarm,
                 std::vector<double>& times) {
    const cudaStream_t st = stream_.get();
    const double min_warmup = !ramped_ ? kFirstWarmupMs : rewarm ? kRewarmMs : kWarmupMs;
    std::size_t next = 0;
    auto run_one = [&]() -> Status {
      const Status s = c.run(sets[next], st);
      next = (next + 1) % sets.size();
      return s;
    };
    Event e0, e1;
    if (!e0.status().ok()) return e0.status();
    if (!e1.status().ok()) return e1.status();
    int64_t done = 0, batch = std::max<int64_t>(o_.warmup_iterations, 1);
    double spent = 0, last_batch_us = 0;  // the last warm-up batch: one event pair around its launches
    while (true) {
      if (Status s = cuda_check(cudaEventRecord(e0.get(), st), "cudaEventRecord"); !s.ok()) return s;
      for (int64_t i = 0; i < batch; ++i)
        if (Status s = run_one(); !s.ok()) return s;
      if (Status s = cuda_check(cudaEventRecord(e1.get(), st), "cudaEventRecord"); !s.ok()) return s;
      if (Status s = cuda_check(cudaEventSynchronize(e1.get()), "warm-up"); !s.ok()) return s;
      auto ms = elapsed_ms(e0, e1);
      if (!ms.ok()) return ms.status();
      last_batch_us = 1e3 * double(*ms) / double(batch);
      spent += *ms;
      done += batch;
      if (done >= o_.warmup_iterations && spent >= min_warmup) break;
      const double per = std::max(double(*ms) / double(batch), 1e-4);
      batch = std::clamp<int64_t>(static_cast<int64_t>(std::ceil((min_warmup - spent) / per)), 1, kMaxIterations);
    }
    ramped_ = true;
    const double per_iter = spent / double(done);
    const int64_t iters = o_.profiling_iterations > 0
        ? (o_.profiling_iterations + rounds - 1) / rounds
        : std::clamp<int64_t>(static_cast<int64_t>(std::ceil(o_.profiling_duration_ms / rounds / per_iter)), 3,
                              kMaxIterations);
    std::vector<Event> ev(static_cast<std::size_t>(iters) + 1);
    for (const Event& e : ev)
      if (!e.status().ok()) return e.status();
    const auto host_start = std::chrono::steady_clock::now();
    if (Status s = cuda_check(cudaEventRecord(ev[0].get(), st), "cudaEventRecord"); !s.ok()) return s;
    for (int64_t i = 0; i < iters; ++i) {
      if (Status s = run_one(); !s.ok()) return s;
      if (Status s = cuda_check(cudaEventRecord(ev[i + 1].get(), st), "cudaEventRecord"); !s.ok()) return s;
    }
    const double host_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - host_start).count();
    if (Status s = cuda_check(cudaEventSynchronize(ev.back().get()), "timed runs"); !s.ok()) return s;
    const std::size_t first = times.size();
    for (int64_t i = 0; i < iters; ++i) {
      auto ms = elapsed_ms(ev[i], ev[i + 1]);
      if (!ms.ok()) return ms.status();
      times.push_back(*ms);
    }
    // TCGEMM_DIAG_HOST_TIMING=1: the host's enqueue time per launch beside the events' median; where
    // the host is the slower, the GPU waits for launches and the events time the host.
    static const bool host_timing = diag_flag("TCGEMM_DIAG_HOST_TIMING");
    if (host_timing && iters > 0) {
      std::vector<double> w(times.begin() + static_cast<std::ptrdiff_t>(first), times.end());
      std::nth_element(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(w.size() / 2), w.end());
      std::fprintf(stderr,
                   "host-timing %s: enqueue %.2f us/launch, events median %.2f us (%lld launches), warm-up batch "
                   "without events between launches %.2f us/launch\n",
                   c.kernel.c_str(), host_us / static_cast<double>(iters), 1e3 * w[w.size() / 2],
                   static_cast<long long>(iters), last_batch_us);
    }
    return Status::success();
  }

  const ProfileOptions& o_;
  DeviceInfo dev_;
  Stream stream_;
  std::unique_ptr<CublasLtProvider> lt_;
  std::string lt_error_ = "cuBLASLt provider not created";
  bool ramped_ = false;
  uint64_t problem_index_ = 0;
};

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

Result<ProfileRun> collect_profile(const ProfileOptions& o) {
  for (const std::string& note : o.notes) std::fprintf(stderr, "%s\n", note.c_str());
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    return Status(StatusCode::no_device, "profiling needs a GPU; no CUDA device found");
  }
  if (o.device >= count)
    return Status::invalid("--device: " + std::to_string(o.device) + " is out of range (" +
                           std::to_string(count) + " device(s))");

  DeviceInfo dev;
  dev.ordinal = static_cast<int>(o.device);
  cudaDeviceProp prop{};
  int driver = 0;
  if (Status s = cuda_check(cudaSetDevice(dev.ordinal), "cudaSetDevice"); !s.ok()) return s;
  if (Status s = cuda_check(cudaGetDeviceProperties(&prop, dev.ordinal), "cudaGetDeviceProperties"); !s.ok())
    return s;
  if (Status s = cuda_check(cudaDriverGetVersion(&driver), "cudaDriverGetVersion"); !s.ok()) return s;
  dev.sm = prop.major * 10 + prop.minor;
  dev.name = prop.name;
  dev.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
  dev.driver = std::to_string(driver / 1000) + "." + std::to_string((driver % 1000) / 10);

  Profiler profiler(o, dev);
  if (Status s = profiler.init(); !s.ok()) return s;
  ProfileRun run;
  run.info = RunInfo{utc_now(), dev.name, dev.driver, o.command_line};
  char header[256];
  std::snprintf(header, sizeof header, "device: %s (sm_%d, %d SMs, L2 %.0f MiB), driver %s", dev.name.c_str(),
                dev.sm, prop.multiProcessorCount, double(dev.l2_bytes) / (1 << 20), dev.driver.c_str());
  run.device_line = header;
  const std::size_t total = o.problems.size();
  for (std::size_t i = 0; i < total; ++i) {
    if (total > 1)
      std::fprintf(stderr, "[%zu/%zu] %s\n", i + 1, total, describe_problem(o.problems[i]).c_str());
    if (Status s = profiler.profile(o.problems[i], run.rows); !s.ok()) {
      // A CUDA error leaves the context unusable: report what ran and stop.
      std::fprintf(stderr, "tcgemm: error: %s (stopping)\n", s.message().c_str());
      run.stopped_early = true;
      break;
    }
  }
  // The per-problem overrides go back to the defaults, so an in-process caller (`tcgemm tune`)
  // plans and runs as gemm() does after the profile.
  set_forced_split_k(0);
  set_pc_raster(PcRaster::heuristic, 0);
  return run;
}

Status write_rows(const std::string& path, OutputFormat format, const ProfileRun& run) {
  std::ofstream out(path);
  if (!out) return Status::invalid("--output: cannot write '" + path + "'");
  if (format == OutputFormat::json) out << to_json(run.rows, run.info).dump(2) << '\n';
  else write_csv(out, run.rows, run.info);
  if (!out) return Status::invalid("--output: writing '" + path + "' failed");
  return Status::success();
}

int run_profile(const ProfileOptions& o) {
  if (!o.output.empty()) {
    // Fail before minutes of profiling, not after.
    std::ofstream probe(o.output, std::ios::app);
    if (!probe) return usage_error("--output: cannot write '" + o.output + "'");
  }
  Result<ProfileRun> run = collect_profile(o);
  if (!run.ok()) {
    if (run.status().code() == StatusCode::no_device) {
      std::fprintf(stderr, "tcgemm: error: %s\n", run.status().message().c_str());
      return kNoDevice;
    }
    if (run.status().code() == StatusCode::invalid_argument) return usage_error(run.status().message());
    std::fprintf(stderr, "tcgemm: error: %s\n", run.status().message().c_str());
    return 1;
  }
  int rc = run->stopped_early ? 1 : 0;
  for (const ProfileRow& r : run->rows)
    if (r.disposition == "failed" || r.disposition == "error") rc = 1;
  std::printf("%s\n", run->device_line.c_str());
  print_table(std::cout, run->rows);
  std::cout.flush();
  if (!o.output.empty())
    if (Status s = write_rows(o.output, o.output_format, *run); !s.ok()) {
      std::fprintf(stderr, "tcgemm: error: %s\n", s.message().c_str());
      return 1;
    }
  return rc;
}

int run_default_profile() {
  ProfileOptions o;
  o.command_line = "tcgemm main (default profile)";
  const int64_t shapes[][3] = {{4096, 4096, 4096}, {8192, 8192, 8192}, {4096, 10240, 8192},
                               {4097, 4097, 4097}, {16, 8192, 8192}};
  for (const auto& s : shapes) {
    ProfileProblem p;
    p.desc.m = s[0]; p.desc.n = s[1]; p.desc.k = s[2];
    p.desc.a = {DType::bf16, Layout::row};
    p.desc.b = {DType::bf16, Layout::column};
    p.desc.c = {DType::bf16, Layout::row};
    p.desc.d = {DType::bf16, Layout::row};
    o.problems.push_back(p);
  }
  return run_profile(o);
}

}  // namespace tcgemm::cli
