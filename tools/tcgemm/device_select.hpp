// --device=<name>|auto for the analyzer commands.
#pragma once

#include <string>

#include "tcgemm/device.hpp"

namespace tcgemm::cli {

struct SelectedDevice {
  DeviceProfile profile;
  std::string note;  // e.g. "no GPU found: using the built-in h200 profile"
};

// "auto" reads the live GPU and falls back to the h200 profile (with a note) when none is there.
Result<SelectedDevice> select_device(const std::string& name);

}  // namespace tcgemm::cli
