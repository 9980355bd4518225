#include "gpuperf/analyze.h"

#include <catch2/catch.hpp>

#include <algorithm>

#include "analysis_builder.h"

namespace {

using gpuperf::analysis::Analyze;
using gpuperf::analysis::AnalyzeOptions;
using gpuperf::model::CopyKind;
using gpuperf::model::MemoryKind;
using gpuperf::model::SyncKind;
using gpuperf::report::Finding;
using gpuperf::testing::TraceBuilder;

const Finding* Find(const gpuperf::report::AnalysisReport& report, const std::string& id) {
  auto it = std::find_if(
      report.findings.begin(), report.findings.end(), [&](const Finding& f) { return f.id == id; });
  return it == report.findings.end() ? nullptr : &*it;
}

}  // namespace

TEST_CASE("sync_memcpy: nsys conditions, one row per API record", "[analysis][findings]") {
  TraceBuilder b;
  b.Api("cudaMemcpy", 0, 1000, 1);
  b.Api("cudaMemcpy_v3020", 1, 999, 1);
  b.Memcpy(CopyKind::kHtoD, 10, 900, 100000, 1, MemoryKind::kPageable, MemoryKind::kDevice);
  b.Api("cudaMemcpy", 2000, 2100, 2);
  b.Memcpy(CopyKind::kHtoD, 2010, 2090, 64000, 2);  // small HtoD: excluded
  b.Api("cudaMemcpy", 3000, 3100, 3);
  b.Memcpy(CopyKind::kDtoH, 3010, 3030, 10, 3);  // small, but DtoH: kept
  b.Api("cudaMemcpy", 4000, 4100, 4);
  b.Memcpy(CopyKind::kDtoD, 4010, 4090, 1 << 20, 4);  // device to device: excluded
  b.Api("cudaMemcpyAsync", 5000, 5010, 5);
  b.Memcpy(CopyKind::kHtoD, 5010, 5900, 1 << 20, 5);  // async: not this rule
  auto report = Analyze(b.trace);
  const Finding* f = Find(report, "sync_memcpy");
  REQUIRE(f != nullptr);
  CHECK(f->count == 2);
  CHECK(f->time_ns == 890 + 20);
  REQUIRE(f->rows.size() == 3);
  CHECK(f->rows[0].cells[0] == "890");
  CHECK(f->rows[0].cells[2] == "Pageable");
  CHECK(f->rows[0].cells[4] == "100000");
  CHECK(f->rows[0].cells[9] == "cudaMemcpy");
  CHECK(f->rows[1].cells[9] == "cudaMemcpy_v3020");
  CHECK(f->columns.back() == "GPU idle caused (ns)");
  // Each column carries the unit report.md formats its cells by, set by the rule.
  using gpuperf::report::ColumnUnit;
  CHECK(f->columns[0].unit == ColumnUnit::kDurationNs);
  CHECK(f->columns[1].unit == ColumnUnit::kStartNs);
  CHECK(f->columns[2].unit == ColumnUnit::kText);  // Src Kind
  CHECK(f->columns[4].unit == ColumnUnit::kBytes);
  CHECK(f->columns.back().unit == ColumnUnit::kDurationNs);
  CHECK(f->rows[2].cells[0] == "20");
  CHECK(f->columns.size() == f->rows[0].cells.size());
  CHECK(Find(report, "pageable_async_memcpy") == nullptr);  // the async copy is device-pinned
}

TEST_CASE("sync_memcpy: a copy of unrecorded size is not known to be small",
          "[analysis][findings]") {
  // ROCm's Kineto records no bytes: a blocking hipMemcpyWithStream to the device still counts.
  TraceBuilder b;
  b.Api("hipMemcpyWithStream", 0, 60, 1);
  b.Memcpy(CopyKind::kHtoD, 10, 32, 0, 1);
  b.Api("hipMemcpy", 100, 200, 2);
  b.Memcpy(CopyKind::kHtoD, 110, 190, 4096, 2);  // small and known: excluded
  auto report = Analyze(b.trace);
  const Finding* f = Find(report, "sync_memcpy");
  REQUIRE(f != nullptr);
  CHECK(f->count == 1);
  CHECK(f->time_ns == 22);
}

