// Amdahl's law (docs/method.md, "Amdahl bound and critical time"): a part that holds the
// fraction f of the critical time and becomes s times faster bounds the whole program's speedup
// at 1 / ((1 - f) + f / s), and at 1 / (1 - f) however fast the part gets.
#pragma once

#include <cstdint>

namespace gpuperf::analysis {

// f in [0, 1], s > 0. Returns the whole-program speedup bound.
double AmdahlSpeedup(double fraction, double local_speedup);

// 1 / (1 - f); +infinity when f >= 1.
double AmdahlLimit(double fraction);

// Wall time saved when the part speeds up s times: critical_ns * (1 - 1 / s). Negative for s < 1
// (a slowdown costs time). critical_ns is f * wall_ns.
std::int64_t TimeSavedNs(std::int64_t critical_ns, double local_speedup);

}  // namespace gpuperf::analysis
