// A process's spool as a Kineto-dialect Chrome trace (docs/recorder.md; docs/formats.md, "Kineto"),
// so that `gpuperf analyze`, Perfetto, HTA and TraceLens read what `gpuperf baseline` recorded.
//
// Dialect choices: the 2024+ encoding (relative microseconds with exactly three decimals,
// baseTimeNanoseconds a multiple of 7 889 238 s); GPU work on pid = device, tid = stream;
// host API calls on the OS pid/tid; memcpy correlation = the runtime call's correlation id;
// NVTX ranges as `user_annotation` with their "nvtx domain"; allocations as `[memory]` instants;
// launch -> GPU work arrows as Kineto's "ac2g" flow events (ph "s" on the API call, "f" on the
// first kernel, copy or memset with its correlation id). Every string is valid UTF-8 (an invalid
// byte becomes U+FFFD).
#pragma once

#include "gpuperf/result.h"

#include <string>

#include "io/spool/spool_reader.h"

namespace gpuperf::record {

struct KinetoWriteOptions {
  std::string trace_name;      // "traceName"
  int driver_api_version = 0;  // "cuda_driver_version" (13000); 0 = unknown
};

// The whole document as text.
std::string ToKinetoJson(const io::SpoolContents& process, const KinetoWriteOptions& options);

// Writes ToKinetoJson to `path` (a new file; every write, the fsync and the close checked),
// gzip-compressed in memory first when `gzip` is set.
Status WriteKinetoTrace(const io::SpoolContents& process,
                        const KinetoWriteOptions& options,
                        const std::string& path,
                        bool gzip);

}  // namespace gpuperf::record
