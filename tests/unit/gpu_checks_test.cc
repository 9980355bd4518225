// tests/gpu/checks.py (the checks of the GPU script) run here, without a GPU, on what gpuperf
// really writes: a baseline of the fake program, a counter pass of it, a ceilings cache from the
// production writer, a golden report. A key renamed in gpuperf's outputs fails here, not on a
// lent GPU. Needs python3; says SKIPPED without it.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "ceilings_test_support.h"
#include "cli/baseline_command.h"
#include "cli_test_support.h"
#include "io/ceilings/ceilings_json.h"
#include "spool/metric_sets.h"

namespace {

namespace fs = std::filesystem;
using gpuperf::testing::ReadFile;
using gpuperf::testing::ShellQuote;
using gpuperf::testing::TempDir;
using gpuperf::testing::WriteFile;

bool HavePython() {
  static const bool have = std::system("python3 -c pass >/dev/null 2>&1") == 0;
  return have;
}

#define REQUIRE_PYTHON_OR_SKIP()                                             \
  do {                                                                       \
    if (!HavePython()) {                                                     \
      WARN("SKIPPED: python3 not found; tests/gpu/checks.py is not tested"); \
      return;                                                                \
    }                                                                        \
  } while (0)

struct CheckResult {
  int exit_code = -1;
  std::string output;
};

CheckResult RunCheck(const std::vector<std::string>& args) {
  TempDir capture;
  std::string command =
      "python3 " + ShellQuote(std::string(GPUPERF_SOURCE_DIR) + "/tests/gpu/checks.py");
  for (const std::string& arg : args)
    command += " " + ShellQuote(arg);
  command += " >" + ShellQuote(capture / "out") + " 2>&1";
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, ReadFile(capture / "out")};
}

gpuperf::record::BaselineOptions FakeBaseline(const fs::path& out, const std::string& mode) {
  gpuperf::record::BaselineOptions options;
  options.command = {GPUPERF_FAKE_APP, mode};
  options.out_dir = out.string();
  options.quiet = true;
  options.check_gpu = false;
  options.inject_library = "none";
  options.measure_overhead = false;
  options.warmup = 0;
  options.repeat = 1;
  return options;
}

// The sample workload's JSON line for a phase, as kernels/sample_workload.cu prints it.
std::string ProgramLine(int kernels, long long flops, long long bytes) {
  return "{\"phase\":\"stream\",\"kernels\":" + std::to_string(kernels) +
         ",\"memcpys\":0,\"memcpy_bytes\":0,\"memsets\":0,\"flops\":" + std::to_string(flops) +
         ",\"bytes\":" + std::to_string(bytes) + ",\"phase_ns\":1000}\n";
}

}  // namespace

TEST_CASE("gpu checks: counts and the example read a real baseline directory", "[gpu-checks]") {
  REQUIRE_PYTHON_OR_SKIP();
  TempDir dir;
  const fs::path out = dir.path() / "baseline";
  REQUIRE(gpuperf::cli::RunBaseline(FakeBaseline(out, "ok")).exit_code == 0);

  // The fake program records 3 kernels and nothing else; its stdout holds other lines too.
  WriteFile(dir / "right.stdout", "fake stdout line\n" + ProgramLine(3, 0, 0));
  CheckResult right = RunCheck({"counts", dir / "right.stdout", out.string()});
  INFO(right.output);
  CHECK(right.exit_code == 0);
  CHECK(right.output.find("ok   stream: kernels memcpys bytes memsets = [3, 0, 0, 0]") !=
        std::string::npos);

  WriteFile(dir / "wrong.stdout", ProgramLine(4, 0, 0));
  CheckResult wrong = RunCheck({"counts", dir / "wrong.stdout", out.string()});
  INFO(wrong.output);
  CHECK(wrong.exit_code == 1);
  CHECK(wrong.output.find("FAIL stream: kernels memcpys bytes memsets: program says [4, 0, 0, 0], "
                          "trace has [3, 0, 0, 0]") != std::string::npos);

  CheckResult example = RunCheck({"example", out.string(), dir / "examples"});
  INFO(example.output);
  CHECK(example.exit_code == 0);
  CHECK(fs::exists(dir.path() / "examples" / "sample_workload.json"));
  CHECK(fs::exists(dir.path() / "examples" / "baseline.json"));
  CHECK(fs::exists(dir.path() / "examples" / "report.md"));
}

