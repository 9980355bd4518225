// A recording of `gpuperf baseline` (one process's spool, src/spool/spool_format.h) as a trace
// format like any other: chosen by its magic bytes "GPUSPOOL", read whole, and converted to the
// model by SpoolsToTrace (spool_model.h). `gpuperf analyze host.1234.gpuperf` reads a kept spool
// (`baseline --keep-spool`) the way it reads the Kineto trace written from it.
#pragma once

#include <memory>

#include "io/importer.h"

namespace gpuperf::io {

std::unique_ptr<Importer> MakeSpoolImporter();

}  // namespace gpuperf::io
