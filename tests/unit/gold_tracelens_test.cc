// TraceLens gpu_timeline and kernel_summary (gold/tracelens) on the H100 and MI300 traces.
#include "gpuperf/analyze.h"
#include "gpuperf/import.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "corpus.h"
#include "gold_csv.h"

namespace {

using gpuperf::testing::CorpusFile;
using gpuperf::testing::ReadCsv;

// TraceLens sums float64 microseconds of absolute timestamps (about 1.4e12 us here, where one
// ulp is 2^-12 us = 0.24 ns): every event end (ts + dur) and every interval length rounds once,
// and n such errors add up like a random walk. Our integer nanoseconds are exact, so we allow
// 4 sqrt(n) ulp (in ms). Observed differences reach 10 ns (Qwen H100 busy time, bound 34 ns):
// the 1e-6 ms the gold prints cannot hold for its own rounding.
double ToleranceMs(const gpuperf::report::Timeline& t) {
  double start_us = static_cast<double>(t.first_start_ns) / 1e3;
  double ulp_us = std::nextafter(start_us, std::numeric_limits<double>::infinity()) - start_us;
  return std::max(1e-6, 4.0 * std::sqrt(static_cast<double>(t.activities)) * ulp_us / 1e3);
}

void CheckTimeline(const std::string& name) {
  auto trace_path = CorpusFile("kineto/tracelens/" + name + ".json.gz");
  if (!trace_path)
    return;
  auto trace = gpuperf::io::ImportTraceFile(*trace_path);
  INFO(name << (trace.ok() ? "" : ": " + trace.error().message));
  REQUIRE(trace.ok());
  auto report = gpuperf::analysis::Analyze(*trace);
  const auto& t = report.timeline_tracelens;
  std::map<std::string, double> gold;
  for (const auto& row : ReadCsv(*CorpusFile("gold/tracelens/" + name + "/gpu_timeline.csv"))) {
    gold[row.at("type")] = std::stod(row.at("time ms"));
  }
  double tol = ToleranceMs(t);
  INFO("tolerance " << tol << " ms over " << t.activities << " activities");
  auto ms = [](std::int64_t ns) { return static_cast<double>(ns) / 1e6; };
  CHECK(ms(t.total_ns) == Approx(gold.at("total_time")).margin(tol));
  CHECK(ms(t.busy_ns) == Approx(gold.at("busy_time")).margin(tol));
  CHECK(ms(t.idle_ns) == Approx(gold.at("idle_time")).margin(tol));
  CHECK(ms(t.computation_ns) == Approx(gold.at("computation_time")).margin(tol));
  CHECK(ms(t.communication_ns) == Approx(gold.at("total_comm_time")).margin(tol));
  CHECK(ms(t.exposed_communication_ns) == Approx(gold.at("exposed_comm_time")).margin(tol));
  CHECK(ms(t.memcpy_ns) == Approx(gold.at("total_memcpy_time")).margin(tol));
  CHECK(ms(t.exposed_memcpy_ns) == Approx(gold.at("exposed_memcpy_time")).margin(tol));

  // kernel_summary keeps every kernel, orphans included: its counts and summed durations
  // (grouped by parent op there, by name here) must add up to our kernel table's.
  std::int64_t gold_count = 0;
  double gold_us = 0;
  for (const auto& row : ReadCsv(*CorpusFile("gold/tracelens/" + name + "/kernel_summary.csv"))) {
    gold_count += std::stoll(row.at("Kernel duration (\xC2\xB5s)_count"));
    gold_us += std::stod(row.at("Kernel duration (\xC2\xB5s)_sum"));
  }
  std::int64_t count = 0, total_ns = 0;
  for (const auto& k : report.kernels) {
    count += k.duration_ns.count;
    total_ns += k.duration_ns.total;
  }
  CHECK(count == gold_count);
  CHECK(static_cast<double>(total_ns) / 1e3 == Approx(gold_us).margin(1e-3));
}

}  // namespace

TEST_CASE("TraceLens gpu_timeline: H100 bert-small", "[gold][tracelens]") {
  CheckTimeline("h100/gaunernst_bert-small-uncased__1016001");
}

TEST_CASE("TraceLens gpu_timeline: H100 Falconsai", "[gold][tracelens]") {
  CheckTimeline("h100/Falconsai_nsfw_image_detection__1016002");
}

TEST_CASE("TraceLens gpu_timeline: H100 Qwen (orphans dropped)", "[gold][tracelens]") {
  CheckTimeline("h100/Qwen_Qwen1.5-0.5B-Chat__1016005");
}

TEST_CASE("TraceLens gpu_timeline: MI300 Qwen", "[gold][tracelens]") {
  CheckTimeline("mi300/Qwen_Qwen1.5-0.5B-Chat__1016005");
}