TEST_CASE("gpu checks: findings are looked up in a real report.json", "[gpu-checks]") {
  REQUIRE_PYTHON_OR_SKIP();
  const std::string report =
      std::string(GPUPERF_SOURCE_DIR) + "/tests/golden/kineto-hostile-names/expected.json";
  CHECK(RunCheck({"findings", report, "pageable_async_memcpy", "sync_api"}).exit_code == 0);
  const CheckResult missing = RunCheck({"findings", report, "sync_api", "sync_memcpy"});
  INFO(missing.output);
  CHECK(missing.exit_code == 1);
  CHECK(missing.output.find("ok   finding sync_api") != std::string::npos);
  CHECK(missing.output.find("FAIL finding sync_memcpy missing") != std::string::npos);

  // A report that is not there (gpuperf failed before writing it) is a FAIL line with the reason.
  const CheckResult absent = RunCheck({"findings", "/nonexistent/report.json", "sync_api"});
  INFO(absent.output);
  CHECK(absent.exit_code == 1);
  CHECK(absent.output.rfind("FAIL findings /nonexistent/report.json: FileNotFoundError", 0) == 0);
  CHECK(absent.output.find("Traceback") == std::string::npos);
}

TEST_CASE("gpu checks: the counter pass check reads a real counter-pass baseline", "[gpu-checks]") {
  REQUIRE_PYTHON_OR_SKIP();
  TempDir dir;
  const fs::path out = dir.path() / "baseline";
  auto options = FakeBaseline(out, "ok");
  options.counters.metrics = gpuperf::spool::ExpandMetricList("roofline").metrics;
  options.counters.metrics_list = "roofline";
  options.counters.per_kernel = 2;
  const auto outcome = gpuperf::cli::RunBaseline(options);
  INFO(outcome.message);
  REQUIRE(outcome.exit_code == 0);
  // The fake program's counters: 1000 bytes read + 500 written per profiled launch.
  WriteFile(dir / "near.stdout", ProgramLine(3, 3, 3 * 1450));
  CheckResult near = RunCheck({"counter-pass", out.string(), dir / "near.stdout", "stream"});
  INFO(near.output);
  CHECK(near.exit_code == 0);
  CHECK(near.output.find("2 launches with counters") != std::string::npos);
  CHECK(near.output.find("DRAM bytes 1500 (program 1450)") != std::string::npos);

  WriteFile(dir / "far.stdout", ProgramLine(3, 3, 3 * 1200));
  CheckResult far = RunCheck({"counter-pass", out.string(), dir / "far.stdout", "stream"});
  INFO(far.output);
  CHECK(far.exit_code == 1);
  CHECK(far.output.find("FAIL counter pass stream") != std::string::npos);
}

TEST_CASE("gpu checks: measured ceilings from the production cache writer", "[gpu-checks]") {
  REQUIRE_PYTHON_OR_SKIP();
  TempDir dir;
  auto write_cache = [&](const std::string& probe_json, const std::string& folder) {
    auto measured = gpuperf::io::ceilings::ParseProbeOutput(probe_json);
    REQUIRE(measured.ok());
    fs::create_directories(dir.path() / folder);
    WriteFile(dir.path() / folder / (std::string(gpuperf::testing::kProbeUuid) + ".json"),
              gpuperf::io::ceilings::ToCacheJson(*measured));
  };
  // 4.0 TB/s, 60 / 600 / 500 TFLOP/s: 83%, 90%, 61%, 51% of the H200 datasheet.
  write_cache(gpuperf::testing::ProbeJson(), "good");
  CheckResult good = RunCheck({"ceilings", dir / "good"});
  INFO(good.output);
  CHECK(good.exit_code == 0);
  CHECK(good.output.find("ok   measured ceilings within range") != std::string::npos);

  // A DRAM figure at 21% of the datasheet is a miscount, not a slow GPU.
  write_cache(gpuperf::testing::Replace(gpuperf::testing::ProbeJson(),
                                        "\"bytes_per_s\": 4.0e12, \"bytes_per_launch\": 1.0e11",
                                        "\"bytes_per_s\": 1.0e12, \"bytes_per_launch\": 2.5e10"),
              "low");
  CheckResult low = RunCheck({"ceilings", dir / "low"});
  INFO(low.output);
  CHECK(low.exit_code == 1);
  CHECK(low.output.find("OUT OF [70%, 105%]") != std::string::npos);
}

