// The diagnostics catalogue: every condition an importer, the counter join, the spool reader or
// the analysis counts in Trace::diagnostics, declared once with its report name, its severity and
// one line of meaning (as perfetto's trace_processor declares its stats in stats.h).
//
// Counting goes through model::Diagnostic only (Diagnostics::Count takes no string), so a name
// that is not here cannot be counted. The names are report.json's `diagnostics[].name` and are a
// contract (docs/report-schema.md): never rename one without a schema change. They came in three
// spellings before this catalogue ("kineto.bad_ts", "ncu_missing_units",
// "nvtx range end without start"); those stay as they are, and a new name is written
// "<source>.<snake_case>" (the kineto and nsys style): tests/unit/diagnostics_catalogue_test.cc
// holds both rules. The enumerator is the name in CamelCase ("kineto.bad_ts" -> kKinetoBadTs).
//
// The list is in byte order of the names (checked at compile time): the order of report.json's
// `diagnostics` array, which is a std::map over this enum. docs/metrics.md, "Import
// diagnostics", lists every entry; a unit test keeps the two equal.
//
// To add one: an F(...) line at its place in the order, then the row in docs/metrics.md (the
// test prints it), then Count() it where the condition is found.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace gpuperf::model {

// What a counted condition means for the figures of a report.
enum class DiagnosticSeverity : std::uint8_t {
  // Nothing of the input is missing from the model: what gpuperf leaves out by design (flows,
  // counters of other tools), repairs, and counts of what was done.
  kInfo,
  // A record or a value of the input was malformed or incomplete and is not in the model as
  // written (skipped, clamped, or kept without the value): figures that need it can be short.
  kDataLoss,
  // The model is not the whole input: io/registry.cc fails the import.
  kError,
};

// "info", "data-loss", "error" (docs/metrics.md).
std::string_view ToString(DiagnosticSeverity severity);

