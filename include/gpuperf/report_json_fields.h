// The keys of report.json that gpuperf also reads back (`compare`, `predict`), each declared
// once with the member it carries. The writer (src/report/json_writer.cc) and the reader
// (src/io/report/report_json_reader.cc) walk the same lists, so the two cannot drift apart; the
// round-trip test (tests/unit/report_json_roundtrip_test.cc) holds them to it.
//
// A list is the first keys of its object in report.json's order (docs/report-schema.md); the
// writer adds the keys nobody reads back after them. A visitor `v` is called as `v(key, member)`
// or `v(key, member, tag)`, the member const when writing; the tags say how a value is written
// and the reader undoes that.
#pragma once

#include "gpuperf/report.h"

#include <concepts>
#include <string>
#include <string_view>
#include <type_traits>

namespace gpuperf::report::json_fields {

// The section and array keys around the lists.
inline constexpr const char* kSchemaVersion = "schema_version";
inline constexpr const char* kTool = "tool";
inline constexpr const char* kToolName = "name";
inline constexpr const char* kToolNameGpuperf = "gpuperf";
inline constexpr const char* kSource = "source";
inline constexpr const char* kHeadline = "headline";
inline constexpr const char* kTimeline = "timeline";
inline constexpr const char* kKernels = "kernels";
inline constexpr const char* kUnclassifiedKernels = "unclassified_kernels";
inline constexpr const char* kAudit = "audit";
inline constexpr const char* kRanges = "ranges";
inline constexpr const char* kDevices = "devices";
inline constexpr const char* kFramework = "framework";
inline constexpr const char* kOperators = "operators";
inline constexpr const char* kCategories = "categories";
inline constexpr const char* kModules = "modules";
inline constexpr const char* kPredictions = "predictions";
inline constexpr const char* kPredictedKernels = "kernels";  // predictions.kernels
inline constexpr const char* kKernelsOmitted = "kernels_omitted";
inline constexpr const char* kPhases = "phases";

// A double written rounded to `places` decimals (fixed rounding keeps golden files stable).
struct Decimals {
  int places;
};
// An int64 whose negative value means "not recorded": written as null, read back as -1.
struct NullIfNegative {};
// A string written only when `present`, else null; null reads back as "".
struct NullUnless {
  bool present;
};

// T is U or const U: one list serves the writer (const) and the reader.
template <class T, class U>
concept FieldsOf = std::same_as<std::remove_const_t<T>, U>;

// `count_key` (none when empty), then total/avg/med/min/max/stddev suffixed by `unit`
// ("total_ns", "avg_bytes").
template <FieldsOf<Distribution> D, class V>
void DistributionFields(D& d, std::string_view count_key, std::string_view unit, V& v) {
  auto key = [&](std::string_view stat) { return std::string(stat) + "_" + std::string(unit); };
  if (!count_key.empty())
    v(count_key, d.count);
  v(key("total"), d.total);
  v(key("avg"), d.avg, Decimals{3});
  v(key("med"), d.med, Decimals{3});
  v(key("min"), d.min);
  v(key("max"), d.max);
  v(key("stddev"), d.stddev, Decimals{3});
}

template <FieldsOf<SourceInfo> S, class V>
void SourceFields(S& s, V& v) {
  v("path", s.path);
  v("format", s.format);
  v("format_version", s.format_version);
  v("producer", s.producer);
  v("devices", s.devices);
  v("rank", s.rank);
  v("world_size", s.world_size);
}

// report.timeline and each devices[] entry; the writer adds first_start_ns, last_end_ns and
// activities.
template <FieldsOf<Timeline> T, class V>
void TimelineFields(T& t, V& v) {
  v("total_ns", t.total_ns);
  v("busy_ns", t.busy_ns);
  v("idle_ns", t.idle_ns);
  v("computation_ns", t.computation_ns);
  v("communication_ns", t.communication_ns);
  v("memcpy_ns", t.memcpy_ns);
  v("memset_ns", t.memset_ns);
  v("exposed_communication_ns", t.exposed_communication_ns);
  v("exposed_memcpy_ns", t.exposed_memcpy_ns);
}

template <FieldsOf<KernelRow> K, class V>
void KernelRowFields(K& k, V& v) {
  v("name", k.name);
  DistributionFields(k.duration_ns, "instances", "ns", v);
  v("time_percent", k.time_percent, Decimals{4});
  v("wall_percent", k.wall_percent, Decimals{4});
  v("grid", k.grid);
  v("block", k.block);
}

template <FieldsOf<Audit> A, class V>
void AuditFields(A& a, V& v) {
  v("kernel_launches", a.kernel_launches);
  v("launch_calls", a.launch_calls);
  v("distinct_kernels", a.distinct_kernels);
  v("graph_launches", a.graph_launches);
  v("memcpy_htod", a.memcpy_htod);
  v("memcpy_dtoh", a.memcpy_dtoh);
  v("memcpy_dtod", a.memcpy_dtod);
  v("memcpy_other", a.memcpy_other);
  v("memsets", a.memsets);
  v("synchronizations", a.synchronizations);
  v("allocations", a.allocations);
  v("frees", a.frees);
  v("peak_allocated_bytes", a.peak_allocated_bytes, NullIfNegative{});
}

// One "devices" entry: which device and its name (the writer adds the device's timeline).
template <FieldsOf<DeviceTimeline> D, class V>
void DeviceFields(D& d, V& v) {
  v("device", d.device);
  v("name", d.name);
}

template <FieldsOf<RangeRow> R, class V>
void RangeRowFields(R& r, V& v) {
  v("name", r.name);
  v("kind", r.kind);
  DistributionFields(r.duration_ns, "instances", "ns", v);
}

// The "framework" object (schema 1.4.0); the writer adds orphan_gpu_ns.
template <FieldsOf<FrameworkView> F, class V>
void FrameworkFields(F& f, V& v) {
  v("op_source", f.op_source);
  v("total_gpu_ns", f.total_gpu_ns);
  v("unmarked_launches", f.unmarked_launches);  // since 1.20.0
  v("unmarked_gpu_ns", f.unmarked_gpu_ns);
  v("unmarked_fraction", f.unmarked_fraction, Decimals{6});
}

// Since 1.20.0.
template <FieldsOf<UnclassifiedKernels> U, class V>
void UnclassifiedKernelsFields(U& u, V& v) {
  v("kernels", u.kernels);
  v("time_percent", u.time_percent, Decimals{4});
}

// The writer adds shapes and shapes_omitted.
template <FieldsOf<OperatorRow> O, class V>
void OperatorRowFields(O& o, V& v) {
  v("name", o.name);
  v("source", o.source);
  v("calls", o.calls);
  v("instances", o.instances);
  v("kernel_ns", o.kernel_ns);
  v("subtree_kernel_ns", o.subtree_kernel_ns);
  v("call_avg_ns", o.call_avg_ns, Decimals{3});
  v("call_med_ns", o.call_med_ns, Decimals{3});
  v("call_stddev_ns", o.call_stddev_ns, Decimals{3});
  v("launches", o.launches);
  v("graph_launches", o.graph_launches);
  v("host_self_ns", o.host_self_ns);
  v("host_total_ns", o.host_total_ns);
  v("fraction", o.fraction, Decimals{6});
  v("category", o.category);
  v("category_tier", o.category_tier);
  v("top_kernel", o.top_kernel);
  v("top_module", o.top_module);
}

template <FieldsOf<CategoryRow> C, class V>
void CategoryRowFields(C& c, V& v) {
  v("name", c.category);
  v("kernel_ns", c.kernel_ns);
  v("launches", c.launches);
}

template <FieldsOf<ModuleRow> M, class V>
void ModuleRowFields(M& m, V& v) {
  v("name", m.name);
  v("calls", m.calls);
  v("kernel_ns", m.kernel_ns);
  v("forward_ns", m.forward_ns);
  v("backward_ns", m.backward_ns);
}

// predictions.kernels[] and predictions.phases[]; the writer adds illustrative_gains.
template <FieldsOf<CriticalShare> S, class V>
void CriticalShareFields(S& s, V& v) {
  v("name", s.name);
  v("kind", s.kind);
  v("instances", s.instances);
  v("total_ns", s.total_ns);
  v("exclusive_ns", s.exclusive_ns);
  v("critical_ns", s.critical_ns);
  v("fraction", s.fraction, Decimals{6});
  v("limit_speedup", s.limit_speedup, Decimals{6});
  v("floor_ns", s.floor_ns);
  v("floor_evidence", s.floor_evidence, NullUnless{s.floor_ns.has_value()});
  v("max_local_speedup", s.max_local_speedup, Decimals{6});
  v("bound_speedup_at_roof", s.bound_speedup_at_roof, Decimals{6});
  v("recoverable_ns", s.recoverable_ns);
}

// The scalars that open "predictions"; the arrays follow under kPredictedKernels,
// kKernelsOmitted and kPhases.
template <FieldsOf<Predictions> P, class V>
void PredictionsFields(P& p, V& v) {
  v("wall_ns", p.wall_ns);
  v("wall_source", p.wall_source);
  v("device_groups", p.device_groups);
  v("summed_wall_ns", p.summed_wall_ns);  // since 1.21.0
  v("method", p.method);
  v("ranking", p.ranking);
}

}  // namespace gpuperf::report::json_fields