TEST_CASE("pageable_async_memcpy and sync_memset", "[analysis][findings]") {
  TraceBuilder b;
  b.Api("cudaMemcpyAsync_v3020", 0, 10, 1);
  b.Memcpy(CopyKind::kDtoH, 20, 70, 4096, 1, MemoryKind::kDevice, MemoryKind::kPageable);
  b.Api("cudaMemcpyAsync_v3020", 100, 110, 2);
  b.Memcpy(CopyKind::kDtoH, 120, 170, 4096, 2, MemoryKind::kDevice, MemoryKind::kPinned);
  b.Api("cudaMemset_v3020", 200, 300, 3);
  b.Memset(210, 290, 64, 3, MemoryKind::kPinned);
  b.Api("cudaMemset_v3020", 400, 500, 4);
  b.Memset(410, 490, 64, 4, MemoryKind::kDevice);  // device memory: not flagged
  b.Api("cudaMemsetAsync", 600, 610, 5);
  b.Memset(620, 630, 64, 5, MemoryKind::kManaged);  // async: not flagged
  auto report = Analyze(b.trace);
  const Finding* pageable = Find(report, "pageable_async_memcpy");
  REQUIRE(pageable != nullptr);
  CHECK(pageable->count == 1);
  CHECK(pageable->time_ns == 50);
  CHECK(pageable->rows.at(0).cells[3] == "Pageable");
  CHECK_THAT(pageable->summary, Catch::Contains("copy to pageable host memory"));
  // With a host-to-device copy from pageable memory beside it, staging is the cause for that one.
  b.Api("cudaMemcpyAsync_v3020", 700, 710, 6);
  b.Memcpy(CopyKind::kHtoD, 720, 770, 4096, 6, MemoryKind::kPageable, MemoryKind::kDevice);
  auto mixed = Analyze(b.trace);
  const Finding* both = Find(mixed, "pageable_async_memcpy");
  REQUIRE(both != nullptr);
  CHECK_THAT(both->summary,
             Catch::Contains("stage them synchronously (1 of the calls copy to the host"));
  const Finding* memset = Find(report, "sync_memset");
  REQUIRE(memset != nullptr);
  CHECK(memset->count == 1);
  CHECK(memset->time_ns == 80);
  CHECK(memset->rows.at(0).cells[2] == "Pinned");
}

TEST_CASE("sync_api: synchronize calls plus sync records without a call", "[analysis][findings]") {
  TraceBuilder b;
  b.Api("cudaStreamSynchronize_v3020", 0, 500, 1);
  b.Sync(SyncKind::kStream, 0, 500, 1);       // record of that call: not twice
  b.Sync(SyncKind::kContext, 1000, 1300, 2);  // Kineto cuda_sync without its call
  b.Sync(SyncKind::kEvent, 2000, 2900, 3);    // event sync: not in this rule
  b.Api("cudaEventSynchronize", 2000, 2900, 3);
  auto report = Analyze(b.trace);
  const Finding* f = Find(report, "sync_api");
  REQUIRE(f != nullptr);
  CHECK(f->count == 2);
  CHECK(f->time_ns == 800);
  REQUIRE(f->rows.size() == 2);
  CHECK(f->rows[0].cells[0] == "500");
  CHECK(f->rows[0].cells[4] == "cudaStreamSynchronize_v3020");
  CHECK(f->rows[1].cells[4] == "sync record: context");
  CHECK(report.audit.synchronizations == 3);
}

