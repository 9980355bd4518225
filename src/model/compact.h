// Spare capacity after an import: the record vectors grew by doubling while the importer did not
// know their final size, so up to half of each is unused. Released once the model is complete.
#pragma once

#include "gpuperf/trace.h"

namespace gpuperf::model {

// Shrinks every record vector of `trace` to its size. With freed memory kept in the heap
// (util::KeepFreedMemoryInHeap), the analysis reuses the space instead of growing the heap.
void ReleaseSpareCapacity(Trace& trace);

}  // namespace gpuperf::model
