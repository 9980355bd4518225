// Process-wide allocator policy for the analyzer's programs (the CLI and the benchmark).
#pragma once

namespace gpuperf::util {

// The analysis builds and drops large temporary arrays (sorted copies, interval lists) one rule
// after another. glibc maps each such block from the kernel and unmaps it on free, so every rule
// paid the page faults again: a third of the run time on a 2.5 M-row nsys export
// (docs/performance.md). Keeping freed memory in the heap lets the next rule reuse it, and one
// arena lets the analysis' second thread reuse it too.
void KeepFreedMemoryInHeap();

}  // namespace gpuperf::util
