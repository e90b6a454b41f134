#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>

#include "tcgemm/tuning.hpp"

namespace tcgemm {
namespace {

bool known_tile(int tm, int tn) {
  return (tm == 128 && (tn == 256 || tn == 128 || tn == 64)) || (tm == 64 && tn == 64);
}

// "bf16:row" -> dtype and layout.
bool parse_operand(const std::string& s, DType& dtype, Layout& layout) {
  const auto colon = s.find(':');
  if (colon == std::string::npos) return false;
  const auto d = parse_dtype(std::string_view(s).substr(0, colon));
  const auto l = parse_layout(std::string_view(s).substr(colon + 1));
  if (!d || !l) return false;
  dtype = *d;
  layout = *l;
  return true;
}

// The plans behind a mutex; the generation is an atomic so that gemm()'s caches can read it on
// every call without taking the lock.
class Table {
 public:
  std::optional<TunedSplitPlan> find(const TunedSplitPlan& key) {
    load_environment_once();
    std::lock_guard<std::mutex> lock(mutex_);
    for (const TunedSplitPlan& p : plans_)
      if (same_tuned_problem(p, key)) return p;
    return std::nullopt;
  }
  void replace(std::vector<TunedSplitPlan> plans) {
    std::call_once(env_once_, [] {});  // an explicit table wins over the environment's
    std::lock_guard<std::mutex> lock(mutex_);
    plans_ = std::move(plans);
    generation_.fetch_add(1, std::memory_order_release);
  }
  void add(const TunedSplitPlan& p) {
    load_environment_once();
    std::lock_guard<std::mutex> lock(mutex_);
    put_tuned_split_plan(plans_, p);
    generation_.fetch_add(1, std::memory_order_release);
  }
  uint64_t generation() {
    load_environment_once();
    return generation_.load(std::memory_order_acquire);
  }

 private:
  // TCGEMM_TUNED_PLANS names a file to load at first use; a file that does not parse is reported
  // once on stderr and ignored (gemm() has no other channel for it, and must not fail a GEMM for it).
  void load_environment_once() {
    std::call_once(env_once_, [this] {
      const char* path = std::getenv("TCGEMM_TUNED_PLANS");
      if (path == nullptr || *path == '\0') return;
      Result<std::vector<TunedSplitPlan>> r = read_tuned_split_plans(path);
      if (!r.ok()) {
        std::fprintf(stderr, "tcgemm: TCGEMM_TUNED_PLANS ignored: %s\n", r.status().message().c_str());
        return;
      }
      std::lock_guard<std::mutex> lock(mutex_);
      plans_ = std::move(r).value();
      generation_.fetch_add(1, std::memory_order_release);
    });
  }

  std::once_flag env_once_;
  std::mutex mutex_;
  std::vector<TunedSplitPlan> plans_;
  std::atomic<uint64_t> generation_{1};
};

Table& table() {
  static Table* t = new Table;  // never destroyed: gemm() may plan during static destruction
  return *t;
}

}  // namespace

Status validate(const TunedSplitPlan& p) {
  if (p.m < 1 || p.n < 1 || p.k < 1 || p.m > kMaxDim || p.n > kMaxDim || p.k > kMaxDim)
    return Status::invalid("m, n and k must be in 1.." + std::to_string(kMaxDim));
  if (p.input != DType::bf16 && p.input != DType::f16)
    return Status::invalid("input must be bf16 or f16 (got " + std::string(to_string(p.input)) + ")");
  if (!known_tile(p.tile_m, p.tile_n))
    return Status::invalid("tile must be 128x256, 128x128, 128x64 or 64x64 (got " + std::to_string(p.tile_m) + "x" +
                           std::to_string(p.tile_n) + ")");
  if (p.splits < 1 || p.splits > 64) return Status::invalid("splits must be in 1..64 (got " + std::to_string(p.splits) + ")");
  if (!(p.measured_us >= 0)) return Status::invalid("measured_us must be >= 0");
  return Status::success();
}

Result<std::vector<TunedSplitPlan>> parse_tuned_split_plans(std::string_view text) {
  std::vector<TunedSplitPlan> out;
  std::istringstream lines{std::string(text)};
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream fields(line);
    std::string a, b, tile, extra;
    TunedSplitPlan p;
    if (!(fields >> std::ws) || fields.eof()) continue;  // blank or comment only
    const std::string where = "line " + std::to_string(number) + ": ";
    if (!(fields >> p.m >> p.n >> p.k >> a >> b >> tile >> p.splits >> p.measured_us))
      return Status::invalid(where + "expected 'm n k A B TILE splits measured_us', got '" + line + "'");
    if (fields >> extra) return Status::invalid(where + "unexpected '" + extra + "' after measured_us");
    DType db = DType::bf16;
    if (!parse_operand(a, p.input, p.a)) return Status::invalid(where + "A must be dtype:layout, got '" + a + "'");
    if (!parse_operand(b, db, p.b)) return Status::invalid(where + "B must be dtype:layout, got '" + b + "'");
    if (db != p.input) return Status::invalid(where + "A and B must have one dtype (" + a + ", " + b + ")");
    const auto x = tile.find('x');
    if (x == std::string::npos) return Status::invalid(where + "TILE must be MxN, got '" + tile + "'");
    p.tile_m = std::atoi(tile.substr(0, x).c_str());
    p.tile_n = std::atoi(tile.substr(x + 1).c_str());
    if (Status s = validate(p); !s.ok()) return Status::invalid(where + s.message());
    for (TunedSplitPlan& q : out)
      if (same_tuned_problem(q, p)) return Status::invalid(where + "a second plan for the same problem");
    out.push_back(p);
  }
  return out;
}

