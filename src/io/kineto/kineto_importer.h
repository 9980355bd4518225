// Kineto / PyTorch-profiler Chrome-trace JSON (plain or gzip), every writer generation since 2021.
// docs/formats.md, "Kineto", lists the variants this reader survives.
#pragma once

#include <memory>

#include "io/importer.h"

namespace gpuperf::io {

std::unique_ptr<Importer> MakeKinetoImporter();

}  // namespace gpuperf::io
