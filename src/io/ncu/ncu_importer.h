// Nsight Compute CSV (`ncu --csv`: --metrics, --page details, --page raw), chosen by its header
// line. Each profiled launch becomes one kernel activity plus its KernelCounters. ncu serialises
// and replays launches, so there is no real timeline: launches are laid back to back from 0 in
// ID order, which the trace's notes say. See docs/formats.md, "Nsight Compute CSV".
#pragma once

#include <memory>

#include "io/importer.h"

namespace gpuperf::io {

std::unique_ptr<Importer> MakeNcuImporter();

}  // namespace gpuperf::io
