#include <catch2/catch.hpp>

#include "analysis/timeline/ranges.h"
#include "analysis_builder.h"

namespace {

using gpuperf::model::RangeKind;
using gpuperf::testing::TraceBuilder;

}  // namespace

TEST_CASE("Ranges: count, time and GPU time per (kind, name)", "[analysis][ranges]") {
  TraceBuilder b;
  b.AddRange(RangeKind::kNvtx, "MPI_Send", 0, 100, gpuperf::model::kNoId, "MPI");
  b.AddRange(RangeKind::kNvtx, "MPI_Send", 200, 300, gpuperf::model::kNoId, "MPI");
  b.AddRange(RangeKind::kNvtx, "saxpy", 40, 60);
  b.AddRange(RangeKind::kNvtx, "inverted", 10, 5);  // skipped
  b.Kernel("k", 50, 250);
  auto rows = gpuperf::analysis::RangeTable(b.trace);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].name == "MPI:MPI_Send");
  CHECK(rows[0].kind == gpuperf::report::RangeKind::kNvtx);
  CHECK(rows[0].duration_ns.count == 2);
  CHECK(rows[0].duration_ns.total == 200);
  CHECK(rows[0].time_percent == Approx(200.0 / 220.0 * 100.0));
  CHECK(rows[0].gpu_time_ns == 100);  // [50,100) + [200,250)
  CHECK(rows[1].name == "saxpy");
  CHECK(rows[1].gpu_time_ns == 10);  // [50,60)
}

TEST_CASE("GPU annotations only see the work of their device, overlapping instances count once",
          "[analysis][ranges]") {
  TraceBuilder b;
  b.Kernel("dev0", 0, 100, gpuperf::model::kNoId, 7, 0);
  b.Kernel("dev1", 10, 20, gpuperf::model::kNoId, 7, 1);
  b.AddRange(RangeKind::kGpuUserAnnotation, "fwd", 0, 100, 1);
  b.AddRange(RangeKind::kUserAnnotation, "fwd", 0, 60);
  b.AddRange(RangeKind::kUserAnnotation, "fwd", 50, 100);  // overlaps the first instance
  b.AddRange(RangeKind::kProfilerStep, "ProfilerStep#1", 0, 1000);
  auto rows = gpuperf::analysis::RangeTable(b.trace);
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].kind == gpuperf::report::RangeKind::kUserAnnotation);
  CHECK(rows[0].duration_ns.total == 110);
  CHECK(rows[0].gpu_time_ns == 100);  // window [0,100) once, all devices
  CHECK(rows[0].time_percent == Approx(100.0));
  CHECK(rows[1].kind == gpuperf::report::RangeKind::kGpuUserAnnotation);
  CHECK(rows[1].gpu_time_ns == 10);  // device 1 only
  CHECK(rows[2].kind == gpuperf::report::RangeKind::kProfilerStep);
  CHECK(rows[2].gpu_time_ns == 100);
}
