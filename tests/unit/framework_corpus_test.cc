// The framework view on corpus traces, against figures computed independently from the raw
// JSON (a script walks each GPU activity to its launch call by correlation id and collects the
// nn.Module frames on the launching thread that contain the call): module times on three traces,
// the step count of a training trace, and NVTX ranges as operators in an nsys export.
#include "gpuperf/analyze.h"
#include "gpuperf/import.h"

#include <catch2/catch.hpp>

#include "corpus.h"

namespace {

using gpuperf::testing::CorpusFile;

std::optional<gpuperf::report::AnalysisReport> Analyze(const std::string& relative) {
  auto path = CorpusFile(relative);
  if (!path)
    return std::nullopt;
  auto trace = gpuperf::io::ImportTraceFile(*path);
  REQUIRE(trace.ok());
  return gpuperf::analysis::Analyze(*trace);
}

std::int64_t ModuleForwardNs(const gpuperf::report::AnalysisReport& r, const std::string& name) {
  for (const auto& m : r.framework.modules) {
    if (m.name == name)
      return m.forward_ns;
  }
  FAIL("no module " << name);
  return 0;
}

}  // namespace

TEST_CASE("Modules on corpus traces match an independent attribution", "[framework][corpus]") {
  struct Expected {
    const char* trace;
    const char* module;
    std::int64_t forward_ns;  // the script's microseconds, in ns
  };
  const Expected expected[] = {
      {"kineto/tracelens/h100/facebook_timesformer-base-finetuned-k400__1016002.json.gz",
       "TimeSformerAttention",
       140092819},
      {"kineto/tracelens/h100/facebook_timesformer-base-finetuned-k400__1016002.json.gz",
       "TimesformerForVideoClassification",
       154969032},
      {"kineto/tracelens/b200/eager_trace.json.gz", "FusedMoE", 7669907},
      {"kineto/tracelens/b200/eager_trace.json.gz", "OAIAttention", 2958188},
      {"kineto/switchtransformers/trace.json", "SwitchMoE", 395882000},
      {"kineto/switchtransformers/trace.json", "MultiQueryAttention", 66279000},
  };
  for (const Expected& e : expected) {
    INFO(e.trace << ": " << e.module);
    auto report = Analyze(e.trace);
    if (!report)
      return;
    // The script sums float microseconds; ours are integer nanoseconds.
    CHECK(static_cast<double>(ModuleForwardNs(*report, e.module)) ==
          Approx(static_cast<double>(e.forward_ns)).margin(2.0));
  }
}

TEST_CASE("df_index_resolver holds five ProfilerSteps", "[framework][corpus]") {
  auto report = Analyze("kineto/hta/df_index_resolver/df_index_resolver.json.gz");
  if (!report)
    return;
  REQUIRE(report->framework.step_summary);
  CHECK(report->framework.step_summary->steps == 5);
  CHECK(report->framework.steps.size() == 5);
  for (const auto& step : report->framework.steps) {
    CHECK(step.wall_ns > 0);
    CHECK(step.launches > 0);
    CHECK(step.gpu_busy_ns <= step.wall_ns);
  }
}

TEST_CASE("An nsys export's NVTX ranges are its operators", "[framework][corpus]") {
  auto report = Analyze("nsys/nvfuser-h200/report1.sqlite");
  if (!report)
    return;
  CHECK(report->framework.op_source == gpuperf::report::OperatorSource::kNvtx);
  std::int64_t direct = 0;
  for (const auto& op : report->framework.operators)
    direct += op.kernel_ns;
  CHECK(direct > 0);
  std::int64_t categorized = 0;
  for (const auto& c : report->framework.categories)
    categorized += c.kernel_ns;
  CHECK(categorized == report->framework.total_gpu_ns);
}
