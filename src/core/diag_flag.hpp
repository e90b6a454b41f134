// Diagnosis switches (TCGEMM_DIAG_*): each turns one path or gate on or off for A/B timing
// (bench/NOTES.md names the run behind each). On where the variable's value starts with 1, as every
// switch has read it; callers keep the answer in a static, so the environment is read once.
#pragma once

#include <cstdlib>

namespace tcgemm {

inline bool diag_flag(const char* name) {
  const char* e = std::getenv(name);
  return e != nullptr && *e == '1';
}

}  // namespace tcgemm
