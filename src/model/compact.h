// Spare capacity after an import: vectors (frame threads, counters, the record arrays' chunk
// tables) grew by doubling while the importer did not know their final size, so up to half of
// each is unused. Released once the model is complete. (The record arrays themselves grow by
// chunks, gpuperf/record_array.h: they hold no spare capacity beyond their last chunk.)
#pragma once

#include "gpuperf/trace.h"

namespace gpuperf::model {

// Shrinks every record vector of `trace` to its size. With freed memory kept in the heap
// (util::KeepFreedMemoryInHeap), the analysis reuses the space instead of growing the heap.
void ReleaseSpareCapacity(Trace& trace);

}  // namespace gpuperf::model
