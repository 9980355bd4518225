#include "report/trace_export.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "report/kineto_json_text.h"
#include "util/intervals.h"
#include "util/json_text.h"

namespace gpuperf::report {
namespace {

using util::json_text::AppendQuoted;

constexpr std::int64_t kDiagnosisTid = 1;
constexpr std::int64_t kFindingsTid = 2;
constexpr std::int64_t kIdleTid = 3;
constexpr std::int64_t kCriticalTidBase = 100;  // + device

// Appends events to one JSON array, comma-separated, one event per line.
class EventWriter {
 public:
  EventWriter(std::string& out, std::int64_t origin_ns) : out_(out), origin_ns_(origin_ns) {}

  // A complete event ("ph": "X"); `args` is a JSON object's body without braces, or "".
  void Complete(std::string_view name,
                std::string_view cat,
                std::int64_t pid,
                std::int64_t tid,
                std::int64_t start_ns,
                std::int64_t end_ns,
                const std::string& args) {
    Begin();
    out_ += "{\"ph\":\"X\",\"name\":";
    AppendQuoted(name, &out_);
    out_ += ",\"cat\":";
    AppendQuoted(cat, &out_);
    out_ += fmt::format(",\"pid\":{},\"tid\":{},\"ts\":{},\"dur\":{}",
                        pid,
                        tid,
                        Micros(start_ns - origin_ns_),
                        Micros(std::max<std::int64_t>(end_ns - start_ns, 0)));
    EndWithArgs(args);
  }

  // An instant event on its track ("ph": "i", "s": "t").
  void Instant(std::string_view name,
               std::int64_t pid,
               std::int64_t tid,
               std::int64_t at_ns,
               const std::string& args) {
    Begin();
    out_ += "{\"ph\":\"i\",\"s\":\"t\",\"name\":";
    AppendQuoted(name, &out_);
    out_ += fmt::format(",\"cat\":\"gpuperf\",\"pid\":{},\"tid\":{},\"ts\":{}",
                        pid,
                        tid,
                        Micros(at_ns - origin_ns_));
    EndWithArgs(args);
  }

  // process_name / thread_name metadata ("ph": "M").
  void Name(bool process, std::int64_t pid, std::int64_t tid, std::string_view name) {
    Begin();
    out_ += fmt::format("{{\"ph\":\"M\",\"name\":\"{}\",\"pid\":{},\"tid\":{},\"args\":{{\"name\":",
                        process ? "process_name" : "thread_name",
                        pid,
                        tid);
    AppendQuoted(name, &out_);
    out_ += "}}";
  }

 private:
  // Microseconds with the nanoseconds kept exactly: 1234567 ns -> "1234.567".
  static std::string Micros(std::int64_t ns) {
    const char* sign = ns < 0 ? "-" : "";
    const std::int64_t magnitude = ns < 0 ? -ns : ns;
    return fmt::format("{}{}.{:03}", sign, magnitude / 1000, magnitude % 1000);
  }
  void Begin() {
    out_ += first_ ? "\n" : ",\n";
    first_ = false;
  }
  void EndWithArgs(const std::string& args) {
    if (!args.empty())
      out_ += ",\"args\":{" + args + "}";
    out_ += "}";
  }