TEST_CASE("gpu_gaps: idle stretches between GPU work of one device", "[analysis][findings]") {
  TraceBuilder b;
  b.Kernel("a", 0, 10);
  b.Kernel("b", 200, 210, gpuperf::model::kNoId, 1);
  b.Kernel("c", 205, 220, gpuperf::model::kNoId, 2);       // overlaps b on another stream
  b.Kernel("d", 320, 330);                                 // gap of exactly 100 ns
  b.Kernel("e", 5000, 5010, gpuperf::model::kNoId, 7, 1);  // device 1: a single op, no gap
  AnalyzeOptions options;
  options.gap_threshold_ns = 100;
  auto report = Analyze(b.trace, options);
  const Finding* f = Find(report, "gpu_gaps");
  REQUIRE(f != nullptr);
  CHECK(f->count == 2);
  CHECK(f->time_ns == 290);
  CHECK(f->rows.at(0).cells == std::vector<std::string>{"190", "10", "-", "0"});
  CHECK(f->rows.at(1).cells == std::vector<std::string>{"100", "220", "-", "0"});
  options.gap_threshold_ns = 191;
  CHECK(Find(Analyze(b.trace, options), "gpu_gaps") == nullptr);
}

TEST_CASE("gpu_low_utilization: nsys chunks, merged runs, weighted average",
          "[analysis][findings]") {
  TraceBuilder b;
  // Span [0,40) in 4 chunks of 10 ns: 100%, 20%, 0%, 50% (not < 50).
  b.Kernel("a", 0, 10);
  b.Kernel("b", 12, 14);
  b.Kernel("c", 35, 40);
  AnalyzeOptions options;
  options.utilization_chunks = 4;
  options.finding_rows = 1;
  auto report = Analyze(b.trace, options);
  const Finding* f = Find(report, "gpu_low_utilization");
  REQUIRE(f != nullptr);
  CHECK(f->count == 1);
  REQUIRE(f->rows.size() == 1);
  CHECK(f->rows[0].cells == std::vector<std::string>{"10.0", "20", "10", "-", "0"});
  CHECK(f->rows_omitted == 0);
}

TEST_CASE("gpu_low_utilization: overlaps add up, the last chunk is clipped",
          "[analysis][findings]") {
  TraceBuilder b;
  // Span 41 in 4 chunks: ceil(41/4) = 11 ns -> [0,11) [11,22) [22,33) [33,41).
  b.Kernel("a", 0, 11, gpuperf::model::kNoId, 1);
  b.Kernel("b", 0, 11, gpuperf::model::kNoId, 2);  // chunk 0: 200%
  b.Kernel("c", 11, 12);                           // chunk 1: 1/11 = 9.09%
  b.Kernel("d", 37, 41);                           // chunk 3: 4/8 = 50% (not flagged)
  b.Kernel("e", 33, 34);                           // chunk 3: +1/8 -> 62.5%
  AnalyzeOptions options;
  options.utilization_chunks = 4;
  auto report = Analyze(b.trace, options);
  const Finding* f = Find(report, "gpu_low_utilization");
  REQUIRE(f != nullptr);
  REQUIRE(f->rows.size() == 1);
  // Chunks 1 and 2 merge: (11 * 9.09 + 11 * 0) / 22 = 4.545 -> 4.5.
  CHECK(f->rows[0].cells == std::vector<std::string>{"4.5", "22", "11", "-", "0"});
}

TEST_CASE("launch_overhead and gpu_idle_dominant", "[analysis][findings]") {
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 50, 1);
  b.Kernel("tiny", 60, 65, 1);
  b.Api("cudaLaunchKernel", 100, 150, 2);
  b.Kernel("tiny", 160, 165, 2);
  b.Api("cudaLaunchKernel", 200, 210, 3);
  b.Kernel("big", 215, 260, 3);
  auto report = Analyze(b.trace);
  const Finding* launch = Find(report, "launch_overhead");
  REQUIRE(launch != nullptr);
  CHECK(launch->count == 2);
  // 110 ns of calls against 55 ns of kernels
  CHECK(launch->severity == gpuperf::report::Severity::kWarning);
  REQUIRE(launch->rows.size() == 1);
  CHECK(launch->rows[0].cells == std::vector<std::string>{"tiny", "2", "2", "5.0", "50.0"});
  // Span [60,260) = 200 ns, busy 55 ns: 72.5% idle.
  const Finding* idle = Find(report, "gpu_idle_dominant");
  REQUIRE(idle != nullptr);
  CHECK(idle->time_ns == 145);
}

