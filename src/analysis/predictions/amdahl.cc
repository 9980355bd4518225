#include "analysis/predictions/amdahl.h"

#include <cmath>
#include <limits>

namespace gpuperf::analysis {

double AmdahlSpeedup(double fraction, double local_speedup) {
  return 1.0 / ((1.0 - fraction) + fraction / local_speedup);
}

double AmdahlLimit(double fraction) {
  if (fraction >= 1.0)
    return std::numeric_limits<double>::infinity();
  return 1.0 / (1.0 - fraction);
}

std::int64_t TimeSavedNs(std::int64_t critical_ns, double local_speedup) {
  return std::llround(static_cast<double>(critical_ns) * (1.0 - 1.0 / local_speedup));
}

}  // namespace gpuperf::analysis
