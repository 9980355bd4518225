// Nsight Systems SQLite exports (`nsys export --type sqlite`), schema 2.9 to 3.24.
#pragma once

#include <memory>

#include "io/importer.h"

namespace gpuperf::io {

std::unique_ptr<Importer> MakeNsysImporter();

}  // namespace gpuperf::io
