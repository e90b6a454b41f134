#include "analysis_json.hpp"

namespace tcgemm::cli {

using nlohmann::json;

// Snake-case names so scripts can use them as keys of "limits".
static const char* limiter_key(Limiter l) {
  switch (l) {
    case Limiter::registers: return "registers";
    case Limiter::shared_memory: return "shared_memory";
    case Limiter::threads: return "threads";
    case Limiter::blocks: return "blocks";
    case Limiter::barriers: return "barriers";
  }
  return "?";
}

json occupancy_json(const Occupancy& o) {
  json binding = json::array();
  for (Limiter l : o.binding) binding.push_back(limiter_key(l));
  return json{{"ctas_per_sm", o.ctas_per_sm},
              {"limits", {{"registers", o.limits.registers},
                          {"shared_memory", o.limits.shared_memory},
                          {"threads", o.limits.threads},
                          {"blocks", o.limits.blocks},
                          {"barriers", o.limits.barriers}}},
              {"smem_carveout", o.smem_carveout},
              {"binding", binding},
              {"closed", o.closed},
              {"registers_per_cta", o.registers_per_cta},
              {"smem_per_cta", o.smem_per_cta},
              {"active_warps_per_sm", o.active_warps_per_sm},
              {"occupancy", o.occupancy},
              {"notes", o.notes}};
}

static json operand_json(const OperandCheck& c) { return json{{"ok", c.ok}, {"reason", c.reason}}; }

json explain_json(const ShapeReport& r) {
  const FamilyCheck& chosen = family_check(r.alignment, r.alignment.chosen);
  json families = json::array();
  for (const FamilyCheck& f : r.alignment.families)
    families.push_back({{"family", std::string(to_string(f.family))},
                        {"available", f.available},
                        {"eligible", f.eligible},
                        {"reason", f.reason}});
  json advice = json::array();
  for (const Advice& a : r.advice)
    advice.push_back({{"action", a.action}, {"predicted_gain", a.predicted_gain}, {"reason", a.reason}});
  return json{
      {"problem", {{"m", r.desc.m}, {"n", r.desc.n}, {"k", r.desc.k},
                   {"A", std::string(to_string(r.desc.a.dtype)) + ":" + std::string(to_string(r.desc.a.layout))},
                   {"B", std::string(to_string(r.desc.b.dtype)) + ":" + std::string(to_string(r.desc.b.layout))},
                   {"D", std::string(to_string(r.desc.d.dtype)) + ":" + std::string(to_string(r.desc.d.layout))}}},
      {"device", r.device.name},
      {"flops", r.roofline.flops},
      {"min_bytes", r.roofline.min_bytes},
      {"arithmetic_intensity", r.roofline.arithmetic_intensity},
      {"ridge_intensity", r.roofline.ridge_intensity},
      {"bound", r.roofline.compute_bound ? "compute" : "memory"},
      {"floor_us", r.roofline.floor_us},
      {"stream_us", r.roofline.stream_us},
      {"tile", {{"m", r.tile.tile_m}, {"n", r.tile.tile_n}, {"k", r.tile.tile_k}, {"cluster_m", r.tile.cluster_m}}},
      {"tiles_m", r.waves.tiles_m},
      {"tiles_n", r.waves.tiles_n},
      {"stages", r.tile.stages},
      {"grid_ctas", r.waves.grid_ctas},
      {"ctas_per_sm", r.waves.ctas_per_sm},
      {"waves", r.waves.waves},
      {"wave_efficiency", r.waves.wave_efficiency},
      {"padding_efficiency", r.waves.padding_efficiency},
      {"mma_family", std::string(to_string(r.alignment.chosen))},
      {"tensor_core_eligible", r.alignment.tensor_core_eligible},
      {"eligibility_reason", r.alignment.reason},
      {"alignment", {{"a", operand_json(chosen.a)}, {"b", operand_json(chosen.b)}, {"c", operand_json(chosen.c)},
                     {"families", families}}},
      {"occupancy", occupancy_json(r.occupancy)},
      {"predicted_us", r.predicted.total_us},
      {"advice", advice},
  };
}

}  // namespace tcgemm::cli
