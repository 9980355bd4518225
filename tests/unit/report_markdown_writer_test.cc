#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "report/markdown_writer.h"
#include "report_fixture.h"

namespace gpuperf::report {
namespace {

std::size_t Find(const std::string& text, const std::string& what) {
  std::size_t at = text.find(what);
  INFO("looking for: " << what);
  REQUIRE(at != std::string::npos);
  return at;
}

std::size_t CountOf(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++count;
  }
  return count;
}

TEST_CASE("report.md puts the headline first and sections in the documented order") {
  std::string md = ToMarkdown(testing::SampleReport());
  CHECK(md.rfind("# gpuperf report: trace.json\n\nGPU busy 75.0% of 4.00 ms", 0) == 0);
  std::vector<std::string> order = {"## Where the time goes",
                                    "## Findings",
                                    "## Kernels",
                                    "## Memory operations",
                                    "## CUDA API calls",
                                    "## Launch overhead",
                                    "## Kernel-count audit",
                                    "## Ranges",
                                    "## Import diagnostics",
                                    "## Source and method"};
  std::size_t previous = 0;
  for (const auto& heading : order) {
    std::size_t at = Find(md, heading);
    CHECK(at > previous);
    previous = at;
  }
}

TEST_CASE("report.md formats the timeline with durations and shares of the span") {
  std::string md = ToMarkdown(testing::SampleReport());
  Find(md, "| busy (any GPU work) | 3.00 ms | 75.0% |");
  Find(md, "| memcpy | 300 µs | 7.5% |");
  Find(md, "42 GPU activities counted.");
  Find(md,
       "5 GPU activities have no launch call in the trace (orphans). Without them (TraceLens' "
       "`gpu_timeline` selection) the span is 4.00 ms, busy 2.00 ms and idle 2.00 ms.");
}

TEST_CASE("report.md escapes hostile kernel and evidence names") {
  std::string md = ToMarkdown(testing::SampleReport());
  CHECK(md.find("<script>") == std::string::npos);
  CHECK(md.find("[x](javascript") == std::string::npos);
  CHECK(md.find("\n# x") == std::string::npos);
  Find(md, "a\\|b\\`&lt;script&gt;alert(1)&lt;/script&gt;\\n\\# x");
  Find(md, "\\[x\\](javascript:alert(1))");
}

TEST_CASE("report.md kernel table is sorted and cut to the top rows") {
  AnalysisReport report = testing::SampleReport();
  for (int i = 0; i < 30; ++i) {
    report.kernels.push_back({"small_" + std::to_string(i),
                              testing::Dist(1, 10 + i, 10 + i, 10 + i, 10 + i, 10 + i, 0),
                              0.001,
                              0.001,
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
  }
  MarkdownOptions options;
  options.top_rows = 5;
  std::string md = ToMarkdown(report, options);
  CHECK(Find(md, "| 1 | gemm\\_kernel | 10 | 1.50 ms | 62.5% |") < Find(md, "| 2 | a\\|b"));
  Find(md, "_Showing 5 of 32 kernels; report.json has more._");
  CHECK(md.find("small\\_0") == std::string::npos);
  Find(md, "| 5 | small\\_27 |");
}

TEST_CASE("report.md shortens very long names in tables") {
  AnalysisReport report = testing::SampleReport();
  report.kernels[1].name = "void cutlass::Kernel<" + std::string(2048, 'T') + ">(Params)";
  std::string md = ToMarkdown(report);
  CHECK(md.find(std::string(200, 'T')) == std::string::npos);
  Find(md, std::string(50, 'T') + "…");
}

TEST_CASE("report.md caps finding evidence and counts what it left out") {
  MarkdownOptions options;
  options.top_rows = 3;
  std::string md = ToMarkdown(testing::SampleReport(), options);
  Find(md, "### 1. Synchronous copies (warning)");
  Find(md, "**Advice:** Use pinned memory and cudaMemcpyAsync.");
  CHECK(CountOf(md, "javascript:alert") == 3);
  Find(md, "_Showing 3 of 10 evidence rows; report.json has more._");
}

TEST_CASE("report.md kernel-count audit follows the evidence discipline") {
  std::string md = ToMarkdown(testing::SampleReport());
  Find(md, "| kernel launches (executions on the GPU) | 13 |");
  Find(md, "| host-device synchronizations | 1 |");
  Find(md, "| peak allocated memory | not recorded |");
  Find(md, "| dominant kernel median time | 149 µs |");
  Find(md, "| dominant kernel % of kernel time | 62.5% |");
  Find(md, "| cudaLaunchKernel (cudaLaunchKernel\\_v7000) | 13 | 65.0 µs | 80.0% |");
  Find(md, "| launch call start to kernel end, med (avg) | 160 µs (200 µs) |");
}

TEST_CASE("report.md names its source and method") {
  MarkdownOptions options;
  options.tool.version = "1.2.3";
  std::string md = ToMarkdown(testing::SampleReport(), options);
  std::string source = md.substr(Find(md, "## Source and method"));
  Find(source, "- File: /data/run/trace.json");
  Find(source, "- Format: kineto 1");
  Find(source, "- Rank: 0 of 8");
  Find(source, "  - 0: NVIDIA H100 80GB HBM3 (cc 9.0, 132 SMs)");
  Find(source, "- Written by gpuperf 1.2.3 (report schema ");
  Find(source, "docs/metrics.md");
  Find(source, "- busy time is the union of GPU activities");
}

TEST_CASE("report.md of an empty report says what is missing instead of empty tables") {
  std::string md = ToMarkdown(AnalysisReport{});
  Find(md, "_The analysis produced no headline for this trace._");
  Find(md, "The trace holds no GPU activity that the timeline counts.");
  Find(md, "No finding rule fired on this trace.");
  Find(md, "The trace holds no kernel executions.");
  CHECK(md.find("## Ranges") == std::string::npos);
}

TEST_CASE("report.md: a secondary statement never prints an empty evidence field") {
  AnalysisReport report = testing::SampleReport();
  report.diagnosis.bottleneck = gpuperf::report::Bottleneck::kHostBound;
  report.diagnosis.status = DiagnosisStatus::kFinding;
  report.diagnosis.evidence = EvidenceTier::kMeasured;
  Diagnosis secondary;
  secondary.bottleneck = gpuperf::report::Bottleneck::kUnknown;
  secondary.label = "unknown";
  secondary.status = DiagnosisStatus::kHypothesis;
  secondary.dominant_kind = DominantKind::kKernel;
  secondary.dominant_name = "k";
  report.diagnosis.secondary.push_back(secondary);
  std::string md = ToMarkdown(report);
  Find(md,
       "**Secondary: unknown** (hypothesis: the evidence to classify it is missing; the GPU "
       "phase of this window)");
  CHECK(CountOf(md, "evidence ;") == 0);
  report.diagnosis.secondary.front().evidence = EvidenceTier::kModeled;
  md = ToMarkdown(report);
  Find(md, "**Secondary: unknown** (hypothesis, evidence modeled; the GPU phase");
}

TEST_CASE("report.md: the operators table shows instances beside calls") {
  AnalysisReport report = testing::SampleReport();
  OperatorRow op;
  op.name = "runFusion";
  op.display_name = "runFusion";
  op.category = gpuperf::report::FrameworkCategory::kOther;
  op.instances = 1;
  op.calls = 0;
  op.subtree_kernel_ns = 139000;
  report.framework.op_source = gpuperf::report::OperatorSource::kNvtx;
  report.framework.operators = {op};
  std::string md = ToMarkdown(report);
  Find(md, "| operator | category | instances | calls | GPU time |");
  Find(md, "calls: the instances that launch GPU work themselves (TraceLens' Count)");
  Find(md, "| runFusion | other | 1 | 0 | 0 ns |");
}

TEST_CASE("report.md: kernels with no critical time are left to report.json") {
  AnalysisReport report = testing::SampleReport();
  report.predictions.wall_ns = 10'000'000;
  report.predictions.summed_wall_ns = 10'000'000;
  CriticalShare held;
  held.name = "held_kernel";
  held.total_ns = 2'000'000;
  held.critical_ns = 1'000'000;
  held.fraction = 0.1;
  held.limit_speedup = 1.0 / 0.9;
  CriticalShare idle = held;
  idle.name = "shadowed_kernel";
  idle.critical_ns = 0;
  idle.fraction = 0;
  idle.limit_speedup = 1.0;
  report.predictions.kernels = {held, idle};
  std::string md = ToMarkdown(report);
  Find(md, "| 1 | held\\_kernel |");
  CHECK(CountOf(md, "shadowed\\_kernel") == 0);
  Find(md, "_Showing 1 of 2 kernels; those left out hold no critical time");
  // None holds any: a sentence, no table of zeros.
  report.predictions.kernels = {idle};
  md = ToMarkdown(report);
  Find(md, "No kernel holds critical time in the 10.0 ms window");
  CHECK(CountOf(md, "| # | kernel | total | critical |") == 0);
}

TEST_CASE("report.md: an idle finding's bound counts that idle only, it is no lever's") {
  AnalysisReport report = testing::SampleReport();
  Finding idle;
  idle.id = "gpu_idle_dominant";
  idle.title = "GPU mostly idle";
  idle.severity = Severity::kWarning;
  idle.summary = "No GPU work ran during 8 ms.";
  idle.time_ns = 8'000'000;
  idle.wall_fraction = 0.8;
  idle.bound_speedup_if_removed = 5.0;
  report.findings.push_back(idle);
  std::string md = ToMarkdown(report);
  Find(md,
       "were all of it gone the program would be 5.00× faster. That counts this idle only and is "
       "no lever's bound");
}

}  // namespace
}  // namespace gpuperf::report
