#include <catch2/catch.hpp>

#include <string>

#include "report/terminal_summary.h"
#include "report_fixture.h"

namespace gpuperf::report {
namespace {

TEST_CASE("terminal summary lists headline, top kernels, findings and files") {
  TerminalOptions options;
  options.top_rows = 1;
  options.written = {"out/report.md", "out/report.json"};
  std::string text = ToTerminalSummary(testing::SampleReport(), options);
  CHECK(text.rfind("gpuperf: /data/run/trace.json\n\nGPU busy 75.0%", 0) == 0);
  CHECK(text.find("Top 1 of 2 kernels by GPU time") != std::string::npos);
  CHECK(text.find("62.5%") != std::string::npos);
  CHECK(text.find("gemm_kernel") != std::string::npos);
  CHECK(text.find("<script>") == std::string::npos);  // second kernel is past the top row
  CHECK(text.find("[warning] Synchronous copies: 4 copies") != std::string::npos);
  CHECK(text.find("Wrote out/report.md\nWrote out/report.json\n") != std::string::npos);
}

TEST_CASE("terminal summary names the class by the analysis' label") {
  AnalysisReport report = testing::SampleReport();
  report.diagnosis.bottleneck = Bottleneck::kUnknown;
  report.diagnosis.status = DiagnosisStatus::kHypothesis;
  report.diagnosis.label = "GPU-bound, kernel class unknown";
  std::string text = ToTerminalSummary(report, TerminalOptions{});
  CHECK(text.find("Diagnosis: hypothesis GPU-bound, kernel class unknown (not a finding") !=
        std::string::npos);
}

TEST_CASE("terminal summary has colour only when asked for") {
  TerminalOptions options;
  CHECK(ToTerminalSummary(testing::SampleReport(), options).find('\x1b') == std::string::npos);
  options.color = true;
  CHECK(ToTerminalSummary(testing::SampleReport(), options).find("\x1b[1m") != std::string::npos);
}

TEST_CASE("terminal summary strips control characters from trace names") {
  AnalysisReport report = testing::SampleReport();
  report.kernels[1].name = "\x1b]0;owned\x07gemm";
  report.findings[0].title = "bad\x1b[2Jtitle";
  std::string text = ToTerminalSummary(report, TerminalOptions{});
  CHECK(text.find('\x1b') == std::string::npos);
  CHECK(text.find('\x07') == std::string::npos);
  CHECK(text.find("?]0;owned?gemm") != std::string::npos);
  CHECK(text.find("a|b`<script>alert(1)</script>?# x") != std::string::npos);
}

TEST_CASE("terminal summary wraps the headline") {
  AnalysisReport report;
  report.headline = std::string(30, 'a') + " " + std::string(30, 'b') + " " + std::string(30, 'c');
  TerminalOptions options;
  options.width = 65;
  std::string text = ToTerminalSummary(report, options);
  CHECK(text.find(std::string(30, 'a') + " " + std::string(30, 'b') + "\n" +
                  std::string(30, 'c')) != std::string::npos);
}

}  // namespace
}  // namespace gpuperf::report
