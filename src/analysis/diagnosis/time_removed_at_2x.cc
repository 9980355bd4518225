#include "analysis/diagnosis/time_removed_at_2x.h"

namespace gpuperf::analysis {

void SetTimeRemovedAt2x(report::Diagnosis& d) {
  d.time_removed_fraction_at_2x.reset();
  if (d.bound_speedup_at_2x)
    d.time_removed_fraction_at_2x = 1.0 - 1.0 / *d.bound_speedup_at_2x;
  for (report::Diagnosis& secondary : d.secondary)
    SetTimeRemovedAt2x(secondary);
}

}  // namespace gpuperf::analysis
