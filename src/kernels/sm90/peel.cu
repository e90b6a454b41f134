#include "kernels/sm90/peel.hpp"

#include <algorithm>
#include <string>

#include "kernels/common/repack.hpp"
#include "kernels/sm90/split_k.hpp"
#include "kernels/sm90/wgmma_tma_ws.hpp"

namespace tcgemm {
namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Every ld explicit, so that sub-problems (smaller m/n) keep the parent's strides.
GemmDesc with_explicit_lds(GemmDesc g) {
  g.a.ld = effective_ld(g.a, extent_a(g));
  g.b.ld = effective_ld(g.b, extent_b(g));
  g.c.ld = effective_ld(g.c, extent_c(g));
  g.d.ld = effective_ld(g.d, extent_c(g));
  return g;
}

// Split-K cost of an m x n strip, as in plan_peel's model, plus a fixed charge for its second
// launch and reduce (measured split-K overheads are a few microseconds, ~4 k-block-times).
double strip_cost(const GemmDesc& g, int64_t m, int64_t n, int sm_count) {
  GemmDesc s = g;
  s.m = m;
  s.n = n;
  const Sm90WsShape t = sm90_wgmma_ws_shape();
  const int64_t tiles = ceil_div(m, t.tile_m) * ceil_div(n, t.tile_n);
  const int64_t k_blocks = ceil_div(g.k, t.tile_k);
  const int splits = choose_splits(s, sm_count);
  const int64_t per_split = ceil_div(k_blocks, splits);
  return static_cast<double>(ceil_div(tiles * splits, sm_count) * per_split) + (splits > 1 ? 4.0 : 0.0);
}

// A sub-problem: rows [r0, r0 + m) and columns [c0, c0 + n) of D, the matching rows of A and
// columns of B, all K. The offsets keep TMA's 16-byte rule: r0 is a multiple of 128 and c0 of 256
// elements, and the ld's of A/B are already multiples of 8.
GemmArgs sub_problem(const GemmArgs& args, int64_t r0, int64_t c0, int64_t m, int64_t n) {
  GemmArgs s = args;
  GemmDesc& g = s.desc;
  g.m = m;
  g.n = n;
  auto offset = [](const void* p, int64_t elements, DType t) {
    return p == nullptr ? p : static_cast<const void*>(static_cast<const char*>(p) + elements * static_cast<int64_t>(dtype_bytes(t)));
  };
  s.a = offset(args.a, g.a.layout == Layout::row ? r0 * g.a.ld : r0, g.a.dtype);
  s.b = offset(args.b, g.b.layout == Layout::row ? c0 : c0 * g.b.ld, g.b.dtype);
  const int64_t c_off = g.c.layout == Layout::row ? r0 * g.c.ld + c0 : c0 * g.c.ld + r0;
  const int64_t d_off = g.d.layout == Layout::row ? r0 * g.d.ld + c0 : c0 * g.d.ld + r0;
  s.c = offset(args.c, c_off, g.c.dtype);
  s.d = const_cast<void*>(offset(args.d, d_off, g.d.dtype));
  g.a.pointer_alignment = std::min<uint32_t>(g.a.pointer_alignment, r0 == 0 ? 256u : 16u);
  g.b.pointer_alignment = std::min<uint32_t>(g.b.pointer_alignment, c0 == 0 ? 256u : 16u);
  return s;
}

// The strips' split-K workspaces run one after the other on one stream, so they share one region.
std::size_t strips_workspace(const GemmDesc& g, const PeelPlan& p) {
  std::size_t bytes = 0;
  if (p.rows) {
    GemmDesc s = g;
    s.m = g.m - p.m_core;
    bytes = std::max(bytes, sm90_wgmma_ws_splitk_workspace(s));
  }
  if (p.cols) {
    GemmDesc s = g;
    s.m = p.m_core;
    s.n = g.n - p.n_core;
    bytes = std::max(bytes, sm90_wgmma_ws_splitk_workspace(s));
  }
  return bytes;
}

std::size_t round_up(std::size_t x, std::size_t m) { return (x + m - 1) / m * m; }

}  // namespace

std::vector<GemmArgs> peel_pieces(const GemmArgs& args, const PeelPlan& p) {
  GemmArgs base = args;
  base.desc = with_explicit_lds(args.desc);
  const int64_t m = base.desc.m, n = base.desc.n;
  std::vector<GemmArgs> pieces;
  pieces.push_back(sub_problem(base, 0, 0, p.rows ? p.m_core : m, p.cols ? p.n_core : n));
  if (p.cols) pieces.push_back(sub_problem(base, 0, p.n_core, p.rows ? p.m_core : m, n - p.n_core));
  if (p.rows) pieces.push_back(sub_problem(base, p.m_core, 0, m - p.m_core, n));
  return pieces;
}

