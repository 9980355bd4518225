// The share of the wall time a lever at an assumed 2x gives back, beside its bound: report.md
// states it, so report.json carries it and no writer derives it (issue 15, "writers never
// compute").
#pragma once

#include "gpuperf/report.h"

namespace gpuperf::analysis {

// Sets d.time_removed_fraction_at_2x = 1 - 1 / d.bound_speedup_at_2x, in d and its secondary
// statements; clears it where there is no bound at 2x. Run after the diagnosis is final: the
// steps that set, cap, clear or swap bound_speedup_at_2x are many.
void SetTimeRemovedAt2x(report::Diagnosis& d);

}  // namespace gpuperf::analysis
