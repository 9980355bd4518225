// The most records (activities, API calls, syncs, ranges, host ops, Python frames, memory events,
// counters) a trace model may hold: memory is bounded by what the model keeps, whatever the input
// (a 3.6 MB gzip inflated to 7.7 M kernel events took 2.7 GB). Importers stop adding records at the
// limit and count the rest in a diagnostic of severity kError (gpuperf/diagnostics_catalogue.h:
// kKinetoRecordsOverLimit); io's registry then fails the import naming the limit and the option
// that raises it (--max-records).
#pragma once

#include "gpuperf/trace.h"

#include <cstddef>
#include <cstdint>

namespace gpuperf::model {

// The process-wide limit (default 10,000,000); the CLI sets it from --max-records.
std::uint64_t& MaxTraceRecords();

// The records `trace` holds now.
std::size_t RecordCount(const Trace& trace);

// Whether `trace` is at the limit: an importer adds nothing more and counts what it drops.
inline bool RecordLimitReached(const Trace& trace) {
  return RecordCount(trace) >= MaxTraceRecords();
}

}  // namespace gpuperf::model