TEST_CASE("gpu checks: timing runs and the overhead table with its targets", "[gpu-checks]") {
  REQUIRE_PYTHON_OR_SKIP();
  TempDir dir;
  // A stand-in program that prints one phase line per mode with a fixed phase_ns.
  auto timed = [&](const std::string& name, const std::string& lines) {
    const CheckResult result =
        RunCheck({"time", "3", dir / (name + ".json"), "--", "printf", lines});
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
  };
  timed("launch.untraced", "{\"phase\":\"launch\",\"phase_ns\":100000000}\n");
  timed("launch.discard", "{\"phase\":\"launch\",\"phase_ns\":110000000}\n");
  timed("launch.traced", "{\"phase\":\"launch\",\"phase_ns\":115000000}\n");  // floor + 4.5%
  timed("stream.untraced", "{\"phase\":\"stream\",\"phase_ns\":200000000}\n");
  timed("stream.traced", "{\"phase\":\"stream\",\"phase_ns\":210000000}\n");  // + 5%
  timed("torch.untraced", "{\"mode\":\"plain\",\"phase_ns\":100000000}\n");
  timed("torch.profiler", "{\"mode\":\"torch.profiler\",\"phase_ns\":300000000}\n");
  timed("torch.traced", "{\"mode\":\"plain\",\"phase_ns\":150000000}\n");
  // `time` appends, so that run.sh can interleave the modes run by run.
  timed("launch.untraced", "{\"phase\":\"launch\",\"phase_ns\":100000000}\n");
  CHECK(ReadFile(dir / "launch.untraced.json").find("\"runs\": [") != std::string::npos);
  const std::string runs = ReadFile(dir / "launch.untraced.json");
  std::size_t count = 0;
  for (std::size_t at = runs.find("wall_s"); at != std::string::npos;
       at = runs.find("wall_s", at + 1))
    ++count;
  CHECK(count == 6);  // 3 runs, then 3 more

  const CheckResult table = RunCheck({"overhead", dir.path().string()});
  INFO(table.output);
  CHECK(table.exit_code == 0);
  CHECK(table.output.find("  met     launch phase within 10% of CUPTI's floor: +4.5%") !=
        std::string::npos);
  CHECK(table.output.find("  met     below torch.profiler on the PyTorch loop: gpuperf +50.0%, "
                          "torch.profiler +200.0%") != std::string::npos);
  CHECK(table.output.find("  MISSED  stream phase at most 3%: +5.0%") != std::string::npos);
  // Phases that were never timed count as missed, not as absent.
  CHECK(table.output.find("  MISSED  fma phase at most 3%: no data") != std::string::npos);
  CHECK(table.output.find("OVERHEAD TARGETS: 2 of 5 met") != std::string::npos);

  // A program that fails, or prints no phase time, is a failed timing, not a figure.
  const CheckResult failing = RunCheck({"time", "1", dir / "bad.json", "--", "false"});
  CHECK(failing.exit_code == 1);
  const CheckResult silent = RunCheck({"time", "1", dir / "bad.json", "--", "true"});
  INFO(silent.output);
  CHECK(silent.exit_code == 1);
  CHECK(silent.output.find("printed no line with phase_ns") != std::string::npos);
  CHECK_FALSE(fs::exists(dir.path() / "bad.json"));
}

