// `gpuperf baseline` orchestration with a small non-CUDA program (record_child/fake_app.cc) that
// writes spools the way the injected library does. No GPU: the GPU check and the injection are
// switched off through BaselineOptions' test seams.
#include "gpuperf/import.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/baseline_command.h"
#include "io/spool/spool_model.h"
#include "io/spool/spool_reader.h"
#include "spool/metric_sets.h"
#include "spool/spool_writer.h"
#include "spool_test_support.h"

namespace {

namespace fs = std::filesystem;
using namespace gpuperf;

fs::path TempDir(const std::string& tag) {
  const fs::path dir =
      fs::temp_directory_path() / ("gpuperf-orch-" + tag + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

record::BaselineOptions FakeOptions(const fs::path& out, std::vector<std::string> args) {
  record::BaselineOptions options;
  options.command = {GPUPERF_FAKE_APP};
  options.command.insert(options.command.end(), args.begin(), args.end());
  options.out_dir = out.string();
  options.quiet = true;
  options.check_gpu = false;
  options.inject_library = "none";
  options.measure_overhead = false;  // the untraced runs have their own test
  return options;
}

// FakeOptions with a counter pass of metric list `list`.
record::BaselineOptions CounterOptions(
    const fs::path& out, const std::string& mode, const std::string& list, int warmup, int repeat) {
  auto options = FakeOptions(out, {mode});
  options.warmup = warmup;
  options.repeat = repeat;
  options.counters.metrics = spool::ExpandMetricList(list).metrics;
  options.counters.metrics_list = list;
  return options;
}

nlohmann::json ReadJson(const fs::path& path) {
  std::ifstream file(path);
  return nlohmann::json::parse(file);
}

int CountLines(const fs::path& path, const std::string& only = "") {
  std::ifstream file(path);
  std::string line;
  int n = 0;
  while (std::getline(file, line))
    n += only.empty() || line == only;
  return n;
}

}  // namespace

TEST_CASE("baseline runs warm-ups and measured runs, one trace per run", "[record]") {
  const fs::path dir = TempDir("counts");
  const fs::path counter = dir / "counter";
  setenv("FAKE_APP_COUNTER", counter.c_str(), 1);
  auto options = FakeOptions(dir / "out", {"ok"});
  options.warmup = 2;
  options.repeat = 3;
  const cli::BaselineOutcome outcome = cli::RunBaseline(options);
  unsetenv("FAKE_APP_COUNTER");
  INFO(outcome.message);
  CHECK(outcome.exit_code == 0);
  CHECK(CountLines(counter) == 5);
  const nlohmann::json baseline = ReadJson(dir / "out" / "baseline.json");
  CHECK(baseline["warmup_runs"].size() == 2);
  REQUIRE(baseline["runs"].size() == 3);
  CHECK(baseline["complete"] == true);
  CHECK(baseline["across_runs"]["stop_reason"] == "fixed_count");
  CHECK(baseline["software"]["cuda_runtime_version"].get<std::string>().rfind("13.0 (13000", 0) ==
        0);
  for (const auto& run : baseline["runs"]) {
    CHECK(run["kernel_count"] == 3);
    CHECK(run["incomplete_records"] == 0);
    CHECK(run["graph_launches"] == 0);
    CHECK(run["exit_code"] == 0);
    REQUIRE(run["traces"].size() == 1);
    const std::string trace = run["traces"][0];
    CHECK(fs::exists(dir / "out" / trace));
    // host.pid.json: named by host and pid (no rank variable set here)
    CHECK(trace.find(spool::HostName() + ".") != std::string::npos);
  }
  CHECK(baseline["workload"]["executable_sha256"].get<std::string>().size() == 64);
  CHECK(fs::exists(dir / "out" / "report.md"));
  CHECK_FALSE(fs::exists(dir / "out" / "runs" / "run-001" / "spool"));  // spools removed
  fs::remove_all(dir);
}

TEST_CASE("baseline --step-range: the analysed run's steps bound its window", "[record]") {
  const fs::path dir = TempDir("steps");
  // The fake program's "steps" mode: a start-up kernel, then 4 NVTX ranges "fake_step" 1 ms
  // later, each around one kernel.
  auto options = FakeOptions(dir / "marked", {"steps"});
  options.repeat = 1;
  options.step_range = "^fake_step$";
  const cli::BaselineOutcome marked = cli::RunBaseline(options);
  INFO(marked.message);
  REQUIRE(marked.exit_code == 0);
  const nlohmann::json report = ReadJson(dir / "marked" / "report.json");
  CHECK(report["steps"].size() == 4);
  REQUIRE(report["predictions"]["preroll"].is_object());
  CHECK(report["predictions"]["preroll"]["first_step"] == "fake_step");
  CHECK(report["predictions"]["preroll"]["lead_in_ns"].get<std::int64_t>() > 900'000);
  // Without it the ranges are no steps and the start-up stays in the window.
  options = FakeOptions(dir / "plain", {"steps"});
  options.repeat = 1;
  REQUIRE(cli::RunBaseline(options).exit_code == 0);
  const nlohmann::json plain = ReadJson(dir / "plain" / "report.json");
  CHECK(plain["steps"].empty());
  CHECK(plain["predictions"]["preroll"].is_null());
  fs::remove_all(dir);
}

TEST_CASE("each run's gzip trace file reads back as the Trace of its process's spool", "[record]") {
  const fs::path dir = TempDir("traces");
  auto options = FakeOptions(dir / "out", {"ok"});
  options.warmup = 0;
  options.repeat = 2;
  options.gzip = true;
  options.keep_spool = true;
  const cli::BaselineOutcome outcome = cli::RunBaseline(options);
  INFO(outcome.message);
  REQUIRE(outcome.exit_code == 0);
  const nlohmann::json baseline = ReadJson(dir / "out" / "baseline.json");
  REQUIRE(baseline["runs"].size() == 2);
  for (const auto& run : baseline["runs"]) {
    REQUIRE(run["traces"].size() == 1);
    const fs::path trace = dir / "out" / run["traces"][0].get<std::string>();
    CHECK(trace.extension() == ".gz");
    const fs::path spool = trace.parent_path() / "spool" /
                           (trace.stem().stem().string() + spool::kFileSuffix);  // host.pid
    auto contents = io::ReadSpoolFile(spool.string());
    REQUIRE(contents.ok());
    auto imported = io::ImportTraceFile(trace.string());
    REQUIRE(imported.ok());
    const model::Trace direct = io::SpoolsToTrace({*contents});
    CHECK_FALSE(direct.activities.empty());
    CHECK(testing::TraceLines(*imported) == testing::TraceLines(direct));
  }
  fs::remove_all(dir);
}

TEST_CASE("the tracing overhead is measured by default with untraced runs", "[record]") {
  const fs::path dir = TempDir("overhead");
  const fs::path counter = dir / "counter";
  setenv("FAKE_APP_COUNTER", counter.c_str(), 1);
  auto options = FakeOptions(dir / "out", {"ok"});
  options.measure_overhead = record::BaselineOptions{}.measure_overhead;  // the default
  options.warmup = 1;
  options.repeat = 4;
  const cli::BaselineOutcome outcome = cli::RunBaseline(options);
  unsetenv("FAKE_APP_COUNTER");
  INFO(outcome.message);
  REQUIRE(outcome.exit_code == 0);
  // As many untraced runs as measured ones, and they run without the recorder's environment.
  CHECK(CountLines(counter, "traced") == 5);
  CHECK(CountLines(counter, "untraced") == 4);
  const nlohmann::json overhead = ReadJson(dir / "out" / "baseline.json")["overhead"];
  CHECK(overhead["untraced_wall_time"]["count"] == 4);
  REQUIRE(overhead["tracing_overhead_relative"].is_number());
  const double traced = overhead["traced_median_s"],
               untraced = overhead["untraced_wall_time"]["median"];
  CHECK(overhead["tracing_overhead_relative"].get<double>() ==
        Approx(traced / untraced - 1).epsilon(1e-12));
  std::ifstream markdown(dir / "out" / "report.md");
  const std::string text{std::istreambuf_iterator<char>(markdown), {}};
  CHECK(text.find("Tracing overhead: **") != std::string::npos);

  // --no-overhead: no untraced run, and both outputs say why.
  options.measure_overhead = false;
  options.out_dir = (dir / "out2").string();
  REQUIRE(cli::RunBaseline(options).exit_code == 0);
  CHECK(ReadJson(dir / "out2" / "baseline.json")["overhead"]["tracing_overhead"] ==
        "not measured: --no-overhead was given");
  fs::remove_all(dir);
}

TEST_CASE("the program's exit code is recorded, not returned", "[record]") {
  const fs::path dir = TempDir("exit");
  auto options = FakeOptions(dir / "out", {"ok", "7"});
  options.warmup = 0;
  options.repeat = 1;
  const cli::BaselineOutcome outcome = cli::RunBaseline(options);
  CHECK(outcome.exit_code == 0);
  const nlohmann::json baseline = ReadJson(dir / "out" / "baseline.json");
  CHECK(baseline["runs"][0]["exit_code"] == 7);
  fs::remove_all(dir);
}

TEST_CASE("a program killed by a signal is marked partial with the signal", "[record]") {
  const fs::path dir = TempDir("kill");
  auto options = FakeOptions(dir / "out", {"kill"});
  options.warmup = 0;
  options.repeat = 1;
  const cli::BaselineOutcome outcome = cli::RunBaseline(options);
  CHECK(outcome.exit_code == cli::kExitIncomplete);
  const nlohmann::json baseline = ReadJson(dir / "out" / "baseline.json");
  CHECK(baseline["complete"] == false);
  const auto& run = baseline["runs"][0];
  CHECK(run["signal"] == SIGKILL);
  CHECK(run["exit_code"].is_null());
  CHECK(run["complete"] == false);
  CHECK(run["kernel_count"] == 2);  // what was written before the kill is kept
  fs::remove_all(dir);
}

TEST_CASE("forked processes and ranks each get their own file", "[record]") {
  const fs::path dir = TempDir("fork");
  setenv("OMPI_COMM_WORLD_RANK", "5", 1);
  auto options = FakeOptions(dir / "out", {"fork"});
  options.warmup = 0;
  options.repeat = 1;
  const cli::BaselineOutcome outcome = cli::RunBaseline(options);
  unsetenv("OMPI_COMM_WORLD_RANK");
  CHECK(outcome.exit_code == 0);
  // Under a launcher the rank writes into its own directory (record_multirank_test.cc).
  const fs::path rank_dir = dir / "out" / spool::RankDirectoryName(5, spool::HostName());
  CHECK(outcome.out_dir == rank_dir.string());
  const nlohmann::json baseline = ReadJson(rank_dir / "baseline.json");
  const auto& run = baseline["runs"][0];
  CHECK(run["processes"] == 2);
  CHECK(run["kernel_count"] == 2);
  REQUIRE(run["traces"].size() == 2);
  for (const auto& trace : run["traces"]) {
    CHECK(trace.get<std::string>().ends_with(".r5.json"));
  }
  fs::remove_all(dir);
}

TEST_CASE("the program's stdout passes through untouched", "[record]") {
  const fs::path dir = TempDir("stdout");
  const fs::path captured = dir / "stdout.txt";
  std::fflush(stdout);
  const int saved = dup(STDOUT_FILENO);
  const int file = open(captured.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  dup2(file, STDOUT_FILENO);
  auto options = FakeOptions(dir / "out", {"ok"});
  options.warmup = 1;
  options.repeat = 2;
  const cli::BaselineOutcome outcome = cli::RunBaseline(options);
  std::fflush(stdout);
  dup2(saved, STDOUT_FILENO);
  close(saved);
  close(file);
  CHECK(outcome.exit_code == 0);
  std::ifstream in(captured);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str() == "fake stdout line\nfake stdout line\nfake stdout line\n");
  fs::remove_all(dir);
}

TEST_CASE("a program that cannot start fails without leaving an output directory", "[record]") {
  const fs::path dir = TempDir("missing");
  auto options = FakeOptions(dir / "out", {});
  options.command = {"/nonexistent/program"};
  const cli::BaselineOutcome outcome = cli::RunBaseline(options);
  CHECK(outcome.exit_code == 1);
  CHECK(outcome.message.find("cannot run '/nonexistent/program'") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "out"));
  CHECK(fs::is_empty(dir));  // its staging directory (DIR.tmp-<pid>@<host>.XXXXXX) removed too
  fs::remove_all(dir);
}

// The names of `dir`'s entries.
std::set<std::string> EntryNames(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir))
    names.insert(entry.path().filename().string());
  return names;
}