// F(enumerator, name, severity, meaning), in byte order of the names.
// clang-format off
#define GPUPERF_DIAGNOSTICS(F)                                                                     \
  F(kAnalysisDeviceRemapped, "analysis.device_remapped", kInfo,                                    \
    "all GPU work runs on one device id that the trace's only device description does not "        \
    "have: read as a visible-devices remap, the description renumbered")                           \
  F(kCountersConfigMismatch, "counters_config_mismatch", kDataLoss,                                \
    "`--counters`: Nsight Compute launches whose kernel name is in the trace only with "           \
    "another grid or block; their counters are not used")                                          \
  F(kCountersJoined, "counters_joined", kInfo,                                                     \
    "`--counters`: Nsight Compute launches joined to a kernel of the trace")                       \
  F(kCountersNcuLaunches, "counters_ncu_launches", kInfo,                                          \
    "`--counters`: Nsight Compute launches read from the counter files (present whenever "         \
    "counters were joined, even at 0)")                                                            \
  F(kCountersNoKernel, "counters_no_kernel", kDataLoss,                                            \
    "`--counters`: Nsight Compute launches whose kernel name has no instance left in the "         \
    "trace; their counters are not used")                                                          \
  F(kCountersUnjoined, "counters_unjoined", kDataLoss,                                             \
    "`--counters`: Nsight Compute launches not joined (no kernel left, or another grid or "        \
    "block)")                                                                                      \
  F(kKinetoBadBaseTime, "kineto.bad_base_time", kDataLoss,                                         \
    "`baseTimeNanoseconds` is not an integer; timestamps stay relative (no absolute time)")        \
  F(kKinetoBadDur, "kineto.bad_dur", kDataLoss,                                                    \
    "an `X` event whose `dur` is not a number, or whose end would overflow; skipped")              \
  F(kKinetoBadTs, "kineto.bad_ts", kDataLoss,                                                      \
    "an event whose `ts` is not a number in microseconds; skipped")                                \
  F(kKinetoEventWithoutDur, "kineto.event_without_dur", kDataLoss,                                 \
    "an `X` event without `dur`; skipped")                                                         \
  F(kKinetoEventWithoutPh, "kineto.event_without_ph", kDataLoss,                                   \
    "an event without a string `ph`; skipped")                                                     \
  F(kKinetoEventWithoutTs, "kineto.event_without_ts", kDataLoss,                                   \
    "an `X` event or a `[memory]` instant without `ts`; skipped")                                  \
  F(kKinetoGpuActivityWithoutCorrelation, "kineto.gpu_activity_without_correlation", kInfo,        \
    "a kernel, copy or memset without `args.correlation`; kept, not linked to a launch")           \
  F(kKinetoIgnoredCounter, "kineto.ignored.counter", kInfo,                                        \
    "a counter (`ph` `C`) event, written by analysis tools; not modelled")                         \
  F(kKinetoIgnoredFlow, "kineto.ignored.flow", kInfo,                                              \
    "a flow event (`ph` `s`, `f`, `t`, or an `X` of a flow category); the correlation id "         \
    "links launches instead")                                                                      \
  F(kKinetoIgnoredInstant, "kineto.ignored.instant", kInfo,                                        \
    "an instant other than a `[memory]` allocator event (iteration start, window end); not "       \
    "modelled")                                                                                    \
  F(kKinetoIgnoredMetadata, "kineto.ignored.metadata", kInfo,                                      \
    "a metadata (`ph` `M`) event other than a `process_name`; not modelled")                       \
  F(kKinetoIgnoredOtherCategory, "kineto.ignored.other_category", kInfo,                           \
    "an `X` event of a category gpuperf does not model (CPU instants, MTIA, tool outputs)")        \
  F(kKinetoIgnoredOverhead, "kineto.ignored.overhead", kInfo,                                      \
    "a profiler `overhead` event (activity buffer requests); not modelled")                        \
  F(kKinetoIgnoredTraceSpan, "kineto.ignored.trace_span", kInfo,                                   \
    "the whole-capture `Trace` span; left out of every extent")                                    \
  F(kKinetoMemoryEventWithoutBytes, "kineto.memory_event_without_bytes", kDataLoss,                \
    "a `[memory]` instant without a usable `Bytes`; skipped")                                      \
  F(kKinetoNegativeDur, "kineto.negative_dur", kDataLoss,                                          \
    "an `X` event with a negative `dur`; skipped")                                                 \
  F(kKinetoNonObjectEvent, "kineto.non_object_event", kDataLoss,                                   \
    "an element of `traceEvents` that is not a JSON object; skipped")                              \
  F(kKinetoOrphanGpuActivity, "kineto.orphan_gpu_activity", kInfo,                                 \
    "a kernel, copy or memset whose correlation has no launch call in the trace (launched "        \
    "before the window or on an untraced thread); kept")                                           \
  F(kKinetoProfilerRangeBadMetric, "kineto.profiler_range_bad_metric", kDataLoss,                  \
    "a `cuda_profiler_range` counter that is not a number; that counter is dropped")               \
  F(kKinetoProfilerRangeWithoutMetrics, "kineto.profiler_range_without_metrics", kInfo,            \
    "a `cuda_profiler_range` event with no counter; kept without counters")                        \
  F(kKinetoProfilerRanges, "kineto.profiler_ranges", kInfo,                                        \
    "`cuda_profiler_range` events (CUPTI range profiler) read")                                    \
  F(kKinetoProfilerRangesAsKernel, "kineto.profiler_ranges_as_kernel", kInfo,                      \
    "profiler ranges with no overlapping kernel of their name, added as kernels whose "            \
    "duration spans the replay passes")                                                            \
  F(kKinetoProfilerRangesAttachedToKernel, "kineto.profiler_ranges_attached_to_kernel", kInfo,     \
    "profiler ranges whose counters were attached to an overlapping kernel of the same name")      \
  F(kKinetoRecordsOverLimit, "kineto.records_over_limit", kError,                                  \
    "events past the record limit (`--max-records`); the import fails")                            \
  F(kKinetoUnknownPh, "kineto.unknown_ph", kDataLoss,                                              \
    "an event with a `ph` gpuperf does not know; skipped")                                         \
  F(kKinetoZeroDurationGpuActivity, "kineto.zero_duration_gpu_activity", kInfo,                    \
    "a GPU activity with `dur` 0 (sub-microsecond work in integer-microsecond traces); kept")      \
  F(kNcuDurationsFromCycles, "ncu_durations_from_cycles", kInfo,                                   \
    "launches without `gpu__time_duration.sum` whose duration is elapsed cycles divided by "       \
    "cycles per second")                                                                           \
  F(kNcuErrorLines, "ncu_error_lines", kInfo,                                                      \
    "`==ERROR==` lines of Nsight Compute; each is quoted in the notes")                            \
  F(kNcuLaunchDimsFromTotals, "ncu_launch_dims_from_totals", kInfo,                                \
    "launches whose grid or block is the total of the details page (`Grid Size`, `Block "          \
    "Size`: ncu 2022.3 and older), kept as an x-dimension")                                        \
  F(kNcuLaunchesWithoutDuration, "ncu_launches_without_duration", kDataLoss,                       \
    "launches with no usable duration; placed with duration 0")                                    \
  F(kNcuMalformedRows, "ncu_malformed_rows", kDataLoss,                                            \
    "CSV rows without an integer ID, with a quoting error or the wrong number of fields; "         \
    "skipped")                                                                                     \
  F(kNcuMalformedValues, "ncu_malformed_values", kDataLoss,                                        \
    "values with a unit but no number; dropped")                                                   \
  F(kNcuMissingUnits, "ncu_missing_units", kDataLoss,                                              \
    "values of a metric with a dimension (duration, bytes, rate, percentage) whose unit is "       \
    "blank; dropped, never read as base units")                                                    \
  F(kNcuRuleRows, "ncu_rule_rows", kInfo,                                                          \
    "rule-result rows (ncu 2024 and later) kept as the launch's rule results")                     \
  F(kNcuTextLinesSkipped, "ncu_text_lines_skipped", kInfo,                                         \
    "lines that are not CSV rows (`==PROF==` progress, the program's own output); skipped")        \
  F(kNcuUnknownUnits, "ncu_unknown_units", kDataLoss,                                              \
    "values whose unit gpuperf does not know; dropped")                                            \
  F(kNcuValuesNotAvailable, "ncu_values_not_available", kInfo,                                     \
    "values written as `n/a` (metric unavailable); nothing to keep")                               \
  F(kNcuWarningLines, "ncu_warning_lines", kInfo,                                                  \
    "`==WARNING==` lines of Nsight Compute; each is quoted in the notes")                          \
  F(kNsysCpuSampleNoCallchain, "nsys.cpu_sample_no_callchain", kInfo,                              \
    "a CPU sample (COMPOSITE_EVENTS) with no SAMPLING_CALLCHAINS frame; kept as \"[no call "       \
    "chain]\"")                                                                                    \
  F(kNsysCpuSampleNullTime, "nsys.cpu_sample_null_time", kDataLoss,                                \
    "a COMPOSITE_EVENTS row with a NULL or negative start; skipped")                               \
  F(kNsysGpuDuplicateId, "nsys.gpu_duplicate_id", kDataLoss,                                       \
    "a TARGET_INFO_GPU row with an id already seen; the first row wins")                           \
  F(kNsysGpuNullId, "nsys.gpu_null_id", kDataLoss,                                                 \
    "a TARGET_INFO_GPU row with a NULL id; skipped")                                               \
  F(kNsysKernelEndBeforeStart, "nsys.kernel_end_before_start", kDataLoss,                          \
    "a CUPTI_ACTIVITY_KIND_KERNEL row whose end is before its start; skipped")                     \
  F(kNsysKernelLaunchDimOutOfRange, "nsys.kernel_launch_dim_out_of_range", kDataLoss,              \
    "a kernel whose grid or block dimension is negative or past CUDA's limits; clamped")           \
  F(kNsysKernelNegativeTime, "nsys.kernel_negative_time", kDataLoss,                               \
    "a CUPTI_ACTIVITY_KIND_KERNEL row with a negative start; skipped")                             \
  F(kNsysKernelNullName, "nsys.kernel_null_name", kDataLoss,                                       \
    "a kernel with NULL `demangledName` and `shortName`; kept without a name")                     \
  F(kNsysKernelNullTime, "nsys.kernel_null_time", kDataLoss,                                       \
    "a CUPTI_ACTIVITY_KIND_KERNEL row with a NULL start or end; skipped")                          \
  F(kNsysKernelTimeOutOfRange, "nsys.kernel_time_out_of_range", kDataLoss,                         \
    "a CUPTI_ACTIVITY_KIND_KERNEL row whose end is past 2^62 ns; skipped")                         \
  F(kNsysMemcpyEndBeforeStart, "nsys.memcpy_end_before_start", kDataLoss,                          \
    "a CUPTI_ACTIVITY_KIND_MEMCPY row whose end is before its start; skipped")                     \
  F(kNsysMemcpyNegativeTime, "nsys.memcpy_negative_time", kDataLoss,                               \
    "a CUPTI_ACTIVITY_KIND_MEMCPY row with a negative start; skipped")                             \
  F(kNsysMemcpyNullTime, "nsys.memcpy_null_time", kDataLoss,                                       \
    "a CUPTI_ACTIVITY_KIND_MEMCPY row with a NULL start or end; skipped")                          \
  F(kNsysMemcpyTimeOutOfRange, "nsys.memcpy_time_out_of_range", kDataLoss,                         \
    "a CUPTI_ACTIVITY_KIND_MEMCPY row whose end is past 2^62 ns; skipped")                         \
  F(kNsysMemoryEventMalformed, "nsys.memory_event_malformed", kDataLoss,                           \
    "a CUDA_GPU_MEMORY_USAGE_EVENTS row with a NULL or negative start or bytes, or an unknown"     \
    " operation; skipped")                                                                         \
  F(kNsysMemsetEndBeforeStart, "nsys.memset_end_before_start", kDataLoss,                          \
    "a CUPTI_ACTIVITY_KIND_MEMSET row whose end is before its start; skipped")                     \
  F(kNsysMemsetNegativeTime, "nsys.memset_negative_time", kDataLoss,                               \
    "a CUPTI_ACTIVITY_KIND_MEMSET row with a negative start; skipped")                             \
  F(kNsysMemsetNullTime, "nsys.memset_null_time", kDataLoss,                                       \
    "a CUPTI_ACTIVITY_KIND_MEMSET row with a NULL start or end; skipped")                          \
  F(kNsysMemsetTimeOutOfRange, "nsys.memset_time_out_of_range", kDataLoss,                         \
    "a CUPTI_ACTIVITY_KIND_MEMSET row whose end is past 2^62 ns; skipped")                         \
  F(kNsysNvtxEndBeforeStart, "nsys.nvtx_end_before_start", kDataLoss,                              \
    "a NVTX_EVENTS range whose end is before its start; skipped")                                  \
  F(kNsysNvtxMarkerSkipped, "nsys.nvtx_marker_skipped", kInfo,                                     \
    "an NVTX mark (an instant); not modelled")                                                     \
  F(kNsysNvtxNegativeTime, "nsys.nvtx_negative_time", kDataLoss,                                   \
    "a NVTX_EVENTS range with a negative start; skipped")                                          \
  F(kNsysNvtxNullTime, "nsys.nvtx_null_time", kDataLoss,                                           \
    "a NVTX_EVENTS range with a NULL start or end; skipped")                                       \
  F(kNsysNvtxOtherEventSkipped, "nsys.nvtx_other_event_skipped", kInfo,                            \
    "an NVTX row that is neither a range nor a domain name (categories, registered strings); "     \
    "not modelled")                                                                                \
  F(kNsysNvtxTimeOutOfRange, "nsys.nvtx_time_out_of_range", kDataLoss,                             \
    "a NVTX_EVENTS range whose end is past 2^62 ns; skipped")                                      \
  F(kNsysNvtxUnknownDomain, "nsys.nvtx_unknown_domain", kDataLoss,                                 \
    "an NVTX range whose domain id has no domain-create row; kept without a domain")               \
  F(kNsysNvtxUnterminatedRange, "nsys.nvtx_unterminated_range", kDataLoss,                         \
    "an NVTX range with a NULL end; skipped")                                                      \
  F(kNsysOsrtEndBeforeStart, "nsys.osrt_end_before_start", kDataLoss,                              \
    "an OSRT_API call whose end is before its start; skipped")                                     \
  F(kNsysOsrtNegativeTime, "nsys.osrt_negative_time", kDataLoss,                                   \
    "an OSRT_API call with a negative start; skipped")                                             \
  F(kNsysOsrtNullTime, "nsys.osrt_null_time", kDataLoss,                                           \
    "an OSRT_API call with a NULL start or end; skipped")                                          \
  F(kNsysOsrtTimeOutOfRange, "nsys.osrt_time_out_of_range", kDataLoss,                             \
    "an OSRT_API call whose end is past 2^62 ns; skipped")                                         \
  F(kNsysProcessNullPid, "nsys.process_null_pid", kDataLoss,                                       \
    "a PROCESSES row with neither `pid` nor `globalPid`; skipped")                                 \
  F(kNsysRuntimeEndBeforeStart, "nsys.runtime_end_before_start", kDataLoss,                        \
    "a CUPTI_ACTIVITY_KIND_RUNTIME row whose end is before its start; skipped")                    \
  F(kNsysRuntimeNegativeTime, "nsys.runtime_negative_time", kDataLoss,                             \
    "a CUPTI_ACTIVITY_KIND_RUNTIME row with a negative start; skipped")                            \
  F(kNsysRuntimeNullName, "nsys.runtime_null_name", kDataLoss,                                     \
    "a CUDA API call with a NULL `nameId`; kept without a name")                                   \
  F(kNsysRuntimeNullTime, "nsys.runtime_null_time", kDataLoss,                                     \
    "a CUPTI_ACTIVITY_KIND_RUNTIME row with a NULL start or end; skipped")                         \
  F(kNsysRuntimeTimeOutOfRange, "nsys.runtime_time_out_of_range", kDataLoss,                       \
    "a CUPTI_ACTIVITY_KIND_RUNTIME row whose end is past 2^62 ns; skipped")                        \
  F(kNsysSessionStartInvalid, "nsys.session_start_invalid", kDataLoss,                             \
    "TARGET_INFO_SESSION_START_TIME is NULL or out of range; timestamps stay relative")            \
  F(kNsysStringIdMalformed, "nsys.string_id_malformed", kDataLoss,                                 \
    "a StringIds row with a NULL or negative id or a NULL value; skipped")                         \
  F(kNsysStringIdMissing, "nsys.string_id_missing", kDataLoss,                                     \
    "a reference to a StringIds id that has no row; the name reads `<unknown string N>`")          \
  F(kNsysSyncEndBeforeStart, "nsys.sync_end_before_start", kDataLoss,                              \
    "a CUPTI_ACTIVITY_KIND_SYNCHRONIZATION row whose end is before its start; skipped")            \
  F(kNsysSyncNegativeTime, "nsys.sync_negative_time", kDataLoss,                                   \
    "a CUPTI_ACTIVITY_KIND_SYNCHRONIZATION row with a negative start; skipped")                    \
  F(kNsysSyncNullTime, "nsys.sync_null_time", kDataLoss,                                           \
    "a CUPTI_ACTIVITY_KIND_SYNCHRONIZATION row with a NULL start or end; skipped")                 \
  F(kNsysSyncTimeOutOfRange, "nsys.sync_time_out_of_range", kDataLoss,                             \
    "a CUPTI_ACTIVITY_KIND_SYNCHRONIZATION row whose end is past 2^62 ns; skipped")                \
  F(kNsysSyncUnknownType, "nsys.sync_unknown_type", kDataLoss,                                     \
    "a SYNCHRONIZATION row whose `syncType` is not 1 to 4; kept with an unknown kind")             \
  F(kNvtxRangeEndWithoutStart, "nvtx range end without start", kDataLoss,                          \
    "gpuperf recording: an NVTX range end whose start was not recorded; skipped")                  \
  F(kNvtxRangeStartWithoutEnd, "nvtx range start without end", kDataLoss,                          \
    "gpuperf recording: an NVTX range start whose end was not recorded (the program exited "       \
    "inside it); skipped")
