#include <iostream>

#include "analysis_json.hpp"
#include "analysis_text.hpp"
#include "commands.hpp"
#include "device_select.hpp"

namespace tcgemm::cli {
namespace {

struct OccupancyFlags {
  std::string device = "auto";
  int threads = 256, regs = 32;
  int64_t smem = 0, dyn_smem = 0;
  bool json = false;
};

int run_occupancy(const OccupancyFlags& f) {
  Result<SelectedDevice> dev = select_device(f.device);
  if (!dev.ok()) return usage_error(dev.status().message());
  // --smem is the CTA's shared memory as the seeds quote it; --dyn-smem adds dynamic on top.
  const KernelResources k{f.threads, f.regs, f.smem, f.dyn_smem};
  Result<Occupancy> o = compute_occupancy(dev->profile, k);
  if (!o.ok()) return usage_error(o.status().message());
  if (f.json) {
    nlohmann::json j = occupancy_json(*o);
    j["device"] = dev->profile.name;
    if (!dev->note.empty()) j["note"] = dev->note;
    std::cout << j.dump(2) << "\n";
  } else {
    if (!dev->note.empty()) std::cout << "note: " << dev->note << "\n";
    std::cout << occupancy_text(*o, dev->profile, k);
  }
  return 0;
}

}  // namespace

Runner add_occupancy(CLI::App& app) {
  auto f = std::make_shared<OccupancyFlags>();
  CLI::App* cmd = app.add_subcommand("occupancy", "CTAs per SM for a kernel's threads, registers and shared memory, and what binds");
  cmd->add_option("--device", f->device, "device profile or auto")->capture_default_str();
  cmd->add_option("--threads", f->threads, "threads per CTA")->capture_default_str();
  cmd->add_option("--regs", f->regs, "registers per thread")->capture_default_str();
  cmd->add_option("--smem", f->smem, "shared memory per CTA in bytes (static)")->capture_default_str();
  cmd->add_option("--dyn-smem", f->dyn_smem, "dynamic shared memory per CTA in bytes")->capture_default_str();
  cmd->add_flag("--json", f->json, "print JSON with fixed keys");
  return [f] { return run_occupancy(*f); };
}

}  // namespace tcgemm::cli
