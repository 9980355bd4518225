// A hand-built AnalysisReport for the writer tests: the writers are tested against the report
// model alone, independent of any importer or analysis.
#pragma once

#include "gpuperf/report.h"

#include <string>

namespace gpuperf::testing {

inline report::Distribution Dist(std::int64_t count,
                                 std::int64_t total,
                                 double avg,
                                 double med,
                                 std::int64_t min,
                                 std::int64_t max,
                                 double stddev) {
  return report::Distribution{count, total, avg, med, min, max, stddev};
}

// Names that try to break Markdown tables, inject HTML or links, or start a heading.
inline const std::string kHostileName = "a|b`<script>alert(1)</script>\n# x";
inline const std::string kLinkName = "[x](javascript:alert(1))";

inline report::AnalysisReport SampleReport() {
  report::AnalysisReport r;
  r.source = {"/data/run/trace.json",
              "kineto",
              "1",
              "PyTorch profiler",
              {"0: NVIDIA H100 80GB HBM3 (cc 9.0, 132 SMs)"},
              0,
              8};
  r.headline = "GPU busy 75.0% of 4.00 ms; gemm_kernel takes 62.5% of kernel time.";
  r.notes = {"busy time is the union of GPU activities"};
  r.timeline = {4'000'000,
                3'000'000,
                1'000'000,
                2'500'000,
                400'000,
                300'000,
                100'000,
                200'000,
                50'000,
                1'000,
                4'001'000,
                42};
  r.devices = {{0, "NVIDIA H100 80GB HBM3", r.timeline}};
  r.timeline_tracelens = r.timeline;
  r.timeline_tracelens.busy_ns = 2'000'000;
  r.timeline_tracelens.idle_ns = 2'000'000;
  r.orphan_activities = 5;
  // Deliberately not sorted by total time: writers must present the larger one first.
  r.kernels.push_back({kHostileName,
                       Dist(3, 900'000, 300'000, 300'000, 250'000, 350'000, 50'000),
                       37.5,
                       22.5,
                       "",
                       "",
                       0,
                       0,   // graph_instances
                       "",  // top_operator
                       std::nullopt,
                       std::nullopt,
                       std::nullopt,
                       {},
                       std::nullopt,
                       {}});
  r.kernels.push_back({"gemm_kernel",
                       Dist(10, 1'500'000, 150'000.0 / 1.0, 149'000.5, 100'000, 200'000, 1.0 / 3.0),
                       62.5,
                       37.5,
                       "[128,1,1]",
                       "[256,1,1]",
                       2,
                       0,   // graph_instances
                       "",  // top_operator
                       std::nullopt,
                       std::nullopt,
                       std::nullopt,
                       {},
                       std::nullopt,
                       {}});
  for (report::KernelRow& k : r.kernels)
    k.readable_name = k.name;  // the analysis shortens templates; the writers only show it
  r.memory_ops.push_back({"[CUDA memcpy HtoD]",
                          Dist(4, 300'000, 75'000, 70'000, 50'000, 100'000, 20'000),
                          Dist(4, 4 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20, 0),
                          100.0});
  r.api.push_back({"cudaLaunchKernel",
                   "cudaLaunchKernel_v7000",
                   Dist(13, 65'000, 5'000, 4'800, 3'000, 9'000, 1'500),
                   80.0});
  r.launch = {13,
              Dist(13, 65'000, 5'000, 4'800, 3'000, 9'000, 1'500),
              Dist(13, 130'000, 10'000, 9'000, 2'000, 30'000, 5'000),
              Dist(13, 2'400'000, 184'615.4, 150'000, 100'000, 350'000, 80'000),
              Dist(13, 2'600'000, 200'000, 160'000, 110'000, 370'000, 80'000),
              0,
              0.0271};
  r.audit = {13, 13, 2, 0, 4, 0, 0, 0, 0, 1, 0, 0, -1};
  r.ranges.push_back({"ProfilerStep#1",
                      report::RangeKind::kProfilerStep,
                      Dist(1, 3'900'000, 3.9e6, 3.9e6, 3'900'000, 3'900'000, 0),
                      100.0,
                      2'900'000});
  report::Finding finding;
  finding.id = "sync_memcpy";
  finding.title = "Synchronous copies";
  finding.severity = report::Severity::kWarning;
  finding.summary = "4 copies from pageable memory block the host for 300 us.";
  finding.advice = "Use pinned memory and cudaMemcpyAsync.";
  finding.source = "trace";
  finding.count = 4;
  finding.time_ns = 300'000;
  finding.columns = {{"time"}, {"operation"}};
  for (int i = 0; i < 4; ++i)
    finding.rows.push_back({{std::to_string(i * 1000), kLinkName}});
  finding.rows_omitted = 6;
  r.findings.push_back(finding);
  r.diagnostics = {{"kernel_without_launch", 3}};
  r.diagnostic_notes = {"3 kernels have no launch event"};
  return r;
}

}  // namespace gpuperf::testing