// clang-format on

enum class Diagnostic : std::uint16_t {
#define GPUPERF_DIAGNOSTIC_ENUMERATOR(id, name, severity, meaning) id,
  GPUPERF_DIAGNOSTICS(GPUPERF_DIAGNOSTIC_ENUMERATOR)
#undef GPUPERF_DIAGNOSTIC_ENUMERATOR
};

struct DiagnosticInfo {
  Diagnostic id;
  std::string_view enumerator;  // "kKinetoBadTs": for the naming test
  std::string_view name;        // report.json's diagnostics[].name
  DiagnosticSeverity severity;
  std::string_view meaning;  // one line, Markdown (docs/metrics.md)
};

inline constexpr std::array kDiagnosticCatalogue = {
#define GPUPERF_DIAGNOSTIC_INFO(id, name, severity, meaning) \
  DiagnosticInfo{Diagnostic::id, #id, name, DiagnosticSeverity::severity, meaning},
    GPUPERF_DIAGNOSTICS(GPUPERF_DIAGNOSTIC_INFO)
#undef GPUPERF_DIAGNOSTIC_INFO
};

inline constexpr std::size_t kDiagnosticCount = kDiagnosticCatalogue.size();

// The catalogue's entry of `id`.
constexpr const DiagnosticInfo& Describe(Diagnostic id) {
  return kDiagnosticCatalogue[static_cast<std::size_t>(id)];
}

// The report name of `id`, e.g. "kineto.bad_ts".
constexpr std::string_view DiagnosticName(Diagnostic id) {
  return Describe(id).name;
}

// The entry named `name`, or nullopt: for tests and readers of report names.
std::optional<Diagnostic> FindDiagnostic(std::string_view name);

namespace internal {
constexpr bool CatalogueInOrder() {
  for (std::size_t i = 0; i < kDiagnosticCount; ++i) {
    if (static_cast<std::size_t>(kDiagnosticCatalogue[i].id) != i)
      return false;
    if (i > 0 && !(kDiagnosticCatalogue[i - 1].name < kDiagnosticCatalogue[i].name))
      return false;
  }
  return true;
}
}  // namespace internal
static_assert(internal::CatalogueInOrder(),
              "GPUPERF_DIAGNOSTICS must list each name once, in byte order of the names");

}  // namespace gpuperf::model