TEST_CASE("gpu checks: the PyTorch checks read real gpuperf outputs", "[gpu-checks]") {
  REQUIRE_PYTHON_OR_SKIP();
  TempDir dir;
  const std::string source(GPUPERF_SOURCE_DIR);
  // torch-gemm on the H200's counters of two cuBLAS products (tests/fixtures/ncu_h200/).
  auto analyzed =
      gpuperf::testing::RunGpuperf({"analyze",
                                    source + "/tests/fixtures/ncu_h200/gemm.counters.csv",
                                    "--gpu",
                                    "H200 SXM 141GB",
                                    "--out",
                                    dir / "gemm",
                                    "--format",
                                    "json",
                                    "--quiet"});
  REQUIRE(analyzed.exit_code == 0);
  auto gemm_line = [](long long flops) {
    return "{\"phase\": \"gemm\", \"dtype\": \"bf16\", \"flops_per_product\": " +
           std::to_string(flops) + ", \"timed_products\": 6, \"tflops\": 600.0}\n";
  };
  WriteFile(dir / "gemm.stdout", gemm_line(2LL * 4096 * 4096 * 4096));
  CheckResult gemm = RunCheck({"torch-gemm", dir / "gemm", dir / "gemm.stdout"});
  INFO(gemm.output);
  CHECK(gemm.exit_code == 0);
  CHECK(gemm.output.find("= 1.0000 x 2MNK (bf16 tensor)") != std::string::npos);
  CHECK(gemm.output.find("ok   tensor FLOPs per product = 2 M N K") != std::string::npos);
  // Had the counter counted multiply-adds, the product would be half: the check must say so.
  WriteFile(dir / "macs.stdout", gemm_line(4LL * 4096 * 4096 * 4096));
  CheckResult macs = RunCheck({"torch-gemm", dir / "gemm", dir / "macs.stdout"});
  INFO(macs.output);
  CHECK(macs.exit_code == 1);
  CHECK(macs.output.find("0.5000 x 2MNK per launch") != std::string::npos);

  // torch-graph: kernels with a graph id in run 1's trace against the program's nodes x replays.
  fs::create_directories(dir.path() / "graph" / "runs" / "run-001");
  std::string events;
  for (int i = 0; i < 5; ++i)
    events += std::string(events.empty() ? "" : ",") +
              "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"add\",\"ts\":" + std::to_string(i) +
              ",\"dur\":1,\"args\":{" + (i > 0 ? "\"graph id\":1" : "") + "}}";
  WriteFile(dir.path() / "graph" / "runs" / "run-001" / "host.json",
            "{\"traceEvents\":[" + events + "]}");
  auto graph_line = [](int replays, double value) {
    return "{\"phase\": \"graph\", \"nodes\": 2, \"replays\": " + std::to_string(replays) +
           ", \"graph_kernels\": " + std::to_string(2 * replays) +
           ", \"add_value\": " + std::to_string(value) + ", \"add_value_expected\": 5.0}\n";
  };
  WriteFile(dir / "graph.stdout", graph_line(2, 5.0));
  CheckResult graph = RunCheck({"torch-graph", dir / "graph", dir / "graph.stdout"});
  INFO(graph.output);
  CHECK(graph.exit_code == 0);
  CHECK(graph.output.find("ok   graph: 4 kernels with a graph id") != std::string::npos);
  WriteFile(dir / "graph-wrong.stdout", graph_line(3, 5.0));
  CHECK(RunCheck({"torch-graph", dir / "graph", dir / "graph-wrong.stdout"}).exit_code == 1);
  WriteFile(dir / "graph-disturbed.stdout", graph_line(2, 4.0));
  CHECK(RunCheck({"torch-graph", dir / "graph", dir / "graph-disturbed.stdout"}).exit_code == 1);

  // torch-steps on the H200 recording of the MLP's 12 NVTX steps (examples/recordings/).
  analyzed = gpuperf::testing::RunGpuperf(
      {"analyze",
       source + "/examples/recordings/h200-torch-mlp/train_step.json.gz",
       "--step-range",
       "^train_step$",
       "--out",
       dir / "train",
       "--format",
       "json",
       "--quiet"});
  REQUIRE(analyzed.exit_code == 0);
  const std::string report = (dir.path() / "train" / "report.json").string();
  CheckResult steps = RunCheck({"torch-steps", report, "12"});
  INFO(steps.output);
  CHECK(steps.exit_code == 0);
  CHECK(steps.output.rfind("ok   train: 12 steps in the report (program: 12)", 0) == 0);
  CHECK(RunCheck({"torch-steps", report, "11"}).exit_code == 1);
}
