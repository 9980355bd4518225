// `nsys stats` / `nsys analyze` outputs on the pipit saxpy trace (gold/nsys-stats/pipit-saxpy),
// compared at the precision the gold prints.
#include "gpuperf/analyze.h"
#include "gpuperf/import.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <tuple>
#include <vector>

#include "analysis/core/correlation.h"
#include "analysis/timeline/launch_overhead.h"
#include "corpus.h"
#include "gold_csv.h"
#include "report/csv_writer.h"

namespace {

using gpuperf::report::Distribution;
using gpuperf::testing::CorpusFile;
using gpuperf::testing::CsvRow;
using gpuperf::testing::Fixed;
using gpuperf::testing::ReadCsv;

constexpr const char* kTrace = "nsys/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite";
constexpr const char* kGold = "gold/nsys-stats/pipit-saxpy/";

struct Saxpy {
  gpuperf::model::Trace trace;
  gpuperf::report::AnalysisReport report;
};

// Imports and analyzes once per test; nullopt (after a WARN) without a corpus.
std::optional<Saxpy> Load() {
  auto path = CorpusFile(kTrace);
  if (!path)
    return std::nullopt;
  auto trace = gpuperf::io::ImportTraceFile(*path);
  INFO((trace.ok() ? std::string() : trace.error().message));
  REQUIRE(trace.ok());
  Saxpy s{std::move(trace.value()), {}};
  s.report = gpuperf::analysis::Analyze(s.trace);
  return s;
}

std::vector<CsvRow> Gold(const std::string& file) {
  return ReadCsv(*CorpusFile(kGold + file));
}

// "Avg (ns)" style columns: `prefix` + "Avg" + `suffix` and so on, as printed.
void CheckDistribution(const Distribution& d,
                       const CsvRow& g,
                       const std::string& prefix,
                       const std::string& suffix,
                       const std::string& count_column) {
  CHECK(std::to_string(d.count) == g.at(count_column));
  CHECK(Fixed(d.avg, 1) == g.at(prefix + "Avg" + suffix));
  CHECK(Fixed(d.med, 1) == g.at(prefix + "Med" + suffix));
  CHECK(std::to_string(d.min) == g.at(prefix + "Min" + suffix));
  CHECK(std::to_string(d.max) == g.at(prefix + "Max" + suffix));
  CHECK(Fixed(d.stddev, 1) == g.at(prefix + "StdDev" + suffix));
}

// "   2    1    1" -> "2x1x1".
std::string Geometry(const std::string& gold) {
  std::istringstream in(gold);
  int x = 0, y = 0, z = 0;
  in >> x >> y >> z;
  return fmt::format("{}x{}x{}", x, y, z);
}

const gpuperf::report::Finding* Find(const gpuperf::report::AnalysisReport& r,
                                     const std::string& id) {
  for (const auto& f : r.findings) {
    if (f.id == id)
      return &f;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("saxpy: kernel table equals nsys gpukernsum", "[gold][nsys]") {
  auto s = Load();
  if (!s)
    return;
  auto gold = Gold("gpukernsum.csv");
  REQUIRE(gold.size() == s->report.kernels.size());
  for (std::size_t i = 0; i < gold.size(); ++i) {
    const auto& k = s->report.kernels[i];
    const CsvRow& g = gold[i];
    CHECK(k.name == g.at("Name"));
    CHECK(Fixed(k.time_percent, 1) == g.at("Time (%)"));
    CHECK(std::to_string(k.duration_ns.total) == g.at("Total Time (ns)"));
    CheckDistribution(k.duration_ns, g, "", " (ns)", "Instances");
    CHECK(k.grid == Geometry(g.at("GridXYZ")));
    CHECK(k.block == Geometry(g.at("BlockXYZ")));
  }
}

TEST_CASE("saxpy: memory operations equal nsys gpumemtimesum and gpumemsizesum", "[gold][nsys]") {
  auto s = Load();
  if (!s)
    return;
  auto time_gold = Gold("gpumemtimesum.csv");
  auto size_gold = Gold("gpumemsizesum.csv");
  REQUIRE(time_gold.size() == s->report.memory_ops.size());
  REQUIRE(size_gold.size() == s->report.memory_ops.size());
  for (const auto& row : s->report.memory_ops) {
    auto by_op = [&](const CsvRow& g) { return g.at("Operation") == row.operation; };
    auto t = std::find_if(time_gold.begin(), time_gold.end(), by_op);
    auto z = std::find_if(size_gold.begin(), size_gold.end(), by_op);
    REQUIRE(t != time_gold.end());
    REQUIRE(z != size_gold.end());
    CHECK(Fixed(row.time_percent, 1) == t->at("Time (%)"));
    CHECK(std::to_string(row.duration_ns.total) == t->at("Total Time (ns)"));
    CheckDistribution(row.duration_ns, *t, "", " (ns)", "Count");
    // Sizes in MB = bytes / 1e6 at 3 decimals.
    const Distribution& b = row.size_bytes;
    CHECK(Fixed(static_cast<double>(b.total) / 1e6, 3) == z->at("Total (MB)"));
    CHECK(std::to_string(b.count) == z->at("Count"));
    CHECK(Fixed(b.avg / 1e6, 3) == z->at("Avg (MB)"));
    CHECK(Fixed(b.med / 1e6, 3) == z->at("Med (MB)"));
    CHECK(Fixed(static_cast<double>(b.min) / 1e6, 3) == z->at("Min (MB)"));
    CHECK(Fixed(static_cast<double>(b.max) / 1e6, 3) == z->at("Max (MB)"));
    CHECK(Fixed(b.stddev / 1e6, 3) == z->at("StdDev (MB)"));
  }
}

TEST_CASE("saxpy: API table equals nsys cudaapisum, duplicate records included", "[gold][nsys]") {
  auto s = Load();
  if (!s)
    return;
  auto gold = Gold("cudaapisum.csv");
  REQUIRE(gold.size() == s->report.api.size());  // 11 rows: two per doubly recorded call
  for (std::size_t i = 0; i < gold.size(); ++i) {
    const auto& a = s->report.api[i];
    CHECK(a.name == gold[i].at("Name"));
    CHECK(Fixed(a.time_percent, 1) == gold[i].at("Time (%)"));
    CHECK(std::to_string(a.duration_ns.total) == gold[i].at("Total Time (ns)"));
    CheckDistribution(a.duration_ns, gold[i], "", " (ns)", "Num Calls");
  }
}

TEST_CASE("saxpy: NVTX ranges equal nsys nvtxsum", "[gold][nsys]") {
  auto s = Load();
  if (!s)
    return;
  auto gold = Gold("nvtxsum.csv");
  REQUIRE(gold.size() == s->report.ranges.size());
  for (std::size_t i = 0; i < gold.size(); ++i) {
    const auto& r = s->report.ranges[i];
    CHECK(r.name == gold[i].at("Range"));
    CHECK(r.kind == gpuperf::report::RangeKind::kNvtx);
    CHECK(Fixed(r.time_percent, 1) == gold[i].at("Time (%)"));
    CHECK(std::to_string(r.duration_ns.total) == gold[i].at("Total Time (ns)"));
    CheckDistribution(r.duration_ns, gold[i], "", " (ns)", "Instances");
  }
}

TEST_CASE("saxpy: launch pairs reproduce nsys kernexecsum", "[gold][nsys]") {
  auto s = Load();
  if (!s)
    return;
  auto gold = Gold("kernexecsum.csv");
  REQUIRE(gold.size() == 1);
  const CsvRow& g = gold[0];
  gpuperf::analysis::CorrelationIndex index(s->trace);
  // nsys pairs both records of each doubly recorded launch: Count 10 for 5 kernels.
  auto l = gpuperf::analysis::SummarizeLaunches(
      s->trace, gpuperf::analysis::JoinKernelLaunches(s->trace, index, true));
  CHECK(std::to_string(l.total_ns.count) == g.at("Count"));
  CheckDistribution(l.total_ns, g, "T", " (ns)", "Count");
  CheckDistribution(l.api_ns, g, "A", " (ns)", "Count");
  CheckDistribution(l.queue_ns, g, "Q", " (ns)", "QCount");
  CheckDistribution(l.kernel_ns, g, "K", " (ns)", "Count");
  // Our default counts each launch once.
  CHECK(s->report.launch.launches == 5);
  CHECK(s->report.audit.launch_calls == 5);
  CHECK(s->report.audit.kernel_launches == 5);
}

TEST_CASE("saxpy: sync_memcpy equals nsys cuda-sync-memcpy row by row", "[gold][nsys]") {
  auto s = Load();
  if (!s)
    return;
  auto gold = Gold("cuda-sync-memcpy.csv");
  const auto* f = Find(s->report, "sync_memcpy");
  REQUIRE(f != nullptr);
  CHECK(f->count == 15);  // 15 copies, each with two API records
  REQUIRE(f->rows.size() == gold.size());
  // gpuperf orders the rows by the host time each call blocked (since 1.23.0), nsys by the copy's
  // duration: the same rows, compared in nsys's order (longest first, then start, then API name).
  std::vector<gpuperf::report::FindingRow> rows = f->rows;
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return std::make_tuple(-std::stoll(a.cells[0]), std::stoll(a.cells[1]), a.cells[9]) <
           std::make_tuple(-std::stoll(b.cells[0]), std::stoll(b.cells[1]), b.cells[9]);
  });
  std::int64_t time_ns = 0;
  for (std::size_t i = 0; i < gold.size(); ++i) {
    const auto& c = rows[i].cells;
    const CsvRow& g = gold[i];
    CHECK(c[0] == g.at("Duration (ns)"));
    CHECK(c[1] == g.at("Start (ns)"));
    CHECK(c[2] == g.at("Src Kind"));
    CHECK(c[3] == g.at("Dst Kind"));
    CHECK(Fixed(std::stod(c[4]) / 1e6, 3) == g.at("Bytes (MB)"));
    CHECK(c[5] == g.at("PID"));
    CHECK(c[6] == g.at("Device ID"));
    CHECK(c[7] == g.at("Context ID"));
    CHECK(c[8] == g.at("Stream ID"));
    CHECK(c[9] == g.at("API Name"));
    if (i % 2 == 0)
      time_ns += std::stoll(g.at("Duration (ns)"));
  }
  CHECK(f->time_ns == time_ns);
}

TEST_CASE("saxpy: gpu_low_utilization equals nsys gpu-low-util", "[gold][nsys]") {
  auto s = Load();
  if (!s)
    return;
  auto gold = Gold("gpu-low-util.csv");
  const auto* f = Find(s->report, "gpu_low_utilization");
  REQUIRE(f != nullptr);
  REQUIRE(f->rows.size() == gold.size());
  for (std::size_t i = 0; i < gold.size(); ++i) {
    const auto& c = f->rows[i].cells;
    CHECK(c[0] == gold[i].at("In-Use (%)"));
    CHECK(c[1] == gold[i].at("Duration (ns)"));
    CHECK(c[2] == gold[i].at("Start (ns)"));
    CHECK(c[3] == gold[i].at("PID"));
    CHECK(c[4] == gold[i].at("Device ID"));
  }
}

TEST_CASE("saxpy: rules nsys found nothing for stay silent", "[gold][nsys]") {
  auto s = Load();
  if (!s)
    return;
  // Empty gold CSVs: nsys found no pageable async copy, no sync API call, no 500 ms gap; its
  // console says the same of cuda-sync-memset.
  CHECK(Gold("cuda-async-memcpy.csv").empty());
  CHECK(Gold("cuda-sync-api.csv").empty());
  CHECK(Gold("gpu-starv.csv").empty());
  CHECK(Find(s->report, "pageable_async_memcpy") == nullptr);
  CHECK(Find(s->report, "sync_api") == nullptr);
  CHECK(Find(s->report, "gpu_gaps") == nullptr);
  CHECK(Find(s->report, "sync_memset") == nullptr);
}

TEST_CASE("saxpy: --format csv's kernel table carries nsys gpukernsum's cells", "[gold][nsys]") {
  auto s = Load();
  if (!s)
    return;
  std::string kernels;
  for (const auto& [name, text] : gpuperf::report::ToCsvFiles(s->report)) {
    if (name == "kernels.csv")
      kernels = text;
  }
  REQUIRE_FALSE(kernels.empty());
  auto gold = Gold("gpukernsum.csv");
  REQUIRE_FALSE(gold.empty());
  // The same geometry text as nsys writes it, and the same leading cells.
  CHECK(kernels.find("," + gold[0].at("GridXYZ") + "," + gold[0].at("BlockXYZ") + ",") !=
        std::string::npos);
  CHECK(kernels.find(gold[0].at("Time (%)") + "," + gold[0].at("Total Time (ns)") + "," +
                     gold[0].at("Instances") + ",") != std::string::npos);
}
