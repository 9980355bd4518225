// Multi-rank recording (docs/recorder.md, "Multi-rank jobs"): which rank a process is, where it
// writes, which GPU it is taken to use, and that concurrent `gpuperf baseline` processes sharing
// --out never write over each other. The concurrent cases fork real processes that run the
// orchestration with the fake program (record_child/fake_app.cc); no GPU is needed.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>

#include "cli/baseline_command.h"
#include "record/device_in_use.h"
#include "record/output_lock.h"
#include "spool/job_environment.h"
#include "spool/spool_writer.h"

namespace {

namespace fs = std::filesystem;
using namespace gpuperf;
using spool::Launcher;

using Env = std::map<std::string, std::string>;

spool::JobInfo Detect(const Env& env) {
  return spool::DetectJob([&env](const char* name) -> const char* {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

constexpr const char* kLauncherVariables[] = {"TORCHELASTIC_RUN_ID",
                                              "RANK",
                                              "LOCAL_RANK",
                                              "WORLD_SIZE",
                                              "LOCAL_WORLD_SIZE",
                                              "OMPI_COMM_WORLD_RANK",
                                              "OMPI_COMM_WORLD_LOCAL_RANK",
                                              "OMPI_COMM_WORLD_SIZE",
                                              "PMIX_RANK",
                                              "PMI_RANK",
                                              "PMI_SIZE",
                                              "MV2_COMM_WORLD_RANK",
                                              "SLURM_PROCID",
                                              "SLURM_STEP_ID",
                                              "SLURM_STEPID"};

void ClearLauncherEnvironment() {
  for (const char* name : kLauncherVariables)
    unsetenv(name);
}

fs::path TempDir(const std::string& tag) {
  const fs::path dir =
      fs::temp_directory_path() / ("gpuperf-ranks-" + tag + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

record::BaselineOptions Options(const fs::path& out, std::vector<std::string> command) {
  record::BaselineOptions options;
  options.command = std::move(command);
  options.out_dir = out.string();
  options.quiet = true;
  options.check_gpu = false;
  options.inject_library = "none";
  options.warmup = 1;
  options.repeat = 3;
  return options;
}

// Runs `body` in a forked process; its return value is the exit status.
template <typename Body>
pid_t Spawn(Body body) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    int code = 99;
    try {
      code = body();
    } catch (...) {
    }
    _exit(code);
  }
  return pid;
}

// The exit status, 128 + signal when killed; -1 (and the child killed) after 60 s.
int WaitFor(pid_t pid) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool WaitForFile(const fs::path& path) {
  for (int i = 0; i < 1000 && !fs::exists(path); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  return fs::exists(path);
}

std::set<std::string> Entries(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir))
    names.insert(entry.path().filename().string());
  return names;
}

nlohmann::json ReadJson(const fs::path& path) {
  std::ifstream file(path);
  return nlohmann::json::parse(file);
}

}  // namespace

TEST_CASE("DetectJob reads each launcher's variables", "[record]") {
  SECTION("no launcher") {
    const auto job = Detect({});
    CHECK_FALSE(job.has_rank());
    CHECK(job.launcher == Launcher::kNone);
    CHECK(job.world_size == -1);
    CHECK(std::string(spool::ToString(job.launcher)).empty());
  }
  SECTION("Open MPI") {
    const auto job = Detect({{"OMPI_COMM_WORLD_RANK", "3"},
                             {"OMPI_COMM_WORLD_LOCAL_RANK", "1"},
                             {"OMPI_COMM_WORLD_SIZE", "8"},
                             {"OMPI_COMM_WORLD_LOCAL_SIZE", "4"}});
    CHECK(job.launcher == Launcher::kOpenMpi);
    CHECK(std::string(spool::ToString(job.launcher)) == "openmpi");
    CHECK(job.rank == 3);
    CHECK(job.local_rank == 1);
    CHECK(job.world_size == 8);
    CHECK(job.local_size == 4);
    CHECK(job.rank_variable == "OMPI_COMM_WORLD_RANK");
  }
  SECTION("srun") {
    Env env = {{"SLURM_PROCID", "5"},
               {"SLURM_STEP_ID", "0"},
               {"SLURM_LOCALID", "1"},
               {"SLURM_NTASKS", "14"},
               {"SLURM_STEP_TASKS_PER_NODE", "4(x3),2"},
               {"SLURM_NODEID", "3"}};
    auto job = Detect(env);
    CHECK(job.launcher == Launcher::kSlurm);
    CHECK(job.rank == 5);
    CHECK(job.local_rank == 1);
    CHECK(job.world_size == 14);
    CHECK(job.local_size == 2);  // node 3 is the ",2"
    env["SLURM_NODEID"] = "1";
    CHECK(Detect(env).local_size == 4);
    env.erase("SLURM_NTASKS");
    env["SLURM_STEP_NUM_TASKS"] = "14";
    CHECK(Detect(env).world_size == 14);
  }
  SECTION("a Slurm batch script without srun is one process") {
    CHECK_FALSE(Detect({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "8"}}).has_rank());
  }
  SECTION("srun starting the ranks through its PMI plugin is Slurm") {
    const Env slurm = {{"SLURM_PROCID", "5"}, {"SLURM_STEP_ID", "2"}, {"SLURM_NTASKS", "8"}};
    Env pmix = slurm;
    pmix["PMIX_RANK"] = "5";
    CHECK(Detect(pmix).launcher == Launcher::kSlurm);
    Env pmi2 = slurm;
    pmi2["PMI_RANK"] = "5";
    pmi2["PMI_SIZE"] = "8";
    CHECK(Detect(pmi2).launcher == Launcher::kSlurm);
    CHECK(Detect(pmi2).rank == 5);
  }
  SECTION("mpiexec (Hydra) under srun: the PMI rank wins over the proxy's SLURM_PROCID") {
    const auto job = Detect({{"SLURM_PROCID", "1"},
                             {"SLURM_STEP_ID", "0"},
                             {"SLURM_NTASKS", "2"},
                             {"PMI_RANK", "6"},
                             {"PMI_SIZE", "8"},
                             {"MPI_LOCALRANKID", "2"},
                             {"MPI_LOCALNRANKS", "4"}});
    CHECK(job.launcher == Launcher::kPmi);
    CHECK(std::string(spool::ToString(job.launcher)) == "pmi");
    CHECK(job.rank == 6);
    CHECK(job.world_size == 8);
    CHECK(job.local_rank == 2);
    CHECK(job.local_size == 4);
    // Same rank number by chance but a different world size: still Hydra's.
    CHECK(Detect({{"SLURM_PROCID", "0"},
                  {"SLURM_STEP_ID", "0"},
                  {"SLURM_NTASKS", "2"},
                  {"PMI_RANK", "0"},
                  {"PMI_SIZE", "8"}})
              .launcher == Launcher::kPmi);
  }
  SECTION("MVAPICH") {
    const auto job = Detect({{"MV2_COMM_WORLD_RANK", "2"},
                             {"MV2_COMM_WORLD_SIZE", "4"},
                             {"MV2_COMM_WORLD_LOCAL_RANK", "0"}});
    CHECK(job.launcher == Launcher::kPmi);
    CHECK(job.rank == 2);
    CHECK(job.world_size == 4);
    CHECK(job.local_rank == 0);
  }
  SECTION("torchrun, also when started by srun one agent per node") {
    const auto job = Detect({{"TORCHELASTIC_RUN_ID", "none"},
                             {"RANK", "9"},
                             {"LOCAL_RANK", "1"},
                             {"WORLD_SIZE", "16"},
                             {"LOCAL_WORLD_SIZE", "8"},
                             {"SLURM_PROCID", "1"},
                             {"SLURM_STEP_ID", "0"},
                             {"OMPI_COMM_WORLD_RANK", "1"}});
    CHECK(job.launcher == Launcher::kTorchrun);
    CHECK(std::string(spool::ToString(job.launcher)) == "torchrun");
    CHECK(job.rank == 9);
    CHECK(job.local_rank == 1);
    CHECK(job.world_size == 16);
    CHECK(job.local_size == 8);
  }
  SECTION("torchrun-style RANK alone comes last") {
    const Env plain = {{"RANK", "4"}, {"LOCAL_RANK", "0"}, {"WORLD_SIZE", "8"}};
    CHECK(Detect(plain).launcher == Launcher::kTorchrun);
    CHECK(Detect(plain).rank == 4);
    Env under_srun = plain;
    under_srun["SLURM_PROCID"] = "2";
    under_srun["SLURM_STEP_ID"] = "0";
    CHECK(Detect(under_srun).launcher == Launcher::kSlurm);
    CHECK(Detect(under_srun).rank == 2);
  }
  SECTION("precedence: Open MPI, then PMIx, PMI, MVAPICH") {
    Env env = {{"OMPI_COMM_WORLD_RANK", "1"},
               {"PMIX_RANK", "2"},
               {"PMI_RANK", "3"},
               {"MV2_COMM_WORLD_RANK", "4"}};
    CHECK(Detect(env).rank == 1);
    env.erase("OMPI_COMM_WORLD_RANK");
    CHECK(Detect(env).rank_variable == "PMIX_RANK");
    env.erase("PMIX_RANK");
    CHECK(Detect(env).rank == 3);
    env.erase("PMI_RANK");
    CHECK(Detect(env).rank == 4);
  }
  SECTION("values that are not non-negative integers are skipped") {
    for (const char* bad : {"", "x", "-1", "3a", "99999999999999999999999"}) {
      INFO(bad);
      const auto job = Detect({{"OMPI_COMM_WORLD_RANK", bad}, {"PMI_RANK", "7"}});
      CHECK(job.rank == 7);
      CHECK(job.launcher == Launcher::kPmi);
    }
    CHECK(Detect({{"OMPI_COMM_WORLD_RANK", "2"}, {"OMPI_COMM_WORLD_SIZE", "many"}}).world_size ==
          -1);
  }
}

TEST_CASE("the recorder and the injected library read the same rank", "[record]") {
  ClearLauncherEnvironment();
  CHECK(spool::RankFromEnvironment() == -1);
  setenv("SLURM_PROCID", "1", 1);
  setenv("SLURM_STEP_ID", "0", 1);
  setenv("PMI_RANK", "6", 1);
  CHECK(spool::RankFromEnvironment() == spool::DetectJob().rank);
  CHECK(spool::RankFromEnvironment() == 6);
  ClearLauncherEnvironment();
}

TEST_CASE("rank directories are zero-padded and safe from hostile host names", "[record]") {
  CHECK(spool::RankDirectoryName(3, "node1") == "rank-00003-node1");
  CHECK(spool::RankDirectoryName(0, "gpu-a_7") == "rank-00000-gpu-a_7");
  CHECK(spool::RankDirectoryName(123456, "n") == "rank-123456-n");
  CHECK(spool::RankDirectoryName(12, "node1.cluster.example.org") == "rank-00012-node1");
  CHECK(spool::RankDirectoryName(1, "a/b c") == "rank-00001-a_b_c");
  CHECK(spool::RankDirectoryName(1, "x\n;rm -rf *") == "rank-00001-x__rm_-rf__");
  CHECK(spool::RankDirectoryName(1, "") == "rank-00001-unknown-host");
  CHECK(spool::RankDirectoryName(1, "../../etc") == "rank-00001-unknown-host");
  CHECK(spool::RankDirectoryName(1, "/") == "rank-00001-_");
  CHECK(spool::RankDirectoryName(1, std::string(200, 'h')) == "rank-00001-" + std::string(63, 'h'));
  const std::string with_nul("ab\0cd", 5);
  CHECK(spool::RankDirectoryName(1, with_nul) == "rank-00001-ab_cd");
  for (const char* host : {"..", ".", "a/../../b", "\xff\xfe", "-rf", "node 1/2"}) {
    const std::string name = spool::RankDirectoryName(7, host);
    INFO(name);
    CHECK(name.find('/') == std::string::npos);
    CHECK(name.find("..") == std::string::npos);
    CHECK(fs::path(name).filename() == name);
  }
  spool::JobInfo none;
  CHECK(record::RankOutputDirectory("/o/base", none, "node1") == "/o/base");
  spool::JobInfo ranked;
  ranked.rank = 2;
  CHECK(record::RankOutputDirectory("/o/base", ranked, "node1.x") == "/o/base/rank-00002-node1");
}

TEST_CASE("the device a rank uses follows CUDA_VISIBLE_DEVICES and the local rank", "[record]") {
  spool::JobInfo job;
  CHECK(record::SelectDeviceInUse(0, job).ordinal == -1);
  CHECK(record::SelectDeviceInUse(1, job).ordinal == 0);
  CHECK(record::SelectDeviceInUse(8, job).ordinal == 0);  // CUDA's default without a rank
  job.rank = 11;
  job.local_rank = 3;
  CHECK(record::SelectDeviceInUse(1, job).ordinal == 0);  // launcher narrowed the devices
  const record::DeviceInUse by_local = record::SelectDeviceInUse(8, job);
  CHECK(by_local.ordinal == 3);
  CHECK(by_local.selected_by.find("local rank 3") != std::string::npos);
  CHECK(record::SelectDeviceInUse(2, job).ordinal == -1);  // more ranks than devices: unknown
}

TEST_CASE("two ranks recording concurrently into one --out get separate complete directories",
          "[record]") {
  const fs::path dir = TempDir("concurrent");
  const fs::path out = dir / "job";
  int gate[2];
  REQUIRE(pipe(gate) == 0);
  std::vector<pid_t> ranks;
  for (int rank = 0; rank < 2; ++rank) {
    ranks.push_back(Spawn([&, rank] {
      close(gate[1]);
      char byte = 0;
      [[maybe_unused]] const ssize_t n = read(gate[0], &byte, 1);  // both start together
      ClearLauncherEnvironment();
      setenv("OMPI_COMM_WORLD_RANK", std::to_string(rank).c_str(), 1);
      setenv("OMPI_COMM_WORLD_LOCAL_RANK", std::to_string(rank).c_str(), 1);
      setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
      auto options = Options(out, {GPUPERF_FAKE_APP, "ok"});
      options.repeat = 4;
      return cli::RunBaseline(options).exit_code;
    }));
  }
  close(gate[0]);
  close(gate[1]);  // opens the gate
  for (const pid_t pid : ranks)
    CHECK(WaitFor(pid) == 0);
  const std::string host = spool::HostName();
  // Exactly the two rank directories: no shared baseline.json, no staging or lock left behind.
  CHECK(Entries(out) == std::set<std::string>{spool::RankDirectoryName(0, host),
                                              spool::RankDirectoryName(1, host)});
  CHECK(Entries(dir) == std::set<std::string>{"job"});
  for (int rank = 0; rank < 2; ++rank) {
    const fs::path rank_dir = out / spool::RankDirectoryName(rank, host);
    INFO(rank_dir);
    REQUIRE(fs::exists(rank_dir / "baseline.json"));
    CHECK(fs::exists(rank_dir / "report.md"));
    CHECK(fs::exists(rank_dir / "report.json"));
    const nlohmann::json baseline = ReadJson(rank_dir / "baseline.json");
    CHECK(baseline["schema_version"] == "1.3.0");
    CHECK(baseline["complete"] == true);
    const auto& job = baseline["job"];
    CHECK(job["rank"] == rank);
    CHECK(job["local_rank"] == rank);
    CHECK(job["world_size"] == 2);
    CHECK(job["launcher"] == "openmpi");
    CHECK(job["rank_variable"] == "OMPI_COMM_WORLD_RANK");
    CHECK(job["host"].is_string());
    CHECK(baseline["hardware"]["device_in_use"]["ordinal"].is_null());  // GPU check skipped
    CHECK(baseline["hardware"].contains("state_before"));
    REQUIRE(baseline["runs"].size() == 4);
    for (const auto& run : baseline["runs"]) {
      CHECK(run["kernel_count"] == 3);
      REQUIRE(run["traces"].size() == 1);
      const std::string trace = run["traces"][0];
      CHECK(trace.ends_with(".r" + std::to_string(rank) + ".json"));
      CHECK(fs::exists(rank_dir / trace));
    }
  }
  fs::remove_all(dir);
}

TEST_CASE("without a launcher the layout is unchanged and the job is null", "[record]") {
  ClearLauncherEnvironment();
  const fs::path dir = TempDir("single");
  const cli::BaselineOutcome outcome =
      cli::RunBaseline(Options(dir / "out", {GPUPERF_FAKE_APP, "ok"}));
  INFO(outcome.message);
  CHECK(outcome.exit_code == 0);
  CHECK(outcome.out_dir == (dir / "out").string());
  const nlohmann::json baseline = ReadJson(dir / "out" / "baseline.json");
  for (const char* key : {"rank", "local_rank", "world_size", "launcher"})
    CHECK(baseline["job"][key].is_null());
  CHECK(baseline["job"]["host"].is_string());
  CHECK(Entries(dir) == std::set<std::string>{"out"});  // the lock is gone
  fs::remove_all(dir);
}

TEST_CASE("a rank refuses a --out that holds a single-process baseline", "[record]") {
  const fs::path dir = TempDir("mixed");
  fs::create_directories(dir / "out");
  std::ofstream(dir / "out" / "baseline.json") << "{}\n";
  ClearLauncherEnvironment();
  setenv("PMI_RANK", "1", 1);
  const cli::BaselineOutcome outcome =
      cli::RunBaseline(Options(dir / "out", {GPUPERF_FAKE_APP, "ok"}));
  ClearLauncherEnvironment();
  CHECK(outcome.exit_code == 1);
  CHECK(outcome.message.find("single-process baseline") != std::string::npos);
  CHECK(Entries(dir / "out") == std::set<std::string>{"baseline.json"});
  fs::remove_all(dir);
}

TEST_CASE("a second gpuperf with the same --out fails on the lock and touches nothing",
          "[record]") {
  ClearLauncherEnvironment();
  const fs::path dir = TempDir("lock");
  const fs::path out = dir / "out";
  const fs::path lock = dir / "out.lock";
  // The first one: a slow program, so that the second starts while it records.
  const pid_t first = Spawn([&] {
    auto options = Options(out, {"/bin/sleep", "1"});
    options.warmup = 0;
    options.repeat = 1;
    return cli::RunBaseline(options).exit_code;
  });
  REQUIRE(WaitForFile(lock));
  const cli::BaselineOutcome second = cli::RunBaseline(Options(out, {GPUPERF_FAKE_APP, "ok"}));
  CHECK(second.exit_code == 1);
  CHECK(second.message.find(out.string() + " is being recorded by another gpuperf (pid " +
                            std::to_string(first)) == 0);
  CHECK(second.message.find('\n') == std::string::npos);
  CHECK(second.out_dir.empty());
  CHECK(fs::exists(lock));  // the first one's lock stays
  const std::string ours = "out.tmp-" + std::to_string(getpid()) + "@";
  for (const auto& entry : fs::directory_iterator(dir))  // refused before staging anything
    CHECK(entry.path().filename().string().rfind(ours, 0) != 0);
  CHECK(WaitFor(first) == 0);
  CHECK(ReadJson(out / "baseline.json")["complete"] == true);
  CHECK(Entries(dir) == std::set<std::string>{"out"});  // lock removed, no staging left
  fs::remove_all(dir);
}

TEST_CASE("a lock left by a dead gpuperf is reported as stale", "[record]") {
  ClearLauncherEnvironment();
  const fs::path dir = TempDir("stale");
  const pid_t dead = Spawn([] { return 0; });
  REQUIRE(WaitFor(dead) == 0);
  std::ofstream(dir / "out.lock") << dead << " " << spool::HostName() << "\n";
  const cli::BaselineOutcome outcome =
      cli::RunBaseline(Options(dir / "out", {GPUPERF_FAKE_APP, "ok"}));
  CHECK(outcome.exit_code == 1);
  CHECK(outcome.message.find("stale lock") != std::string::npos);
  CHECK(outcome.message.find((dir / "out.lock").string()) != std::string::npos);
  CHECK(Entries(dir) == std::set<std::string>{"out.lock"});
  fs::remove_all(dir);
}

TEST_CASE("the lock file is removed when gpuperf is killed by SIGTERM", "[record]") {
  const fs::path dir = TempDir("signal");
  const fs::path lock = dir / "out.lock";
  int ready[2];
  REQUIRE(pipe(ready) == 0);
  const pid_t holder = Spawn([&] {
    signal(SIGTERM, SIG_DFL);  // as in gpuperf, not the test runner's handler
    record::OutputLock output_lock;
    if (!output_lock.Acquire((dir / "out").string()))
      return 1;
    const char byte = 1;
    [[maybe_unused]] const ssize_t n = write(ready[1], &byte, 1);
    pause();
    return 2;
  });
  close(ready[1]);
  char byte = 0;
  REQUIRE(read(ready[0], &byte, 1) == 1);
  close(ready[0]);
  CHECK(fs::exists(lock));
  kill(holder, SIGTERM);
  CHECK(WaitFor(holder) == 128 + SIGTERM);  // still dies of the signal
  CHECK_FALSE(fs::exists(lock));
  fs::remove_all(dir);
}
