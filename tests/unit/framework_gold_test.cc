// The operator table against TraceLens' ops_summary.csv (gold/tracelens) on the four corpus traces
// that have it: every op's direct and subtree GPU time and its Count; and the step count of a
// training trace.
#include "gpuperf/analyze.h"
#include "gpuperf/import.h"

#include <catch2/catch.hpp>

#include "corpus.h"
#include "gold_csv.h"

namespace {

using gpuperf::testing::CorpusFile;
using gpuperf::testing::ReadCsv;

void CheckOpsSummary(const std::string& name) {
  auto trace_path = CorpusFile("kineto/tracelens/" + name + ".json.gz");
  if (!trace_path)
    return;
  auto trace = gpuperf::io::ImportTraceFile(*trace_path);
  REQUIRE(trace.ok());
  auto report = gpuperf::analysis::Analyze(*trace);
  std::map<std::string, const gpuperf::report::OperatorRow*> ops;
  for (const auto& op : report.framework.operators)
    ops[op.name] = &op;
  auto gold = ReadCsv(*CorpusFile("gold/tracelens/" + name + "/ops_summary.csv"));
  REQUIRE(!gold.empty());
  for (const auto& row : gold) {
    const std::string& op_name = row.at("name");
    INFO(name << ": " << op_name);
    REQUIRE(ops.count(op_name));
    const auto& op = *ops[op_name];
    // TraceLens sums float64 microseconds of absolute timestamps (one ulp is about 0.24 ns
    // there); ours are exact integer nanoseconds: allow 1 ns per call.
    double margin_us = 1e-3 * static_cast<double>(op.calls) + 1e-3;
    CHECK(static_cast<double>(op.kernel_ns) / 1e3 ==
          Approx(std::stod(row.at("total_direct_kernel_time_sum"))).margin(margin_us));
    CHECK(static_cast<double>(op.subtree_kernel_ns) / 1e3 ==
          Approx(std::stod(row.at("total_subtree_kernel_time_sum"))).margin(margin_us));
    CHECK(op.calls == std::stoll(row.at("Count")));
  }
  // Every operator TraceLens lists and no other launches GPU work directly.
  std::size_t launchers = 0;
  for (const auto& op : report.framework.operators)
    launchers += op.calls > 0 ? 1 : 0;
  CHECK(launchers == gold.size());
  std::int64_t categorized = 0;
  for (const auto& c : report.framework.categories)
    categorized += c.kernel_ns;
  CHECK(categorized == report.framework.total_gpu_ns);
}

}  // namespace

TEST_CASE("TraceLens ops_summary: H100 bert-small", "[gold][tracelens][framework]") {
  CheckOpsSummary("h100/gaunernst_bert-small-uncased__1016001");
}

TEST_CASE("TraceLens ops_summary: H100 Falconsai", "[gold][tracelens][framework]") {
  CheckOpsSummary("h100/Falconsai_nsfw_image_detection__1016002");
}

TEST_CASE("TraceLens ops_summary: H100 Qwen", "[gold][tracelens][framework]") {
  CheckOpsSummary("h100/Qwen_Qwen1.5-0.5B-Chat__1016005");
}

TEST_CASE("TraceLens ops_summary: MI300 Qwen", "[gold][tracelens][framework]") {
  CheckOpsSummary("mi300/Qwen_Qwen1.5-0.5B-Chat__1016005");
}
