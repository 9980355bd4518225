#include "util/heap_policy.h"

#include <malloc.h>

namespace gpuperf::util {

void KeepFreedMemoryInHeap() {
  constexpr int kOneGiB = 1 << 30;
  mallopt(M_MMAP_THRESHOLD, kOneGiB);
  mallopt(M_TRIM_THRESHOLD, kOneGiB);
}

}  // namespace gpuperf::util
