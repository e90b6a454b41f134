#include "device_select.hpp"

namespace tcgemm::cli {

Result<SelectedDevice> select_device(const std::string& name) {
  if (name == "auto") {
    Result<DeviceProfile> live = live_device_profile(0);
    if (live.ok()) return SelectedDevice{live.value(), ""};
    return SelectedDevice{*find_device_profile("h200"),
                          "no GPU found (" + live.status().message() + "): using the built-in h200 profile"};
  }
  if (const DeviceProfile* p = find_device_profile(name)) return SelectedDevice{*p, ""};
  return Status::invalid("--device=" + name + " is not a known device; use auto or one of: " +
                         device_profile_names());
}

}  // namespace tcgemm::cli