TEST_CASE("Edge cases: no GPU work, CPU-only trace, a single kernel", "[analysis][findings]") {
  TraceBuilder empty;
  auto none = Analyze(empty.trace);
  CHECK(none.findings.empty());
  CHECK(none.kernels.empty());
  CHECK(none.headline.find("no GPU work") != std::string::npos);

  TraceBuilder cpu_only;
  cpu_only.Api("cudaGetDeviceCount", 0, 10);
  cpu_only.Api("cudaStreamSynchronize", 20, 30);  // still a host-blocking call
  auto cpu = Analyze(cpu_only.trace);
  CHECK(cpu.timeline.activities == 0);
  REQUIRE(cpu.findings.size() == 1);
  CHECK(cpu.findings[0].id == "sync_api");

  TraceBuilder single;
  single.Kernel("only", 100, 1100);
  auto one = Analyze(single.trace);
  CHECK(one.timeline.total_ns == 1000);
  CHECK(one.timeline.busy_ns == 1000);
  CHECK(one.timeline.idle_ns == 0);
  CHECK(one.findings.empty());  // fully busy: no gaps, no low-utilization chunk
  REQUIRE(one.kernels.size() == 1);
  CHECK(one.kernels[0].wall_percent == Approx(100.0));
}

// The low-utilization windows are nsys' (rows unchanged), but their part inside one-time work is
// start-up: said, and left out of the time the bound is over, as the diagnosis leaves it out.
TEST_CASE("gpu_low_utilization: windows inside one-time work are start-up, not in the bound",
          "[analysis][findings][initialization]") {
  constexpr std::int64_t kMs = 1'000'000;
  auto build = [](std::int64_t busy_from_ms) {
    TraceBuilder b;
    b.Op("nvrtcCompileProgram", 0, 40 * kMs, 202);  // JIT compilation: one-time work, [0, 40)
    b.Kernel("a", 0, 1 * kMs);
    b.Kernel("big", busy_from_ms * kMs, 100 * kMs);
    return b;
  };
  AnalyzeOptions options;
  options.utilization_chunks = 10;  // chunks of 10 ms
  // [0, 40) under 50%: all of it inside the compilation.
  auto all_start_up = Analyze(build(40).trace, options);
  const Finding* f = Find(all_start_up, "gpu_low_utilization");
  REQUIRE(f != nullptr);
  CHECK(f->rows.at(0).cells[1] == "40000000");  // nsys' window, unchanged
  CHECK(f->time_ns == 0);
  CHECK(f->severity == gpuperf::report::Severity::kInfo);
  CHECK_FALSE(f->bound_speedup_if_removed);
  CHECK(f->summary.find("40.0 ms of it (1 of the windows) lies inside one-time work (start-up") !=
        std::string::npos);
  // [0, 60) under 50%: 20 ms of it after the compilation is steady state and bounded.
  auto part = Analyze(build(60).trace, options);
  f = Find(part, "gpu_low_utilization");
  REQUIRE(f != nullptr);
  CHECK(f->time_ns == 20 * kMs);  // all idle: the bound's cost is the idle, here the whole part
  // Busy time inside a window is not removable: a steady window [40, 60) with "mid" running 4 ms
  // of it (20%, under 50%) counts only its 16 ms of idle.
  TraceBuilder busy_part = build(60);
  busy_part.Kernel("mid", 45 * kMs, 49 * kMs);
  const auto busy_report = Analyze(busy_part.trace, options);  // outlives f: f points into it
  f = Find(busy_report, "gpu_low_utilization");
  REQUIRE(f != nullptr);
  CHECK(f->time_ns == 16 * kMs);
  CHECK(f->severity == gpuperf::report::Severity::kWarning);
  REQUIRE(f->bound_speedup_if_removed);
}