// This host's name as a staging directory's name holds it (util/staging_area.cc).
std::string StagingHost() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0 || host[0] == '\0')
    return "localhost";
  std::string name = host;
  std::replace(name.begin(), name.end(), '/', '_');
  std::replace(name.begin(), name.end(), '@', '_');
  return name;
}

TEST_CASE("the runs are staged in a private directory beside the output, gone after the commit",
          "[record]") {
  const fs::path dir = TempDir("staging");
  const fs::path note = TempDir("staging-note") / "note.txt";
  ::setenv("GPUPERF_FAKE_NOTE", note.c_str(), 1);  // the fake program notes its spool directory
  auto options = FakeOptions(dir / "out", {"ok"});
  options.warmup = 0;
  options.repeat = 1;
  const cli::BaselineOutcome first = cli::RunBaseline(options);
  options.force = true;  // the second one replaces the first
  const cli::BaselineOutcome second = cli::RunBaseline(options);
  ::unsetenv("GPUPERF_FAKE_NOTE");
  CHECK(first.exit_code == 0);
  CHECK(second.exit_code == 0);
  std::ifstream in(note);
  std::vector<fs::path> staged;
  std::string spool, mode;
  while (in >> spool >> mode) {
    // DIR.tmp-<pid>@<host>.XXXXXX/runs/run-001/spool, 0700 while the program runs.
    staged.push_back(fs::path(spool).parent_path().parent_path().parent_path());
    CHECK(mode == "700");
  }
  REQUIRE(staged.size() == 2);
  const std::string prefix = "out.tmp-" + std::to_string(getpid()) + "@" + StagingHost() + ".";
  for (const fs::path& path : staged) {
    CHECK(path.parent_path() == dir);
    CHECK(path.filename().string().rfind(prefix, 0) == 0);
    CHECK(path.filename().string().size() == prefix.size() + 6);  // mkdtemp's XXXXXX
    CHECK_FALSE(fs::exists(path));
  }
  CHECK(staged[0] != staged[1]);
  CHECK(EntryNames(dir) == std::set<std::string>{"out"});
  // The baseline itself has the mode of a new directory, not the staging directory's 0700.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  struct stat info {};
  REQUIRE(::stat((dir / "out").c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == (0777 & ~mask));
  fs::remove_all(dir);
  fs::remove_all(note.parent_path());
}

TEST_CASE("a dead recorder's staging directory is removed by the next recording", "[record]") {
  const fs::path dir = TempDir("stale");
  const pid_t dead = fork();
  if (dead == 0)
    _exit(0);
  int status = 0;
  REQUIRE(waitpid(dead, &status, 0) == dead);
  const fs::path stale =
      dir / ("out.tmp-" + std::to_string(dead) + "@" + StagingHost() + ".Ab3xYz");
  const fs::path alive =
      dir / ("out.tmp-" + std::to_string(getppid()) + "@" + StagingHost() + ".Qr7sTu");
  fs::create_directories(stale / "runs" / "run-001" / "spool");
  fs::create_directories(alive);
  auto options = FakeOptions(dir / "out", {"ok"});
  options.warmup = 0;
  options.repeat = 1;
  CHECK(cli::RunBaseline(options).exit_code == 0);
  CHECK_FALSE(fs::exists(stale));
  CHECK(fs::exists(alive));  // its owner still runs: kept
  CHECK(EntryNames(dir) == std::set<std::string>{"out", alive.filename().string()});
  fs::remove_all(dir);
}

TEST_CASE("Repeat auto stops and says why", "[record]") {
  const fs::path dir = TempDir("auto");
  auto options = FakeOptions(dir / "out", {"ok"});
  options.warmup = 0;
  options.repeat = 0;
  options.auto_repeat.max_runs = 8;
  options.auto_repeat.time_budget_s = 60;
  options.auto_repeat.target_relative_width = 1e-9;  // unreachable: the cap must end it
  const cli::BaselineOutcome outcome = cli::RunBaseline(options);
  CHECK(outcome.exit_code == 0);
  const nlohmann::json baseline = ReadJson(dir / "out" / "baseline.json");
  CHECK(baseline["runs"].size() == 8);
  CHECK(baseline["across_runs"]["stop_reason"] == "max_runs");
  CHECK(baseline["across_runs"]["median_95_interval"].is_object());
  fs::remove_all(dir);
}

TEST_CASE("baseline --metrics: a counter pass after the timed runs, joined to the analysis",
          "[record][counters]") {
  const fs::path dir = TempDir("counters");
  const fs::path counter = dir / "counter";
  setenv("FAKE_APP_COUNTER", counter.c_str(), 1);
  auto options = CounterOptions(dir / "out", "ok", "memory", 1, 2);
  options.counters.per_kernel = 2;
  const cli::BaselineOutcome outcome = cli::RunBaseline(options);
  unsetenv("FAKE_APP_COUNTER");
  INFO(outcome.message);
  CHECK(outcome.exit_code == 0);
  CHECK(CountLines(counter) == 4);  // 1 warm-up + 2 measured + 1 counter pass
  const nlohmann::json baseline = ReadJson(dir / "out" / "baseline.json");
  CHECK(baseline["schema_version"] == "1.3.0");
  const auto& pass = baseline["counter_pass"];
  CHECK(pass["metrics_requested"] == "memory");
  CHECK(pass["metrics"].size() == 4);
  CHECK(pass["kernels_selected"] == nlohmann::json::array({"fake_kernel(float*)"}));
  CHECK(pass["launches_profiled"] == 2);
  CHECK(pass["joined"] == 2);
  CHECK(pass["problem"].is_null());
  REQUIRE(pass["files"].size() == 1);
  CHECK(fs::exists(dir / "out" / pass["files"][0].get<std::string>()));
  CHECK_FALSE(fs::exists(dir / "out" / "counters" / "spool"));  // kept only with --keep-spool
  // The analysed run's kernel gets a measured roofline from two joined launches: 1500 bytes each.
  const nlohmann::json report = ReadJson(dir / "out" / "report.json");
  REQUIRE(report["kernels"].size() == 1);
  const auto& kernel = report["kernels"][0];
  CHECK(kernel["name"] == "fake_kernel(float*)");
  REQUIRE(kernel.contains("roofline"));
  CHECK(kernel["roofline"]["evidence"] == "measured");
  CHECK(kernel["roofline"]["dram_bytes"].get<double>() == Approx(3000));
  std::ifstream markdown(dir / "out" / "report.md");
  std::stringstream text;
  text << markdown.rdbuf();
  CHECK(text.str().find("Counter pass (`--metrics memory`") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("baseline --metrics: a counter pass that profiles nothing says why, exit 4",
          "[record][counters]") {
  const fs::path dir = TempDir("nocounters");
  auto options = CounterOptions(dir / "out", "nocounters", "roofline", 0, 1);
  const cli::BaselineOutcome outcome = cli::RunBaseline(options);
  CHECK(outcome.exit_code == cli::kExitIncomplete);
  CHECK(outcome.message.find("CUPTI_ERROR_INSUFFICIENT_PRIVILEGES") != std::string::npos);
  const nlohmann::json baseline = ReadJson(dir / "out" / "baseline.json");
  CHECK(baseline["complete"] == false);
  CHECK(baseline["counter_pass"]["joined"] == 0);
  CHECK(baseline["counter_pass"]["statuses"][0]["level"] == "error");
  // The timed run is analysed all the same, without counters.
  const nlohmann::json report = ReadJson(dir / "out" / "report.json");
  CHECK_FALSE(report["kernels"][0].contains("roofline"));
  fs::remove_all(dir);
}

TEST_CASE("baseline --metrics: a counter pass that hangs is killed, its counters kept",
          "[record][counters]") {
  const fs::path dir = TempDir("hangcounters");
  auto options = CounterOptions(dir / "out", "hang", "memory", 0, 1);
  options.counters.timeout_s = 1;
  const auto start = std::chrono::steady_clock::now();
  const cli::BaselineOutcome outcome = cli::RunBaseline(options);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));
  INFO(outcome.message);
  CHECK(outcome.exit_code == 0);  // the counters it profiled are valid and joined
  const nlohmann::json baseline = ReadJson(dir / "out" / "baseline.json");
  const auto& pass = baseline["counter_pass"];
  CHECK(pass["timed_out"] == true);
  CHECK(pass["timeout_s"] == 1.0);
  CHECK(pass["joined"] == 3);
  bool warned = false;
  for (const auto& problem : baseline["problems"])
    warned |= problem.get<std::string>().find("did not finish within 1 s") != std::string::npos;
  CHECK(warned);
  fs::remove_all(dir);
}

TEST_CASE("RunChild: a deadline sends SIGTERM, then SIGKILL to a program that ignores it",
          "[record]") {
  record::ChildSpec polite;
  polite.argv = {"sleep", "30"};
  polite.timeout_ms = 200;
  auto ended = record::RunChild(polite);
  REQUIRE(ended.ok());
  CHECK(ended->timed_out);
  CHECK(ended->signaled);
  CHECK(ended->signal == SIGTERM);
  CHECK(ended->wall_ns < 3'000'000'000);

  record::ChildSpec stubborn;
  stubborn.argv = {"sh", "-c", "trap '' TERM; sleep 30"};
  stubborn.timeout_ms = 100;
  auto killed = record::RunChild(stubborn);
  REQUIRE(killed.ok());
  CHECK(killed->timed_out);
  CHECK(killed->signal == SIGKILL);

  record::ChildSpec quick;
  quick.argv = {"true"};
  quick.timeout_ms = 10'000;
  auto fine = record::RunChild(quick);
  REQUIRE(fine.ok());
  CHECK_FALSE(fine->timed_out);
  CHECK(fine->exit_code == 0);
}
