// The roofline of a kernel on a device the trace does not name (a standalone Nsight Compute CSV
// records only the compute capability): the counters are placed against every datasheet entry
// of that compute capability, and the kernel gets a bound only when all of them agree
// (docs/metrics.md, "Roofline", candidate ceilings).
#pragma once

#include "gpuperf/roofline.h"

#include <optional>
#include <vector>

#include "analysis/kernel/roofline.h"
#include "model/ceilings.h"

namespace gpuperf::analysis {

// ComputeRoofline against each of `candidates` (compute peaks scaled to `counters_clock_hz`
// when known, as for a named device). The result carries FLOPs, bytes, intensities and achieved
// rates, the candidates' keys and the range of compute and DRAM fractions; `bound` is the
// candidates' common bound, or "unknown" when they differ or any is unknown; `floor_ns` is the
// smallest floor (a lower bound whichever candidate it ran on). No roof_fraction or peaks: there
// is no single roof.
report::KernelRoofline CandidateRoofline(
    const std::vector<RooflineInstance>& instances,
    const std::vector<const model::DeviceCeilings*>& candidates,
    std::optional<double> counters_clock_hz);

}  // namespace gpuperf::analysis