PeelPlan plan_peel(const GemmDesc& g, int sm_count) {
  const Sm90WsShape t = sm90_wgmma_ws_shape();
  const int64_t k_blocks = ceil_div(g.k, t.tile_k);
  const int64_t sms = std::max(sm_count, 1);
  PeelPlan best;
  best.m_core = g.m;
  best.n_core = g.n;
  best.cost_plain = static_cast<double>(ceil_div(ceil_div(g.m, t.tile_m) * ceil_div(g.n, t.tile_n), sms) * k_blocks);
  best.cost_peeled = best.cost_plain;
  const bool can_rows = g.m > t.tile_m && g.m % t.tile_m != 0;
  const bool can_cols = g.n > t.tile_n && g.n % t.tile_n != 0;
  for (int option = 1; option <= 3; ++option) {
    const bool rows = option & 1, cols = option & 2;
    if ((rows && !can_rows) || (cols && !can_cols)) continue;
    const int64_t mc = rows ? g.m / t.tile_m * t.tile_m : g.m;
    const int64_t nc = cols ? g.n / t.tile_n * t.tile_n : g.n;
    double cost = static_cast<double>(ceil_div(ceil_div(mc, t.tile_m) * ceil_div(nc, t.tile_n), sms) * k_blocks);
    if (rows) cost += strip_cost(g, g.m - mc, g.n, sm_count);  // the bottom strip, corner included
    if (cols) cost += strip_cost(g, mc, g.n - nc, sm_count);
    // Peel only for a clear gain (a tenth of the plain cost): the model ignores L2 effects.
    if (cost < best.cost_peeled && cost < 0.9 * best.cost_plain) {
      best.rows = rows;
      best.cols = cols;
      best.m_core = mc;
      best.n_core = nc;
      best.cost_peeled = cost;
    }
  }
  return best;
}

Status sm90_wgmma_ws_peel_supports(const GemmDesc& g, DType input) {
  const Status plain = sm90_wgmma_ws_supports(g, input);
  const Status s = plain.code() == StatusCode::misaligned
                       ? sm90_wgmma_ws_supports(repacked_desc(g, plan_tma_repack(g)), input)
                       : plain;
  if (!s.ok()) return s;
  const PeelPlan p = plan_peel(g, current_sm_count());
  if (!p.rows && !p.cols)
    return Status::unsupported("peeling the partial tile row/column does not save a wave for this shape");
  return Status::success();
}

std::size_t sm90_wgmma_ws_peel_workspace(const GemmDesc& g) {
  const TmaRepackPlan r = plan_tma_repack(g);
  const PeelPlan p = plan_peel(g, current_sm_count());
  const std::size_t strips = strips_workspace(g, p);
  return strips == 0 ? r.workspace_bytes : round_up(r.workspace_bytes, 256) + strips;
}

Status sm90_wgmma_ws_peel_launch(const GemmArgs& args, DType input) {
  std::size_t copy_bytes = 0;
  Result<GemmArgs> copied = apply_tma_repack(args, &copy_bytes);
  if (!copied.ok()) return copied.status();
  const GemmArgs& base = copied.value();
  const PeelPlan p = plan_peel(base.desc, current_sm_count());
  if (!p.rows && !p.cols) return sm90_wgmma_ws_launch(base, input);

  // The strips' workspace follows the copies' (apply_tma_repack checked the copies' part).
  const std::size_t copies = round_up(copy_bytes, 256);
  const std::size_t strips = strips_workspace(with_explicit_lds(base.desc), p);
  if (args.workspace_bytes < copies + strips || (strips > 0 && args.workspace == nullptr))
    return Status(StatusCode::workspace_too_small,
                  "the peeled launch needs " + std::to_string(copies + strips) + " bytes of workspace; got " +
                      std::to_string(args.workspace_bytes));
  void* strip_ws = static_cast<char*>(args.workspace) + copies;

  std::vector<GemmArgs> pieces = peel_pieces(base, p);
  if (Status s = sm90_wgmma_ws_launch(pieces[0], input); !s.ok()) return s;
  for (std::size_t i = 1; i < pieces.size(); ++i) {
    pieces[i].workspace = strip_ws;
    pieces[i].workspace_bytes = strips;
    if (Status s = sm90_wgmma_ws_splitk_launch(pieces[i], input); !s.ok()) return s;
  }
  return Status::success();
}

}  // namespace tcgemm
