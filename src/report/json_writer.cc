#include "report/json_writer.h"

#include "gpuperf/finding_ids.h"

#include <cmath>
#include <string_view>

#include "report/json_diagnosis.h"
#include "report/json_field_writer.h"
#include "report/json_framework.h"
#include "report/json_predictions.h"
#include "report/json_roofline.h"
#include "report/json_tensor_cores.h"
#include "report/row_order.h"

namespace gpuperf::report {
namespace {

using Json = nlohmann::ordered_json;
namespace fields = json_fields;

// Rounded to `decimals` places: averages of integer nanoseconds carry no information below a
// picosecond, and fixed rounding keeps golden files stable across platforms.
Json Number(double value, int decimals) {
  return RoundedNumber(value, decimals);
}

Json Percent(double value) {
  return Number(value, 4);
}

// Adds the fields of `d` to `object`: count under `count_key`, the rest suffixed by `unit`.
void AddDistribution(Json& object,
                     const Distribution& d,
                     std::string_view count_key,
                     std::string_view unit) {
  JsonFieldWriter write(object);
  fields::DistributionFields(d, count_key, unit, write);
}

Json DistributionObject(const Distribution& d, std::string_view unit) {
  Json object = Json::object();
  AddDistribution(object, d, "count", unit);
  return object;
}

// Adds the timeline fields to `object` (report.timeline and each devices[] entry share them).
void AddTimeline(Json& object, const Timeline& t) {
  JsonFieldWriter write(object);
  fields::TimelineFields(t, write);
  object["first_start_ns"] = t.first_start_ns;
  object["last_end_ns"] = t.last_end_ns;
  object["activities"] = t.activities;
}

// A finding's evidence columns as report.json spells them: their titles.
Json ColumnTitles(const std::vector<FindingColumn>& columns) {
  Json titles = Json::array();
  for (const FindingColumn& column : columns)
    titles.push_back(column.title);
  return titles;
}

Json UnclassifiedKernelsJson(const UnclassifiedKernels& u) {  // since 1.20.0
  Json object = Json::object();
  JsonFieldWriter write(object);
  fields::UnclassifiedKernelsFields(u, write);
  return object;
}

Json SourceJson(const SourceInfo& s) {
  Json object = Json::object();
  JsonFieldWriter write(object);
  fields::SourceFields(s, write);
  return object;
}

Json DevicesJson(const std::vector<DeviceTimeline>& devices) {
  Json array = Json::array();
  for (const auto& device : devices) {
    Json object = Json::object();
    JsonFieldWriter write(object);
    fields::DeviceFields(device, write);
    AddTimeline(object, device.timeline);
    array.push_back(std::move(object));
  }
  return array;
}

Json OccupancyJson(const KernelOccupancy& o) {
  Json out{{"theoretical", Number(o.theoretical, 4)},
           {"active_blocks_per_sm", o.active_blocks_per_sm},
           {"active_warps_per_sm", o.active_warps_per_sm},
           {"max_warps_per_sm", o.max_warps_per_sm},
           {"limiter", o.limiter},
           {"threads_per_block", o.threads_per_block},
           {"registers_per_thread", o.registers_per_thread},
           {"shared_memory_bytes", o.shared_memory_bytes},
           {"compute_capability", o.compute_capability},
           {"instances", o.instances},
           {"instances_with_attributes", o.instances_with_attributes},
           {"evidence", std::string(ToString(o.evidence))}};
  if (o.achieved) {
    out["achieved"] = Number(*o.achieved, 4);
    out["achieved_instances"] = o.achieved_instances;
    out["achieved_evidence"] = std::string(ToString(EvidenceTier::kMeasured));
  }
  return out;
}

Json KernelsJson(const std::vector<KernelRow>& kernels) {
  Json array = Json::array();
  for (const KernelRow* row : KernelsByTotalTime(kernels)) {
    const KernelRow& k = *row;
    Json object = Json::object();
    JsonFieldWriter write(object);
    fields::KernelRowFields(k, write);
    object["short_instances"] = k.short_instances;
    object["graph_instances"] = k.graph_instances;
    object["top_operator"] = k.top_operator;
    object["category"] = k.category ? std::string(ToString(*k.category)) : std::string();
    if (k.roofline)
      object["roofline"] = RooflineJson(*k.roofline);
    if (k.occupancy)
      object["occupancy"] = OccupancyJson(*k.occupancy);
    if (k.tensor_cores)
      object["tensor_cores"] = TensorCoresJson(*k.tensor_cores);
    object["classification"] = KernelClassJson(k.classification);
    if (k.speed_of_light)
      object["speed_of_light"] = SpeedOfLightJson(*k.speed_of_light);
    if (!k.ncu_rules.empty())
      object["ncu_rules"] = NcuRulesJson(k.ncu_rules);
    array.push_back(std::move(object));
  }
  return array;
}

Json CounterJoinJson(const std::optional<CounterJoin>& join) {
  if (!join)
    return nullptr;
  return Json{{"ncu_launches", join->ncu_launches},
              {"joined", join->joined},
              {"no_kernel", join->no_kernel},
              {"config_mismatch", join->config_mismatch},
              {"examples", join->examples}};
}

Json MemoryOpsJson(const std::vector<MemoryOpRow>& rows) {
  Json array = Json::array();
  for (const auto& row : rows) {
    Json object{{"operation", row.operation}};
    AddDistribution(object, row.duration_ns, "count", "ns");
    AddDistribution(object, row.size_bytes, "", "bytes");
    object["time_percent"] = Percent(row.time_percent);
    array.push_back(std::move(object));
  }
  return array;
}

Json ApiJson(const std::vector<ApiRow>& rows) {
  Json array = Json::array();
  for (const auto& row : rows) {
    Json object{{"name", row.name}, {"raw_name", row.raw_name}};
    AddDistribution(object, row.duration_ns, "calls", "ns");
    object["time_percent"] = Percent(row.time_percent);
    array.push_back(std::move(object));
  }
  return array;
}

Json LaunchJson(const LaunchOverhead& l) {
  return Json{{"launches", l.launches},
              {"api", DistributionObject(l.api_ns, "ns")},
              {"queue", DistributionObject(l.queue_ns, "ns")},
              {"kernel", DistributionObject(l.kernel_ns, "ns")},
              {"total", DistributionObject(l.total_ns, "ns")},
              {"kernels_shorter_than_launch", l.kernels_shorter_than_launch},
              {"api_to_kernel_ratio", Number(l.api_to_kernel_ratio, 4)},
              {"call_time_ns", l.call_time_ns},
              {"graph_launches", l.graph_launches},
              {"graph_kernels", l.graph_kernels}};
}

Json AuditJson(const Audit& a) {
  Json object = Json::object();
  JsonFieldWriter write(object);
  fields::AuditFields(a, write);
  return object;
}

Json RangesJson(const std::vector<RangeRow>& rows) {
  Json array = Json::array();
  for (const auto& row : rows) {
    Json object = Json::object();
    JsonFieldWriter write(object);
    fields::RangeRowFields(row, write);
    object["time_percent"] = Percent(row.time_percent);
    object["gpu_time_ns"] = row.gpu_time_ns;
    array.push_back(std::move(object));
  }
  return array;
}

Json FindingsJson(const std::vector<Finding>& findings) {
  Json array = Json::array();
  for (const auto& f : findings) {
    Json rows = Json::array();
    for (const auto& row : f.rows)
      rows.push_back(row.cells);
    array.push_back(Json{
        {"id", f.id},
        {"title", f.title},
        {"severity", std::string(ToString(f.severity))},
        {"summary", f.summary},
        {"advice", f.advice},
        {"source", f.source},
        {"subject", f.subject},
        {"count", f.count},
        {"time_ns", f.time_ns},
        {"columns", ColumnTitles(f.columns)},
        {"rows", std::move(rows)},
        {"rows_omitted", f.rows_omitted},
        {"wall_fraction", f.wall_fraction ? Number(*f.wall_fraction, 6) : Json(nullptr)},
        {"bound_speedup_if_removed",
         f.bound_speedup_if_removed ? Number(*f.bound_speedup_if_removed, 6) : Json(nullptr)}});
    if (f.host_blocked_ns) {  // wait-type findings only (since 1.4.0)
      array.back()["host_blocked_ns"] = *f.host_blocked_ns;
      array.back()["gpu_idle_caused_ns"] =
          f.gpu_idle_caused_ns ? Json(*f.gpu_idle_caused_ns) : Json(nullptr);
      array.back()["gpu_idle_queued_ns"] =  // since 1.10.0
          f.gpu_idle_queued_ns ? Json(*f.gpu_idle_queued_ns) : Json(nullptr);
      array.back()["gpu_idle_later_ns"] =  // since 1.22.0
          f.gpu_idle_later_ns ? Json(*f.gpu_idle_later_ns) : Json(nullptr);
      array.back()["advice_gpu_idle_ns"] =  // since 1.24.0
          f.advice_gpu_idle_ns ? Json(*f.advice_gpu_idle_ns) : Json(nullptr);
      array.back()["advice_bound_speedup"] =
          f.advice_bound_speedup ? Number(*f.advice_bound_speedup, 6) : Json(nullptr);
      if (f.id == finding_id::kSyncMemcpy || f.id == finding_id::kPageableAsyncMemcpy)
        array.back()["pinned_saving_ns"] =  // since 1.25.0
            f.pinned_saving_ns ? Json(*f.pinned_saving_ns) : Json(nullptr);
    }
    if (f.recoverable_ns) {  // work a change shortens, not removes (since 1.19.0)
      array.back()["recoverable_ns"] = *f.recoverable_ns;
      array.back()["recoverable_basis"] = f.recoverable_basis;
    }
  }
  return array;
}

Json PhaseVerdictsJson(const std::vector<PhaseVerdict>& verdicts) {
  Json array = Json::array();
  for (const PhaseVerdict& v : verdicts)
    array.push_back(Json{{"name", v.name},
                         {"kind", std::string(ToString(v.kind))},
                         {"instances", v.instances},
                         {"wall_ns", v.wall_ns},
                         {"kernel_ns", v.kernel_ns},
                         {"copy_exposed_ns", v.copy_exposed_ns},
                         {"idle_ns", v.idle_ns},
                         {"idle_queued_ns", v.idle_queued_ns},
                         {"idle_sync_ns", v.idle_sync_ns},
                         {"idle_round_trip_ns", v.idle_round_trip_ns},  // since 1.20.0
                         {"wait_removal_ns", v.wait_removal_ns},        // since 1.20.0
                         {"idle_mpi_ns", v.idle_mpi_ns},
                         {"idle_launch_ns", v.idle_launch_ns},
                         {"idle_alloc_ns", v.idle_alloc_ns},
                         {"idle_other_api_ns", v.idle_other_api_ns},
                         {"idle_host_ns", v.idle_host_ns},
                         {"idle_largest_in", v.idle_largest_in},  // since 1.20.0
                         {"idle_largest_ns", v.idle_largest_ns},
                         {"idle_largest_percent", Percent(v.idle_largest_percent)},
                         {"launched_gpu_ns", v.launched_gpu_ns},
                         {"launched_inside_ns", v.launched_inside_ns},
                         {"communication_ns", v.communication_ns},  // since 1.26.0
                         {"verdict", std::string(ToString(v.verdict))}});
  return array;
}

Json DiagnosticsJson(const std::vector<DiagnosticCount>& counts) {
  Json array = Json::array();
  for (const auto& d : counts)
    array.push_back(Json{{"name", d.name}, {"count", d.count}});
  return array;
}

// Which evidence tier backs each numeric section. Findings name their own (findings[].source).
Json EvidenceJson() {
  Json evidence = Json::object();
  for (const char* section : {"timeline",
                              "timeline_tracelens",
                              "orphan_activities",
                              "devices",
                              "kernels",
                              "memory_ops",
                              "api",
                              "launch",
                              "audit",
                              "ranges",
                              "diagnostics"}) {
    evidence[section] = kEvidenceTrace;
  }
  evidence["findings"] = "per_finding";
  evidence["predictions"] = "trace (critical time); floor_evidence per kernel";
  evidence["diagnosis"] = "per_diagnosis (diagnosis.evidence, diagnosis.status)";
  evidence["ceilings"] = "per_entry (ceilings[].evidence)";
  return evidence;
}

}  // namespace

nlohmann::ordered_json ToJson(const AnalysisReport& report, const ToolInfo& tool) {
  Json json = Json::object();
  json[fields::kSchemaVersion] = kReportSchemaVersion;
  json[fields::kTool] = Json{{fields::kToolName, tool.name}, {"version", tool.version}};
  json[fields::kSource] = SourceJson(report.source);
  json["evidence"] = EvidenceJson();
  json[fields::kHeadline] = report.headline;
  json["diagnosis"] = DiagnosisJson(report.diagnosis);
  json["initialization"] = InitializationJson(report.initialization);
  json["phase_verdicts"] = PhaseVerdictsJson(report.phase_verdicts);  // since 1.19.0
  json["notes"] = report.notes;
  json[fields::kTimeline] = Json::object();
  AddTimeline(json[fields::kTimeline], report.timeline);
  json["timeline_tracelens"] = Json::object();
  AddTimeline(json["timeline_tracelens"], report.timeline_tracelens);
  json["orphan_activities"] = report.orphan_activities;
  json[fields::kDevices] = DevicesJson(report.devices);
  json[fields::kKernels] = KernelsJson(report.kernels);
  json[fields::kUnclassifiedKernels] = UnclassifiedKernelsJson(report.unclassified_kernels);
  json["ceilings"] = CeilingsJson(report.ceilings);
  json["counters_join"] = CounterJoinJson(report.counters_join);
  json["memory_ops"] = MemoryOpsJson(report.memory_ops);
  json["api"] = ApiJson(report.api);
  json["launch"] = LaunchJson(report.launch);
  json[fields::kAudit] = AuditJson(report.audit);
  json[fields::kRanges] = RangesJson(report.ranges);
  AddFrameworkJson(json, report.framework);
  json["findings"] = FindingsJson(report.findings);
  json[fields::kPredictions] = PredictionsJson(report.predictions);
  json["diagnostics"] = DiagnosticsJson(report.diagnostics);
  json["diagnostic_notes"] = report.diagnostic_notes;
  return json;
}

std::string DumpJson(const nlohmann::ordered_json& json) {
  return json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace gpuperf::report
