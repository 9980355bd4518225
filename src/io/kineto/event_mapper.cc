#include "io/kineto/event_mapper.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <optional>
#include <system_error>

#include "io/kineto/numbers.h"
#include "model/record_limit.h"

namespace gpuperf::io::kineto {
namespace {

using model::kNoId;
using model::TimeNs;
using util::JsonToken;

std::int64_t IntOr(const Event& event, Field field, std::int64_t fallback) {
  return event.Int(field).value_or(fallback);
}

// An int field that must fit int32 (device ids, register counts); `fallback` otherwise.
std::int32_t Int32Or(const Event& event, Field field, std::int32_t fallback) {
  auto value = event.Int(field);
  if (!value || *value < std::numeric_limits<std::int32_t>::min() ||
      *value > std::numeric_limits<std::int32_t>::max()) {
    return fallback;
  }
  return static_cast<std::int32_t>(*value);
}

// "[640,1,1]" (compact JSON from the reader) -> {640, 1, 1}; anything else -> {0, 0, 0}.
model::Dim3 ParseDim3(const Event& event, Field field) {
  std::string_view text = event.Text(field);
  if (event.Type(field) != JsonToken::kBeginArray || text.size() < 2)
    return {};
  text = text.substr(1, text.size() - 2);
  std::int32_t parts[3] = {0, 0, 0};
  for (int i = 0; i < 3; ++i) {
    auto comma = text.find(',');
    if ((i < 2) != (comma != std::string_view::npos))
      return {};  // exactly three items
    auto value = ParseInt64(text.substr(0, comma));
    if (!value || *value < 0 || *value > std::numeric_limits<std::int32_t>::max())
      return {};
    parts[i] = static_cast<std::int32_t>(*value);
    if (i < 2)
      text.remove_prefix(comma + 1);
  }
  return {parts[0], parts[1], parts[2]};
}

}  // namespace

model::NameId EventMapper::Intern(std::string_view text) {
  auto it = names_.find(text);
  if (it != names_.end())
    return it->second;
  model::NameId id = trace_->strings.Intern(text);
  names_.emplace(std::string(text), id);
  return id;
}

void EventMapper::Map(const Event& event) {
  ++events_;
  if (model::RecordLimitReached(*trace_))
    return Count(model::Diagnostic::kKinetoRecordsOverLimit);  // issue 17
  if (!event.is_object()) {
    Count(model::Diagnostic::kKinetoNonObjectEvent);
    return;
  }
  ++object_events_;
  if (event.Type(Field::kPh) != JsonToken::kString) {
    Count(model::Diagnostic::kKinetoEventWithoutPh);
    return;
  }
  std::string_view ph = event.Text(Field::kPh);
  if (ph == "X") {
    MapComplete(event, ClassifyCategory(event.Text(Field::kCat)));
  } else if (ph == "i" || ph == "I") {
    MapInstant(event);
  } else if (ph == "M") {
    MapMetadata(event);
  } else if (ph == "s" || ph == "f" || ph == "t") {
    Count(model::Diagnostic::kKinetoIgnoredFlow);
  } else if (ph == "C") {
    Count(model::Diagnostic::kKinetoIgnoredCounter);
  } else {
    Count(model::Diagnostic::kKinetoUnknownPh);
  }
}

// The [ts, ts + dur] interval of an X event; counts and rejects a missing or bad ts / dur.
bool EventMapper::Interval(const Event& event, TimeNs* start, TimeNs* end) {
  if (!event.Has(Field::kTs))
    return Reject(model::Diagnostic::kKinetoEventWithoutTs);
  if (!event.Has(Field::kDur))
    return Reject(model::Diagnostic::kKinetoEventWithoutDur);
  auto ts = event.Type(Field::kTs) == JsonToken::kNumber ? ParseMicrosAsNs(event.Text(Field::kTs))
                                                         : std::nullopt;
  if (!ts)
    return Reject(model::Diagnostic::kKinetoBadTs);
  auto dur = event.Type(Field::kDur) == JsonToken::kNumber
                 ? ParseMicrosAsNs(event.Text(Field::kDur))
                 : std::nullopt;
  if (!dur)
    return Reject(model::Diagnostic::kKinetoBadDur);
  if (*dur < 0)
    return Reject(model::Diagnostic::kKinetoNegativeDur);
  if (*ts > std::numeric_limits<TimeNs>::max() - *dur)
    return Reject(model::Diagnostic::kKinetoBadDur);
  *start = *ts;
  *end = *ts + *dur;
  return true;
}

void EventMapper::MapComplete(const Event& event, Category category) {
  switch (category) {
    case Category::kFlow:
      return Count(model::Diagnostic::kKinetoIgnoredFlow);
    case Category::kOverhead:
      return Count(model::Diagnostic::kKinetoIgnoredOverhead);
    case Category::kTraceSpan:
      return Count(model::Diagnostic::kKinetoIgnoredTraceSpan);
    case Category::kCpuInstant:
    case Category::kOther:
      return Count(model::Diagnostic::kKinetoIgnoredOtherCategory);
    default:
      break;
  }
  TimeNs start = 0;
  TimeNs end = 0;
  if (!Interval(event, &start, &end))
    return;
  switch (category) {
    case Category::kKernel:
    case Category::kMemcpy:
    case Category::kMemset:
      return MapGpuActivity(event, category, start, end);
    case Category::kRuntime:
    case Category::kDriver:
      return MapApiCall(event, category, start, end);
    case Category::kSync:
      return MapSync(event, start, end);
    case Category::kUserAnnotation:
    case Category::kGpuUserAnnotation:
      return MapRange(event, category, start, end);
    case Category::kCpuOp:
      return MapHostOp(event, start, end);
    case Category::kPythonFunction:
      return MapPythonFrame(event, start, end);
    case Category::kProfilerRange:
      return MapProfilerRange(event, start, end);
    default:
      return;
  }
}

void EventMapper::MapGpuActivity(const Event& event, Category category, TimeNs start, TimeNs end) {
  model::GpuActivity a;
  std::string_view name = event.Text(Field::kName);
  a.name = Intern(name);
  a.start_ns = start;
  a.end_ns = end;
  a.device = Int32Or(event, Field::kArgDevice, Int32Or(event, Field::kPid, 0));
  a.stream = IntOr(event, Field::kArgStream, IntOr(event, Field::kTid, kNoId));
  a.context = IntOr(event, Field::kArgContext, kNoId);
  a.correlation = IntOr(event, Field::kArgCorrelation, kNoId);
  a.graph_id = IntOr(event, Field::kArgGraphId, kNoId);
  if (category == Category::kKernel) {
    a.kind = model::ActivityKind::kKernel;
    a.grid = ParseDim3(event, Field::kArgGrid);
    a.block = ParseDim3(event, Field::kArgBlock);
    a.registers_per_thread = Int32Or(event, Field::kArgRegisters, 0);
    a.shared_memory_bytes = Int32Or(event, Field::kArgSharedMemory, 0);
  } else if (category == Category::kMemcpy) {
    a.kind = model::ActivityKind::kMemcpy;
    CopyKinds kinds = ParseMemcpyName(name);
    a.copy_kind = kinds.copy;
    a.src_kind = kinds.src;
    a.dst_kind = kinds.dst;
    a.bytes = IntOr(event, Field::kArgBytes, 0);
  } else {
    a.kind = model::ActivityKind::kMemset;
    a.src_kind = ParseMemsetName(name);
    a.bytes = IntOr(event, Field::kArgBytes, 0);
  }
  if (start == end)
    Count(model::Diagnostic::kKinetoZeroDurationGpuActivity);
  trace_->activities.push_back(a);
}

void EventMapper::MapApiCall(const Event& event, Category category, TimeNs start, TimeNs end) {
  model::ApiCall call;
  call.kind = category == Category::kDriver ? model::ApiKind::kDriver : model::ApiKind::kRuntime;
  call.name = Intern(event.Text(Field::kName));
  call.start_ns = start;
  call.end_ns = end;
  call.pid = IntOr(event, Field::kPid, kNoId);
  call.tid = IntOr(event, Field::kTid, kNoId);
  call.correlation = IntOr(event, Field::kArgCorrelation, kNoId);
  call.cbid = Int32Or(event, Field::kArgCbid, -1);
  trace_->api_calls.push_back(call);
}

// Kineto writes cuda_sync on the GPU rows (pid = device, tid = stream); pid / tid stay kNoId.
void EventMapper::MapSync(const Event& event, TimeNs start, TimeNs end) {
  model::SyncEvent sync;
  sync.kind = event.Type(Field::kArgSyncKind) == JsonToken::kString
                  ? ParseSyncKind(event.Text(Field::kArgSyncKind))
                  : model::SyncKind::kUnknown;
  if (sync.kind == model::SyncKind::kUnknown)
    sync.kind = ParseSyncKind(event.Text(Field::kName));
  sync.start_ns = start;
  sync.end_ns = end;
  sync.device = Int32Or(event, Field::kArgDevice, Int32Or(event, Field::kPid, -1));
  sync.context = Int32Or(event, Field::kArgContext, -1);
  sync.stream = IntOr(event, Field::kArgStream, IntOr(event, Field::kTid, kNoId));
  sync.correlation = IntOr(event, Field::kArgCorrelation, kNoId);
  trace_->syncs.push_back(sync);
}

void EventMapper::MapRange(const Event& event, Category category, TimeNs start, TimeNs end) {
  model::Range range;
  std::string_view name = event.Text(Field::kName);
  range.name = Intern(name);
  range.start_ns = start;
  range.end_ns = end;
  range.pid = IntOr(event, Field::kPid, kNoId);
  range.tid = IntOr(event, Field::kTid, kNoId);
  if (category == Category::kGpuUserAnnotation) {
    range.kind = model::RangeKind::kGpuUserAnnotation;
    range.device = Int32Or(event, Field::kArgDevice, Int32Or(event, Field::kPid, -1));
    range.stream = IntOr(event, Field::kArgStream, range.tid);
  } else if (event.Has(Field::kArgNvtxDomain)) {
    // gpuperf baseline writes the program's NVTX ranges as user_annotation with their domain
    // (report/kineto_trace_writer.h): NVTX ranges, as the recorder's own model has them.
    range.kind = model::RangeKind::kNvtx;
    range.domain = Intern(event.Text(Field::kArgNvtxDomain));
  } else {
    range.kind = name.starts_with("ProfilerStep#") ? model::RangeKind::kProfilerStep
                                                   : model::RangeKind::kUserAnnotation;
    if (event.Has(Field::kArgInputDims))
      trace_->range_shapes.Add(trace_->ranges.size(),
                               model::PackRangeShape(Intern(event.Text(Field::kArgInputDims)),
                                                     Intern(event.Text(Field::kArgInputType))));
  }
  trace_->ranges.push_back(range);
}

void EventMapper::MapHostOp(const Event& event, TimeNs start, TimeNs end) {
  model::HostOp op;
  op.name = Intern(event.Text(Field::kName));
  op.start_ns = start;
  op.end_ns = end;
  op.pid = IntOr(event, Field::kPid, kNoId);
  op.tid = IntOr(event, Field::kTid, kNoId);
  if (event.Has(Field::kArgInputDims))
    op.input_dims = Intern(event.Text(Field::kArgInputDims));
  if (event.Has(Field::kArgInputType))
    op.input_types = Intern(event.Text(Field::kArgInputType));
  if (event.Has(Field::kArgConcreteInputs))
    op.concrete_inputs = Intern(event.Text(Field::kArgConcreteInputs));
  op.sequence = IntOr(event, Field::kArgSequence, kNoId);
  op.fwd_thread = IntOr(event, Field::kArgFwdThread, kNoId);
  // 2021-era with_stack writes each op's Python stack as an arg, not as python_function events:
  // the profiler option is what the diagnosis needs (its per-op cost inflates host time).
  if (event.Has(Field::kArgCallStack))
    trace_->metadata.properties.try_emplace("with_stack", "1");
  trace_->host_ops.push_back(op);
}

// python_function frames of threads with an unknown tid are written on pid 0 / tid 0, GPU 0's
// pid (docs/formats.md, "Kineto", "Events"): the category, not the pid, says they are host frames.
void EventMapper::MapPythonFrame(const Event& event, TimeNs start, TimeNs end) {
  model::PythonFrame frame;
  frame.name = Intern(event.Text(Field::kName));
  frame.start_ns = start;
  frame.end_ns = end;
  std::int64_t pid = IntOr(event, Field::kPid, kNoId);
  std::int64_t tid = IntOr(event, Field::kTid, kNoId);
  std::vector<model::HostThread>& threads = trace_->frame_threads;
  if (threads.empty() || threads[last_frame_thread_].pid != pid ||
      threads[last_frame_thread_].tid != tid) {
    auto [it, added] =
        frame_threads_.try_emplace({pid, tid}, static_cast<std::uint32_t>(threads.size()));
    if (added)
      threads.push_back({pid, tid});
    last_frame_thread_ = it->second;
  }
  frame.thread = last_frame_thread_;
  trace_->python_frames.push_back(frame);
}

// A CUPTI range-profiler range (Kineto's CuptiRangeProfiler, one range per kernel): the kernel
// name, pid 0 / tid 0 (not a device or stream: args.device / args.stream when present) and the
// counters as args under their Nsight Compute names, which is what KernelCounters holds; every
// numeric metric is kept under its own name. `dur` spans the kernel's replay passes, not one run.
void EventMapper::MapProfilerRange(const Event& event, TimeNs start, TimeNs end) {
  model::GpuActivity a;
  a.kind = model::ActivityKind::kKernel;
  a.name = Intern(event.Text(Field::kName));
  a.start_ns = start;
  a.end_ns = end;
  a.device = Int32Or(event, Field::kArgDevice, 0);
  a.stream = IntOr(event, Field::kArgStream, kNoId);
  a.correlation = IntOr(event, Field::kArgCorrelation, kNoId);
  model::KernelCounters counters;
  for (std::size_t i = 0; i < event.metric_count(); ++i) {
    std::string_view text = event.MetricText(i);
    double value = 0;
    auto [end_ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (event.MetricType(i) != JsonToken::kNumber || ec != std::errc() ||
        end_ptr != text.data() + text.size()) {
      Count(model::Diagnostic::kKinetoProfilerRangeBadMetric);
      continue;
    }
    counters.metrics[std::string(event.MetricName(i))] = value;
  }
  if (counters.metrics.empty())
    Count(model::Diagnostic::kKinetoProfilerRangeWithoutMetrics);
  profiler_ranges_.emplace_back(a, std::move(counters));
}

void EventMapper::ResolveProfilerRanges() {
  if (profiler_ranges_.empty())
    return;
  // Real kernel events by name, for traces that have both.
  std::unordered_map<model::NameId, std::vector<std::size_t>> kernels;
  for (std::size_t i = 0; i < trace_->activities.size(); ++i) {
    if (trace_->activities[i].kind == model::ActivityKind::kKernel)
      kernels[trace_->activities[i].name].push_back(i);
  }
  std::unordered_set<std::size_t> taken;
  for (auto& [range, counters] : profiler_ranges_) {
    Count(model::Diagnostic::kKinetoProfilerRanges);
    std::optional<std::size_t> kernel;
    if (auto it = kernels.find(range.name); it != kernels.end()) {
      for (std::size_t i : it->second) {
        const model::GpuActivity& k = trace_->activities[i];
        if (k.start_ns < range.end_ns && range.start_ns < k.end_ns && !taken.contains(i)) {
          kernel = i;
          break;
        }
      }
    }
    if (kernel) {
      Count(model::Diagnostic::kKinetoProfilerRangesAttachedToKernel);
      taken.insert(*kernel);
      counters.activity = *kernel;
    } else {
      Count(model::Diagnostic::kKinetoProfilerRangesAsKernel);
      counters.activity = trace_->activities.size();
      counters.replay_span = true;
      trace_->activities.push_back(range);
    }
    trace_->counters.push_back(std::move(counters));
  }
  profiler_ranges_.clear();
}

// Only allocator instants ("[memory]") are kept; others (Iteration Start, ...) are counted.
void EventMapper::MapInstant(const Event& event) {
  if (event.Text(Field::kName) != "[memory]")
    return Count(model::Diagnostic::kKinetoIgnoredInstant);
  if (!event.Has(Field::kTs))
    return Count(model::Diagnostic::kKinetoEventWithoutTs);
  auto ts = event.Type(Field::kTs) == JsonToken::kNumber ? ParseMicrosAsNs(event.Text(Field::kTs))
                                                         : std::nullopt;
  if (!ts)
    return Count(model::Diagnostic::kKinetoBadTs);
  auto bytes = event.Int(Field::kArgMemoryBytes);
  if (!bytes || *bytes == std::numeric_limits<std::int64_t>::min()) {
    return Count(model::Diagnostic::kKinetoMemoryEventWithoutBytes);
  }
  model::MemoryEvent memory;
  memory.op = *bytes < 0 ? model::MemoryOp::kFree : model::MemoryOp::kAllocate;
  memory.bytes = *bytes < 0 ? -*bytes : *bytes;
  memory.time_ns = *ts;
  memory.device = Int32Or(event, Field::kArgDeviceId, -1);
  memory.total_allocated = IntOr(event, Field::kArgTotalAllocated, kNoId);
  memory.pid = IntOr(event, Field::kPid, kNoId);
  trace_->memory_events.push_back(memory);
}

// process_name gives Process records (first name per pid wins); other metadata is counted.
void EventMapper::MapMetadata(const Event& event) {
  auto pid = event.Int(Field::kPid);
  if (event.Text(Field::kName) != "process_name" || !pid ||
      event.Type(Field::kArgName) != JsonToken::kString) {
    return Count(model::Diagnostic::kKinetoIgnoredMetadata);
  }
  if (!named_pids_.insert(*pid).second)
    return;
  trace_->processes.push_back({*pid, std::string(event.Text(Field::kArgName)), ""});
}

void EventMapper::Finish() {
  // The calls' correlation ids, sorted once here rather than a hash set filled during the import
  // (about 40 bytes per call, held until the end of the import: 12 MB on the 1 GB benchmark).
  std::vector<std::int64_t> api_correlations;
  api_correlations.reserve(trace_->api_calls.size());
  for (const model::ApiCall& call : trace_->api_calls) {
    if (call.correlation != kNoId)
      api_correlations.push_back(call.correlation);
  }
  std::sort(api_correlations.begin(), api_correlations.end());
  for (const model::GpuActivity& a : trace_->activities) {
    if (a.correlation == kNoId) {
      Count(model::Diagnostic::kKinetoGpuActivityWithoutCorrelation);
    } else if (!std::binary_search(
                   api_correlations.begin(), api_correlations.end(), a.correlation)) {
      Count(model::Diagnostic::kKinetoOrphanGpuActivity);
    }
  }
  ResolveProfilerRanges();  // after the orphan count: ranges have no launch to join
  for (std::size_t i = 0; i < counts_.size(); ++i) {
    if (counts_[i] > 0)
      trace_->diagnostics.Count(model::kDiagnosticCatalogue[i].id, counts_[i]);
  }
  counts_.fill(0);
}

}  // namespace gpuperf::io::kineto
