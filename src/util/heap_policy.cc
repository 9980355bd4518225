#include "util/heap_policy.h"

#include <malloc.h>

namespace gpuperf::util {

void KeepFreedMemoryInHeap() {
  constexpr int kOneGiB = 1 << 30;
  mallopt(M_MMAP_THRESHOLD, kOneGiB);
  mallopt(M_TRIM_THRESHOLD, kOneGiB);
  // One arena: the framework view's thread then reuses what the import freed (its doubling
  // vectors) instead of growing a second heap (1 GB trace: peak RSS 382 -> 339 MB).
  mallopt(M_ARENA_MAX, 1);
}

}  // namespace gpuperf::util
