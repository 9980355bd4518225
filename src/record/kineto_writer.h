// A process's spool as a Kineto-dialect Chrome trace (docs/recorder.md, FORMATS.md §1), so that
// `gpuperf analyze`, Perfetto, HTA and TraceLens read what `gpuperf baseline` recorded.
//
// Dialect choices: the 2024+ encoding (relative microseconds with exactly three decimals,
// baseTimeNanoseconds a multiple of 7 889 238 s); GPU work on pid = device, tid = stream;
// host API calls on the OS pid/tid; memcpy correlation = the runtime call's correlation id;
// NVTX ranges as `user_annotation`; allocations as `[memory]` instants.
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

// Writes ToKinetoJson to `path`, gzip-compressed when `gzip` is set.
Status WriteKinetoTrace(const io::SpoolContents& process,
                        const KinetoWriteOptions& options,
                        const std::string& path,
                        bool gzip);

}  // namespace gpuperf::record
