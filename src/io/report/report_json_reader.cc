#include "io/report/report_json_reader.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "util/byte_source.h"

namespace gpuperf::io {
namespace {

using Json = nlohmann::json;

constexpr std::size_t kMaxReportBytes = std::size_t{1} << 30;

std::int64_t Int(const Json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<std::int64_t>() : 0;
}

double Real(const Json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<double>() : 0.0;
}

std::string Text(const Json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

template <class T>
std::optional<T> Maybe(const Json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_number())
    return std::nullopt;
  return it->get<T>();
}

report::Distribution DistributionOf(const Json& k, const char* count_key) {
  report::Distribution d;
  d.count = Int(k, count_key);
  d.total = Int(k, "total_ns");
  d.avg = Real(k, "avg_ns");
  d.med = Real(k, "med_ns");
  d.min = Int(k, "min_ns");
  d.max = Int(k, "max_ns");
  d.stddev = Real(k, "stddev_ns");
  return d;
}

// The framework keys compare matches by name (schema 1.4.0; absent in older reports).
void ReadFramework(const Json& j, report::FrameworkView& out) {
  const Json& f = j.value("framework", Json::object());
  out.op_source = Text(f, "op_source");
  out.total_gpu_ns = Int(f, "total_gpu_ns");
  for (const Json& o : j.value("operators", Json::array())) {
    report::OperatorRow op;
    op.name = Text(o, "name");
    op.source = Text(o, "source");
    op.calls = Int(o, "calls");
    op.instances = Int(o, "instances");
    op.kernel_ns = Int(o, "kernel_ns");
    op.subtree_kernel_ns = Int(o, "subtree_kernel_ns");
    op.call_avg_ns = Real(o, "call_avg_ns");
    op.call_med_ns = Real(o, "call_med_ns");
    op.call_stddev_ns = Real(o, "call_stddev_ns");
    op.launches = Int(o, "launches");
    op.category = Text(o, "category");
    out.operators.push_back(std::move(op));
  }
  for (const Json& c : j.value("categories", Json::array())) {
    report::CategoryRow row;
    row.name = Text(c, "name");
    row.kernel_ns = Int(c, "kernel_ns");
    row.launches = Int(c, "launches");
    out.categories.push_back(std::move(row));
  }
  for (const Json& m : j.value("modules", Json::array())) {
    report::ModuleRow row;
    row.name = Text(m, "name");
    row.calls = Int(m, "calls");
    row.kernel_ns = Int(m, "kernel_ns");
    row.forward_ns = Int(m, "forward_ns");
    row.backward_ns = Int(m, "backward_ns");
    out.modules.push_back(std::move(row));
  }
}

void ReadTimeline(const Json& t, report::Timeline& out) {
  out.total_ns = Int(t, "total_ns");
  out.busy_ns = Int(t, "busy_ns");
  out.idle_ns = Int(t, "idle_ns");
  out.computation_ns = Int(t, "computation_ns");
  out.communication_ns = Int(t, "communication_ns");
  out.memcpy_ns = Int(t, "memcpy_ns");
  out.memset_ns = Int(t, "memset_ns");
  out.exposed_communication_ns = Int(t, "exposed_communication_ns");
  out.exposed_memcpy_ns = Int(t, "exposed_memcpy_ns");
}

report::CriticalShare ShareOf(const Json& k) {
  report::CriticalShare s;
  s.name = Text(k, "name");
  s.kind = Text(k, "kind");
  s.instances = Int(k, "instances");
  s.total_ns = Int(k, "total_ns");
  s.exclusive_ns = Int(k, "exclusive_ns");
  s.critical_ns = Int(k, "critical_ns");
  s.fraction = Real(k, "fraction");
  s.limit_speedup = Maybe<double>(k, "limit_speedup");
  s.floor_ns = Maybe<std::int64_t>(k, "floor_ns");
  s.max_local_speedup = Maybe<double>(k, "max_local_speedup");
  s.bound_speedup_at_roof = Maybe<double>(k, "bound_speedup_at_roof");
  s.recoverable_ns = Maybe<std::int64_t>(k, "recoverable_ns");
  s.floor_evidence = Text(k, "floor_evidence");
  return s;
}

report::AnalysisReport FromJson(const Json& j) {
  report::AnalysisReport r;
  const Json& source = j.value("source", Json::object());
  r.source.path = Text(source, "path");
  r.source.format = Text(source, "format");
  r.source.format_version = Text(source, "format_version");
  r.source.producer = Text(source, "producer");
  if (auto devices = source.find("devices"); devices != source.end() && devices->is_array()) {
    for (const Json& d : *devices) {
      if (d.is_string())
        r.source.devices.push_back(d.get<std::string>());
    }
  }
  r.source.rank = Maybe<std::int64_t>(source, "rank");
  r.source.world_size = Maybe<std::int64_t>(source, "world_size");
  r.headline = Text(j, "headline");
  ReadTimeline(j.value("timeline", Json::object()), r.timeline);
  for (const Json& k : j.value("kernels", Json::array())) {
    report::KernelRow row;
    row.name = Text(k, "name");
    row.duration_ns = DistributionOf(k, "instances");
    row.time_percent = Real(k, "time_percent");
    row.wall_percent = Real(k, "wall_percent");
    row.grid = Text(k, "grid");
    row.block = Text(k, "block");
    r.kernels.push_back(std::move(row));
  }
  const Json& a = j.value("audit", Json::object());
  r.audit.kernel_launches = Int(a, "kernel_launches");
  r.audit.launch_calls = Int(a, "launch_calls");
  r.audit.distinct_kernels = Int(a, "distinct_kernels");
  r.audit.graph_launches = Int(a, "graph_launches");
  r.audit.memcpy_htod = Int(a, "memcpy_htod");
  r.audit.memcpy_dtoh = Int(a, "memcpy_dtoh");
  r.audit.memcpy_dtod = Int(a, "memcpy_dtod");
  r.audit.memcpy_other = Int(a, "memcpy_other");
  r.audit.memsets = Int(a, "memsets");
  r.audit.synchronizations = Int(a, "synchronizations");
  r.audit.allocations = Int(a, "allocations");
  r.audit.frees = Int(a, "frees");
  r.audit.peak_allocated_bytes = Maybe<std::int64_t>(a, "peak_allocated_bytes").value_or(-1);
  for (const Json& range : j.value("ranges", Json::array())) {
    report::RangeRow row;
    row.name = Text(range, "name");
    row.kind = Text(range, "kind");
    row.duration_ns = DistributionOf(range, "instances");
    r.ranges.push_back(std::move(row));
  }
  ReadFramework(j, r.framework);
  const Json& p = j.value("predictions", Json::object());
  r.predictions.wall_ns = Int(p, "wall_ns");
  r.predictions.wall_source = Text(p, "wall_source");
  r.predictions.device_groups = Int(p, "device_groups");
  r.predictions.method = Text(p, "method");
  r.predictions.ranking = Text(p, "ranking");
  for (const Json& k : p.value("kernels", Json::array()))
    r.predictions.kernels.push_back(ShareOf(k));
  for (const Json& k : p.value("phases", Json::array()))
    r.predictions.phases.push_back(ShareOf(k));
  r.predictions.kernels_omitted = Int(p, "kernels_omitted");
  return r;
}

}  // namespace

bool LooksLikeGpuperfReport(std::string_view head) {
  std::size_t first = head.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || head[first] != '{')
    return false;
  return head.find("\"schema_version\"") != std::string_view::npos &&
         head.find("\"tool\"") != std::string_view::npos &&
         head.find("\"gpuperf\"") != std::string_view::npos;
}

