// The counter pass's host-side pieces without a GPU: which launches it profiles, and that what it
// writes is read back by the Nsight Compute importer and joined to a trace like an ncu export.
#include "gpuperf/import.h"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "inject/counter_csv.h"
#include "inject/launch_selection.h"
#include "io/ncu/counter_join.h"

using gpuperf::inject::CounterCsvWriter;
using gpuperf::inject::LaunchSelection;
using gpuperf::inject::ProfiledLaunch;

namespace {

std::filesystem::path TempPath(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("gpuperf-counter-" + std::to_string(getpid()) + "-" + name);
}

}  // namespace

TEST_CASE("launch selection: named kernels, a cap per name, demangled", "[inject][counters]") {
  LaunchSelection selection("saxpy(float, float*, float*)\r\nvoid stream_copy<float>(float*)\n\n",
                            2);
  CHECK(selection.selected_names() == 2);
  std::string name;
  CHECK(selection.Take("_Z5saxpyfPfS_", name));
  CHECK(name == "saxpy(float, float*, float*)");
  CHECK(selection.Take("_Z5saxpyfPfS_", name));
  CHECK_FALSE(selection.Take("_Z5saxpyfPfS_", name));  // the cap
  CHECK_FALSE(selection.Take("_Z5otherv", name));      // not selected
  CHECK(name == "other()");
  CHECK_FALSE(selection.Take(nullptr, name));
  CHECK(selection.skipped_launches() == 2);
}

TEST_CASE("launch selection: no names selects every kernel, still capped", "[inject][counters]") {
  LaunchSelection selection("", 0);  // a cap below 1 means 1
  std::string name;
  CHECK(selection.Take("plain_c_kernel", name));
  CHECK(name == "plain_c_kernel");
  CHECK_FALSE(selection.Take("plain_c_kernel", name));
  CHECK(selection.Take("_Z3foov", name));
}

TEST_CASE("counter CSV: units follow Nsight Compute's", "[inject][counters]") {
  using gpuperf::inject::MetricUnit;
  CHECK(MetricUnit("gpu__time_duration.sum") == "nsecond");
  CHECK(MetricUnit("dram__bytes_read.sum") == "byte");
  CHECK(MetricUnit("sm__cycles_elapsed.avg.per_second") == "hz");
  CHECK(MetricUnit("sm__warps_active.avg.pct_of_peak_sustained_active") == "%");
  CHECK(MetricUnit("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum").empty());
}

TEST_CASE("counter CSV: read back by the ncu importer and joined to a trace's kernels",
          "[inject][counters]") {
  const auto path = TempPath("a.counters.csv");
  std::filesystem::remove(path);
  {
    CounterCsvWriter csv;
    REQUIRE(csv.Open(path.string()));
    CHECK_FALSE(CounterCsvWriter().Open(path.string()));  // never overwrites
    for (int i = 0; i < 2; ++i) {
      ProfiledLaunch launch;
      launch.id = i;
      launch.pid = 4242;
      launch.process_name = "app";
      launch.host = "node1";
      launch.kernel_name = "sgemm_kernel<\"quoted\">(float*, int)";
      launch.grid[0] = 128;
      launch.grid[1] = launch.grid[2] = 1;
      launch.block[0] = 256;
      launch.block[1] = launch.block[2] = 1;
      launch.cc_major = 9;
      launch.metrics = {"gpu__time_duration.sum",
                        "dram__bytes_read.sum",
                        "dram__bytes_write.sum",
                        "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
                        "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
                        "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"};
      launch.values = {2000.0 + i, 4096, 1024, 10, 20, 1000};
      REQUIRE(csv.Write(launch));
    }
  }
  auto imported = gpuperf::io::ImportTraceFile(path.string());
  REQUIRE(imported.ok());
  CHECK(imported->metadata.format == "ncu-csv");
  REQUIRE(imported->counters.size() == 2);
  const auto& first = imported->counters[0];
  const auto& kernel = imported->activities[first.activity];
  CHECK(imported->Name(kernel.name) == "sgemm_kernel<\"quoted\">(float*, int)");
  CHECK(kernel.grid.x == 128);
  CHECK(kernel.block.x == 256);
  CHECK(kernel.duration_ns() == 2000);
  CHECK(first.metrics.at("dram__bytes_read.sum") == 4096);
  CHECK(first.metrics.at("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum") == 1000);

  // Joined to a timeline with three instances of the kernel: the first two take the counters.
  gpuperf::model::Trace trace;
  for (int i = 0; i < 3; ++i) {
    gpuperf::model::GpuActivity a;
    a.kind = gpuperf::model::ActivityKind::kKernel;
    a.name = trace.strings.Intern("sgemm_kernel<\"quoted\">(float *, int)");
    a.start_ns = 1000 * i;
    a.end_ns = a.start_ns + 500;
    trace.activities.push_back(a);
  }
  auto summary = gpuperf::io::ncu::JoinCounters(trace, *imported);
  CHECK(summary.joined == 2);
  CHECK(summary.unjoined == 0);
  REQUIRE(trace.counters.size() == 2);
  CHECK(trace.counters[1].activity == 1);
  CHECK(trace.counters[1].metrics.at("gpu__time_duration.sum") == 2001);
  std::filesystem::remove(path);
}
