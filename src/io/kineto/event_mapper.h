// Turns Kineto events into model records, one event at a time, and counts what it skips:
// categories gpuperf does not keep (flows, counters, ...) under
// "kineto.ignored.<what>", malformed events under "kineto.<problem>" (the kKineto* entries of
// gpuperf/diagnostics_catalogue.h).
#pragma once

#include "gpuperf/trace.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "io/kineto/categories.h"
#include "io/kineto/event.h"

namespace gpuperf::io::kineto {

class EventMapper {
 public:
  // `trace` must outlive the mapper; records are appended to it.
  explicit EventMapper(model::Trace* trace) : trace_(trace) {}

  void Map(const Event& event);
  // Counts what needs the whole file (orphan GPU activities: a correlation without ApiCall) and
  // moves all counts into trace->diagnostics. Call once, after the last Map().
  void Finish();

  std::int64_t events() const { return events_; }
  std::int64_t object_events() const { return object_events_; }

 private:
  struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };

  model::NameId Intern(std::string_view text);
  bool Interval(const Event& event, model::TimeNs* start, model::TimeNs* end);
  void MapComplete(const Event& event, Category category);
  void MapGpuActivity(const Event& event,
                      Category category,
                      model::TimeNs start,
                      model::TimeNs end);
  void MapApiCall(const Event& event, Category category, model::TimeNs start, model::TimeNs end);
  void MapSync(const Event& event, model::TimeNs start, model::TimeNs end);
  void MapRange(const Event& event, Category category, model::TimeNs start, model::TimeNs end);
  void MapHostOp(const Event& event, model::TimeNs start, model::TimeNs end);
  void MapPythonFrame(const Event& event, model::TimeNs start, model::TimeNs end);
  void MapProfilerRange(const Event& event, model::TimeNs start, model::TimeNs end);
  // Attaches each profiler range to an overlapping kernel of the same name, or adds it as a
  // kernel of its own (docs/formats.md, "Kineto": cuda_profiler_range). Called by Finish().
  void ResolveProfilerRanges();
  void MapInstant(const Event& event);
  void MapMetadata(const Event& event);
  // Counted here, once per event, and flushed into trace->diagnostics in Finish().
  void Count(model::Diagnostic what) { ++counts_[static_cast<std::size_t>(what)]; }
  bool Reject(model::Diagnostic what) {
    Count(what);
    return false;
  }

  model::Trace* trace_;
  std::unordered_map<std::string, model::NameId, StringHash, std::equal_to<>> names_;
  std::unordered_set<std::int64_t> named_pids_;
  std::array<std::int64_t, model::kDiagnosticCount> counts_{};  // by catalogue index
  // (pid, tid) -> index into Trace::frame_threads; frames come in runs of one thread, so the
  // last one found is tried first.
  std::map<std::pair<std::int64_t, std::int64_t>, std::uint32_t> frame_threads_;
  std::uint32_t last_frame_thread_ = 0;
  // cuda_profiler_range events, kept until the whole file is read: the kernel they measured may
  // come later in the file. counters.activity is set when the range is resolved.
  std::vector<std::pair<model::GpuActivity, model::KernelCounters>> profiler_ranges_;
  std::int64_t events_ = 0;
  std::int64_t object_events_ = 0;
};

}  // namespace gpuperf::io::kineto