std::string format_tuned_split_plan(const TunedSplitPlan& p) {
  char us[32];
  std::snprintf(us, sizeof us, "%.1f", p.measured_us);
  std::ostringstream os;
  os << p.m << ' ' << p.n << ' ' << p.k << ' ' << to_string(p.input) << ':' << to_string(p.a) << ' '
     << to_string(p.input) << ':' << to_string(p.b) << ' ' << p.tile_m << 'x' << p.tile_n << ' ' << p.splits << ' '
     << us;
  return os.str();
}

bool same_tuned_problem(const TunedSplitPlan& x, const TunedSplitPlan& y) {
  return x.m == y.m && x.n == y.n && x.k == y.k && x.input == y.input && x.a == y.a && x.b == y.b;
}

void put_tuned_split_plan(std::vector<TunedSplitPlan>& plans, const TunedSplitPlan& p) {
  bool replaced = false;
  for (TunedSplitPlan& q : plans)
    if (same_tuned_problem(q, p)) {
      q = p;
      replaced = true;
    }
  if (!replaced) plans.push_back(p);
}

Result<std::vector<TunedSplitPlan>> read_tuned_split_plans(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::invalid("cannot read tuned plans from '" + path + "'");
  std::stringstream text;
  text << in.rdbuf();
  Result<std::vector<TunedSplitPlan>> r = parse_tuned_split_plans(text.str());
  if (!r.ok()) return Status::invalid(path + ": " + r.status().message());
  return r;
}

Status load_tuned_split_plans(const std::string& path) {
  Result<std::vector<TunedSplitPlan>> r = read_tuned_split_plans(path);
  if (!r.ok()) return r.status();
  table().replace(std::move(r).value());
  return Status::success();
}

Status add_tuned_split_plan(const TunedSplitPlan& p) {
  if (Status s = validate(p); !s.ok()) return s;
  table().add(p);
  return Status::success();
}

void clear_tuned_split_plans() { table().replace({}); }

TunedSplitPlan tuned_problem_of(const GemmDesc& g) {
  TunedSplitPlan key;
  key.m = g.m;
  key.n = g.n;
  key.k = g.k;
  key.input = g.a.dtype;
  key.a = g.a.layout;
  key.b = g.b.layout;
  return key;
}

std::optional<TunedSplitPlan> find_tuned_split_plan(const GemmDesc& g) { return table().find(tuned_problem_of(g)); }

uint64_t tuned_split_plans_generation() { return table().generation(); }

namespace {

// -1: not yet read from the environment.
std::atomic<int> g_autotune{-1};

}  // namespace

void set_split_autotune(bool on) { g_autotune.store(on ? 1 : 0, std::memory_order_relaxed); }

bool split_autotune() {
  int v = g_autotune.load(std::memory_order_relaxed);
  if (v < 0) {
    const char* env = std::getenv("TCGEMM_AUTOTUNE");
    const int from_env = env != nullptr && env[0] == '1' && env[1] == '\0' ? 1 : 0;
    // A set_split_autotune() that raced ahead of this read wins.
    g_autotune.compare_exchange_strong(v, from_env, std::memory_order_relaxed);
    v = g_autotune.load(std::memory_order_relaxed);
  }
  return v == 1;
}

}  // namespace tcgemm