Result<report::AnalysisReport> ReadReportJson(const std::string& path) {
  auto text = util::ReadFileText(path, kMaxReportBytes);
  if (!text.ok())
    return text.error();
  return ParseReportJson(*text, path);
}

Result<report::AnalysisReport> ParseReportJson(std::string_view text, const std::string& path) {
  Json j = Json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return Error{fmt::format("{}: not valid JSON (truncated or corrupt report.json?)", path)};
  std::string version = j.value("schema_version", std::string());
  if (version.empty() || Text(j.value("tool", Json::object()), "name") != "gpuperf")
    return Error{fmt::format("{}: not a gpuperf report.json (no schema_version / tool)", path)};
  if (version.rfind("1.", 0) != 0)
    return Error{fmt::format(
        "{}: report schema {} is not supported (this gpuperf reads 1.x)", path, version)};
  try {
    return FromJson(j);
  } catch (const Json::exception& e) {
    return Error{fmt::format("{}: malformed report.json: {}", path, e.what())};
  }
}

Result<ReportOrTrace> ReadReportOrTracePath(const std::string& path) {
  ReportOrTrace out{path, std::nullopt};
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    out.path = (std::filesystem::path(path) / "report.json").string();
  auto head = util::ReadFileHead(out.path, 4096);
  if (!head.ok())
    return head.error();
  if (!LooksLikeGpuperfReport(*head))
    return out;
  auto report = ReadReportJson(out.path);
  if (!report.ok())
    return report.error();
  out.report = std::move(report.value());
  return out;
}

}  // namespace gpuperf::io
