#include "tcgemm/device.hpp"

namespace tcgemm {
// Placeholder until the live reader lands.
Result<DeviceProfile> live_device_profile(int) { return Status(StatusCode::no_device, "not implemented"); }
}  // namespace tcgemm
