#include "gpuperf/analyze.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "analysis/diagnosis/headline.h"
#include "analysis_builder.h"

TEST_CASE("The headline states span, busy share, top kernel and copies with their source",
          "[analysis][headline]") {
  gpuperf::testing::TraceBuilder b;
  b.Kernel("gemm", 0, 3'000'000);
  b.Kernel("relu", 9'000'000, 10'000'000);
  b.Memcpy(gpuperf::model::CopyKind::kHtoD, 4'000'000, 5'000'000, 1 << 20);
  auto report = gpuperf::analysis::Analyze(b.trace);
  const std::string& h = report.headline;
  // The opening sentence is the diagnosis itself, so the paragraph cannot contradict it.
  CHECK(h.starts_with("Diagnosis: " + report.diagnosis.label + " (" +
                      std::string(ToString(report.diagnosis.status)) + ")"));
  // The label is the class with hyphens, or says what an unknown class over kernels still is.
  std::string label(ToString(report.diagnosis.bottleneck));
  std::replace(label.begin(), label.end(), '_', '-');
  CHECK(report.diagnosis.label == (label == "unknown" && report.diagnosis.dominant_kind ==
                                                             gpuperf::report::DominantKind::kKernel
                                       ? "GPU-bound, kernel class unknown"
                                       : label));
  CHECK(h.find("The GPU span is 10.0 ms over 3 GPU activities") != std::string::npos);
  CHECK(h.find("busy 50.0% (5.00 ms), idle 50.0%") != std::string::npos);
  CHECK(h.find("The top kernel, gemm, takes 3.00 ms in 1 instance: 75.0% of kernel time") !=
        std::string::npos);
  CHECK(h.find("Copies cover 1.00 ms (10.0% of the span, 1.00 ms not overlapped") !=
        std::string::npos);
  CHECK(h.find("Most important finding") == std::string::npos);
  CHECK(h.find("Communication") == std::string::npos);  // none in the window: not mentioned
  CHECK(h.find("(source: trace)") != std::string::npos);
}

TEST_CASE("The headline leaves copies under 1% of the span to their section",
          "[analysis][headline]") {
  // 50 us of copies in a 10 ms span (0.5%): the timeline table has them, the headline does not.
  gpuperf::testing::TraceBuilder b;
  b.Kernel("gemm", 0, 3'000'000);
  b.Kernel("relu", 9'000'000, 10'000'000);
  b.Memcpy(gpuperf::model::CopyKind::kHtoD, 4'000'000, 4'050'000, 1 << 10);
  auto report = gpuperf::analysis::Analyze(b.trace);
  CHECK(report.timeline.memcpy_ns == 50'000);
  CHECK(report.headline.find("Copies") == std::string::npos);
  // At 1% (100 us) they are said.
  b.trace.activities.back().end_ns = 4'100'000;
  CHECK(gpuperf::analysis::Analyze(b.trace).headline.find(
            "Copies cover 100 µs (1.0% of the span") != std::string::npos);
}

TEST_CASE("Diagnostics and source facts are copied into the report", "[analysis][headline]") {
  gpuperf::testing::TraceBuilder b;
  b.trace.metadata.format = "kineto";
  b.trace.metadata.rank = 3;
  b.trace.devices.push_back({.id = 0, .name = "H100", .compute_major = 9, .sm_count = 132});
  b.trace.diagnostics.Count(gpuperf::model::Diagnostic::kKinetoOrphanGpuActivity, 4);
  b.trace.diagnostics.notes.push_back("header after traceEvents");
  auto report = gpuperf::analysis::Analyze(b.trace);
  CHECK(report.source.format == "kineto");
  CHECK(report.source.rank == 3);
  REQUIRE(report.source.devices.size() == 1);
  CHECK(report.source.devices[0] == "0: H100 (cc 9.0, 132 SMs)");
  REQUIRE(report.diagnostics.size() == 1);
  CHECK(report.diagnostics[0].name == "kineto.orphan_gpu_activity");
  CHECK(report.diagnostics[0].count == 4);
  CHECK(report.diagnostic_notes == std::vector<std::string>{"header after traceEvents"});
}

TEST_CASE("The headline gives a raised launch-cutting bound after the change's own",
          "[analysis][headline]") {
  // A fusion lever raised to its fewer-launches ceiling: 1.89x with the GPU's idle kept (what
  // fusion alone gives), 2.30x with its launches captured in a graph and that idle gone.
  gpuperf::testing::TraceBuilder b;
  b.Kernel("k", 0, 1'000'000);
  gpuperf::report::AnalysisReport report = gpuperf::analysis::Analyze(b.trace);
  gpuperf::report::Diagnosis& d = report.diagnosis;
  d.bottleneck = gpuperf::report::Bottleneck::kMemoryBound;
  d.label = "memory-bound";
  d.next_experiment = "Fuse the elementwise chain: torch.compile the model.";
  d.bound_speedup = 2.30;
  d.bound_speedup_idle_kept = 1.89;
  d.bound_speedup_modeled = 2.20;
  const std::string h = gpuperf::analysis::Headline(b.trace, report);
  CHECK(h.find("next experiment: Fuse the elementwise chain, at most 1.89x faster with the GPU's "
               "idle kept as now (Amdahl), 2.30x if its launches are captured in a graph as well "
               "and that idle goes too (the window over the GPU's busy time less the work removed; "
               "2.20x from its modelled part alone, the rest assumed).") != std::string::npos);
  // Not raised: one bound.
  d.bound_speedup_idle_kept.reset();
  CHECK(gpuperf::analysis::Headline(b.trace, report)
            .find("at most 2.30x faster if it fully succeeds (Amdahl; 2.20x from") !=
        std::string::npos);
}
