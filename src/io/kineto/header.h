// The top-level keys of a Kineto document other than "traceEvents": devices, distributed info,
// versions and the time base. They may come before or after the events (docs/formats.md,
// "Kineto", "Document").
#pragma once

#include "gpuperf/trace.h"

#include <string_view>

#include "util/json_reader.h"

namespace gpuperf::io::kineto {

// Reads the value of top-level key `key` whose first token `first` the reader just returned,
// into trace->devices / trace->metadata; unknown keys are skipped. Returns false on a JSON
// error (see reader.error()).
//   deviceProperties / computeProperties -> devices; distributedInfo -> rank, world_size,
//   backend; baseTimeNanoseconds -> time_base_ns; schemaVersion -> format_version;
//   cupti / CUDA / ROCm versions, trace_id, nccl_version -> properties.
bool ReadHeaderValue(util::JsonReader& reader,
                     std::string_view key,
                     util::JsonToken first,
                     model::Trace* trace);

}  // namespace gpuperf::io::kineto