  std::string& out_;
  std::int64_t origin_ns_;
  bool first_ = true;
};

std::string Arg(std::string_view key, std::string_view value) {
  std::string out;
  AppendQuoted(key, &out);
  out += ":";
  AppendQuoted(value, &out);
  return out;
}

std::string Arg(std::string_view key, std::int64_t value) {
  std::string out;
  AppendQuoted(key, &out);
  return out + ":" + std::to_string(value);
}

std::string_view RangeCategory(model::RangeKind kind) {
  switch (kind) {
    case model::RangeKind::kNvtx:
      return "nvtx";
    case model::RangeKind::kUserAnnotation:
      return "user_annotation";
    case model::RangeKind::kGpuUserAnnotation:
      return "gpu_user_annotation";
    case model::RangeKind::kProfilerStep:
      return "profiler_step";
  }
  return "range";
}

std::int64_t OrZero(std::int64_t id) {
  return id == model::kNoId ? 0 : id;
}

void WriteGpu(EventWriter& w,
              const model::Trace& trace,
              const AnalysisReport& report,
              const analysis::ResultTracks& tracks) {
  std::unordered_map<std::string_view, std::string_view> bound;
  for (const KernelRow& k : report.kernels)
    bound.emplace(k.name, ToString(k.classification.bound));
  std::set<std::pair<std::int64_t, std::int64_t>> streams;
  for (std::size_t i = 0; i < trace.activities.size(); ++i) {
    const model::GpuActivity& a = trace.activities[i];
    const std::string_view name = trace.Name(a.name);
    std::string args = Arg("correlation", a.correlation);
    if (i < tracks.critical.size())
      args += "," + Arg("gpuperf critical", tracks.critical[i] ? "yes" : "no");
    if (auto it = bound.find(name); a.kind == model::ActivityKind::kKernel && it != bound.end())
      args += "," + Arg("gpuperf class", it->second);
    w.Complete(
        name, KinetoCategory(a.kind), a.device, OrZero(a.stream), a.start_ns, a.end_ns, args);
    streams.insert({a.device, OrZero(a.stream)});
  }
  for (const model::Device& d : trace.devices)
    w.Name(true, d.id, 0, fmt::format("GPU {}: {}", d.id, d.name.empty() ? "unnamed" : d.name));
  for (const auto& [device, stream] : streams)
    w.Name(false, device, stream, fmt::format("stream {}", stream));
}

void WriteHost(EventWriter& w, const model::Trace& trace) {
  for (const model::ApiCall& c : trace.api_calls) {
    w.Complete(trace.Name(c.name),
               c.kind == model::ApiKind::kDriver ? "cuda_driver" : "cuda_runtime",
               OrZero(c.pid),
               OrZero(c.tid),
               c.start_ns,
               c.end_ns,
               Arg("correlation", c.correlation));
  }
  for (const model::HostOp& op : trace.host_ops)
    w.Complete(
        trace.Name(op.name), "cpu_op", OrZero(op.pid), OrZero(op.tid), op.start_ns, op.end_ns, "");
  for (const model::Range& r : trace.ranges) {
    const bool on_gpu = r.kind == model::RangeKind::kGpuUserAnnotation;
    w.Complete(trace.Name(r.name),
               RangeCategory(r.kind),
               on_gpu ? r.device : OrZero(r.pid),
               on_gpu ? OrZero(r.stream) : OrZero(r.tid),
               r.start_ns,
               r.end_ns,
               "");
  }
}

void WriteDiagnosis(EventWriter& w,
                    const AnalysisReport& report,
                    const analysis::ResultTracks& tracks) {
  const Diagnosis& d = report.diagnosis;
  if (d.bottleneck == Bottleneck::kNone)
    return;
  std::string args =
      Arg("status", ToString(d.status)) + "," + Arg("evidence", ToString(d.evidence));
  for (std::size_t i = 0; i < d.support.size(); ++i)
    args += "," + Arg(fmt::format("support {}", i + 1), d.support[i]);
  args += "," + Arg("next experiment", d.next_experiment);
  w.Complete(fmt::format("{}: {}",
                         d.status == DiagnosisStatus::kFinding ? "Bottleneck" : "Hypothesis",
                         ToString(d.bottleneck)),
             "gpuperf",
             kGpuperfTrackPid,
             kDiagnosisTid,
             tracks.window.start_ns,
             tracks.window.end_ns,
             args);
}

void WriteFindings(EventWriter& w,
                   const AnalysisReport& report,
                   const analysis::ResultTracks& tracks) {
  for (const Finding& f : report.findings) {
    std::string args = Arg("id", f.id) + "," + Arg("severity", ToString(f.severity)) + "," +
                       Arg("summary", f.summary) + "," + Arg("time_ns", f.time_ns);
    w.Instant(f.title, kGpuperfTrackPid, kFindingsTid, tracks.window.start_ns, args);
  }
}

void WriteIdle(EventWriter& w, const analysis::ResultTracks& tracks) {
  for (const analysis::IdleGap& gap : tracks.idle) {
    std::string args = Arg("api_covered_ns", gap.api_covered_ns);
    if (!gap.longest_api.empty())
      args += "," + Arg("longest_api", gap.longest_api) + "," +
              Arg("longest_api_ns", gap.longest_api_ns);
    w.Complete(gap.api_covered_ns > 0 ? "GPU idle, host in CUDA API" : "GPU idle, host elsewhere",
               "gpuperf_idle",
               kGpuperfTrackPid,
               kIdleTid,
               gap.start_ns,
               gap.end_ns,
               args);
  }
}

// Per device, the union of its critical activities' time (slices on one track must not overlap).
void WriteCritical(EventWriter& w,
                   const model::Trace& trace,
                   const analysis::ResultTracks& tracks) {
  std::map<std::int32_t, std::vector<util::Interval>> by_device;
  for (std::size_t i = 0; i < trace.activities.size() && i < tracks.critical.size(); ++i) {
    if (tracks.critical[i])
      by_device[trace.activities[i].device].push_back(
          {trace.activities[i].start_ns, trace.activities[i].end_ns});
  }
  for (auto& [device, intervals] : by_device) {
    for (const util::Interval& i : util::MergeIntervals(std::move(intervals)))
      w.Complete("critical",
                 "gpuperf_critical",
                 kGpuperfTrackPid,
                 kCriticalTidBase + device,
                 i.start,
                 i.end,
                 "");
    w.Name(false,
           kGpuperfTrackPid,
           kCriticalTidBase + device,
           fmt::format("critical GPU time, GPU {}", device));
  }
}

}  // namespace

std::string ToTraceEvents(const model::Trace& trace,
                          const AnalysisReport& report,
                          const analysis::ResultTracks& tracks,
                          const ToolInfo& tool) {
  std::string out = "{\"traceEvents\":[";
  EventWriter w(out, tracks.window.start_ns);
  WriteGpu(w, trace, report, tracks);
  WriteHost(w, trace);
  w.Name(true, kGpuperfTrackPid, 0, "gpuperf");
  w.Name(false, kGpuperfTrackPid, kDiagnosisTid, "diagnosis");
  w.Name(false, kGpuperfTrackPid, kFindingsTid, "findings");
  w.Name(false, kGpuperfTrackPid, kIdleTid, "GPU idle (all devices)");
  WriteDiagnosis(w, report, tracks);
  WriteFindings(w, report, tracks);
  WriteIdle(w, tracks);
  WriteCritical(w, trace, tracks);
  out += "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{";
  out += Arg("producer", tool.name + (tool.version.empty() ? "" : " " + tool.version)) + ",";
  out += Arg("source", report.source.path) + ",";
  out += Arg("gpuperf_time_origin_ns", tracks.window.start_ns);
  out += "}}\n";
  return out;
}

}  // namespace gpuperf::report
