// A stand-in for a CUDA program in the recorder's orchestration tests (no GPU needed). It writes
// what the injected library would write: a spool in $GPUPERF_OUT_DIR named by host, pid and rank.
//
//   fake_app <mode> [exit_code]
//   modes: ok      print "fake stdout line" to stdout, record 3 kernels, exit with exit_code
//          kill    record 2 kernels without a footer, then SIGKILL itself
//          fork    fork; parent and child each record 1 kernel in their own file
//          steps   one start-up kernel, then 4 kernels 1 ms later, each inside an NVTX range
//                  "fake_step" of 10 us (its markers, as the injected library writes them)
// With $GPUPERF_METRICS set (the counter pass), it writes what the injected library's counter
// mode writes instead: a spool with statuses and no events, and <host>.<pid>.counters.csv with
// one Nsight Compute-style row per metric for up to $GPUPERF_METRICS_PER_KERNEL launches of each
// kernel named in $GPUPERF_METRICS_KERNELS that it "launches" (fake_kernel(float*), 3 times).
// Values: dram__bytes_read.sum 1000, dram__bytes_write.sum 500, gpu__time_duration.sum 400,
// every other metric 1. Mode "nocounters" reports a permission error and profiles nothing; mode
// "hang" profiles, then never exits (the counter pass's deadline must kill it).
// Every run appends one line to $FAKE_APP_COUNTER when it is set: "traced" when it runs with
// $GPUPERF_OUT_DIR (as under the injected library), else "untraced".
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "spool/spool_writer.h"

namespace {

using namespace gpuperf::spool;

// The header the injected library writes for this process.
FileHeader ProcessHeader() {
  FileHeader header;
  std::memcpy(header.magic, kMagic, sizeof(kMagic));
  header.event_size = sizeof(Event);
  header.pid = getpid();
  header.rank = RankFromEnvironment();
  header.start_time_ns = 1'700'000'000'000'000'000;
  std::strncpy(header.host, HostName().c_str(), sizeof(header.host) - 1);
  return header;
}

void Record(int kernels, bool footer, bool steps = false) {
  const char* dir = std::getenv("GPUPERF_OUT_DIR");
  if (dir == nullptr)
    return;
  const FileHeader header = ProcessHeader();
  SpoolFileWriter writer;
  const std::string path =
      std::string(dir) + "/" + SpoolFileName(HostName(), header.pid, header.rank);
  if (!writer.Open(path, header))
    std::abort();
  writer.WriteString(1, "_Z11fake_kernelPf");
  writer.WriteString(2, "fake_step");
  for (int i = 0; i < kernels; ++i) {
    Event e;
    e.kind = EventKind::kKernel;
    e.device = 0;
    e.name = 1;
    // With steps: kernel 0 is start-up; the others start 1 ms later, 10 us apart, each in a step.
    e.start_ns = header.start_time_ns + (steps && i > 0 ? 1'000'000 + 10'000 * i : 1000 * i);
    e.end_ns = e.start_ns + 500;
    e.correlation = i + 1;
    e.stream = 7;
    writer.WriteEvents(&e, 1);
    if (!steps || i == 0)
      continue;
    for (std::uint8_t flag : {kMarkerStart, kMarkerEnd}) {
      Event marker;
      marker.kind = EventKind::kMarker;
      marker.a = flag;
      marker.name = 2;
      marker.correlation2 = i;  // the range id
      marker.start_ns = e.start_ns + (flag == kMarkerStart ? -100 : 9'800);
      marker.end_ns = marker.start_ns;
      marker.pid = header.pid;
      marker.tid = 1;
      writer.WriteEvents(&marker, 1);
    }
  }
  if (footer) {
    Footer end;
    end.cuda_runtime_version = 13000;  // as a program with a shared libcudart 13.0 reports
    writer.WriteFooter(end);
  }
  writer.Close();
}

void CounterPass(const std::string& mode) {
  const char* dir = std::getenv("GPUPERF_OUT_DIR");
  if (dir == nullptr)
    return;
  const FileHeader header = ProcessHeader();
  std::string stem = SpoolFileName(HostName(), header.pid, header.rank);
  stem = stem.substr(0, stem.rfind('.'));
  SpoolFileWriter writer;
  if (!writer.Open(std::string(dir) + "/" + stem + ".gpuperf", header))
    std::abort();
  std::FILE* csv = std::fopen((std::string(dir) + "/" + stem + ".counters.csv").c_str(), "w");
  std::fputs(
      "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\","
      "\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\","
      "\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n",
      csv);
  if (mode == "nocounters") {
    writer.WriteStatus(
        StatusLevel::kError,
        "counter pass: cuptiProfilerInitialize: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES");
  } else {
    bool selected = false;
    if (std::FILE* names = std::fopen(std::getenv("GPUPERF_METRICS_KERNELS"), "r")) {
      char line[4096];
      while (std::fgets(line, sizeof(line), names))
        selected |= std::string(line) == "fake_kernel(float*)\n";
      std::fclose(names);
    }
    const int cap = std::atoi(std::getenv("GPUPERF_METRICS_PER_KERNEL"));
    std::string metrics = std::getenv("GPUPERF_METRICS");
    int id = 0;
    for (int launch = 0; selected && launch < 3 && launch < cap; ++launch) {
      for (std::size_t start = 0; start < metrics.size();) {
        std::size_t comma = metrics.find(',', start);
        if (comma == std::string::npos)
          comma = metrics.size();
        const std::string metric = metrics.substr(start, comma - start);
        const char* value = metric == "dram__bytes_read.sum"     ? "1000"
                            : metric == "dram__bytes_write.sum"  ? "500"
                            : metric == "gpu__time_duration.sum" ? "400"
                                                                 : "1";
        // The units the injected library writes (inject/counter_csv.cc, MetricUnit).
        const char* unit = metric.rfind("gpu__time_duration", 0) == 0  ? "nsecond"
                           : metric.find("bytes") != std::string::npos ? "byte"
                                                                       : "";
        std::fprintf(csv,
                     "\"%d\",\"%d\",\"fake_app\",\"host\",\"fake_kernel(float*)\",\"1\",\"7\","
                     "\"(256, 1, 1)\",\"(64, 1, 1)\",\"0\",\"9.0\",\"Command line profiler "
                     "metrics\",\"%s\",\"%s\",\"%s\"\n",
                     id,
                     static_cast<int>(getpid()),
                     metric.c_str(),
                     unit,
                     value);
        start = comma + 1;
      }
      ++id;
    }
    writer.WriteStatus(StatusLevel::kInfo,
                       "counter pass: profiled " + std::to_string(id) + " launches");
  }
  if (mode == "hang") {  // a program that never ends under replay: its CSV must survive the kill
    std::fflush(csv);
    for (;;)
      pause();
  }
  std::fclose(csv);
  writer.WriteFooter(Footer{});
  writer.Close();
}

// With GPUPERF_FAKE_NOTE set: appends "<spool directory> <mode of the staging directory>" to
// that file (the staging directory is three levels up: STAGING/runs/run-NNN/spool).
void NoteSpoolDirectory() {
  const char* note = std::getenv("GPUPERF_FAKE_NOTE");
  const char* dir = std::getenv("GPUPERF_OUT_DIR");
  if (note == nullptr || dir == nullptr)
    return;
  struct stat info {};
  const std::string staging = std::string(dir) + "/../../..";
  if (::stat(staging.c_str(), &info) != 0)
    return;
  std::FILE* file = std::fopen(note, "a");
  if (file == nullptr)
    return;
  std::fprintf(file, "%s %o\n", dir, static_cast<unsigned>(info.st_mode & 0777));
  std::fclose(file);
}

}  // namespace

int main(int argc, char** argv) {
  if (const char* counter = std::getenv("FAKE_APP_COUNTER")) {
    if (std::FILE* file = std::fopen(counter, "a")) {
      std::fputs(std::getenv("GPUPERF_OUT_DIR") != nullptr ? "traced\n" : "untraced\n", file);
      std::fclose(file);
    }
  }
  const std::string mode = argc > 1 ? argv[1] : "ok";
  const int exit_code = argc > 2 ? std::atoi(argv[2]) : 0;
  if (std::getenv("GPUPERF_METRICS") != nullptr) {
    CounterPass(mode);
    return exit_code;
  }
  NoteSpoolDirectory();
  if (mode == "kill") {
    Record(2, false);
    std::raise(SIGKILL);
  }
  if (mode == "fork") {
    const pid_t child = fork();
    Record(1, true);
    if (child == 0)
      _exit(0);
    int status = 0;
    waitpid(child, &status, 0);
    return exit_code;
  }
  std::fputs("fake stdout line\n", stdout);
  if (mode == "steps") {
    Record(5, true, true);
    return exit_code;
  }
  Record(3, true);
  return exit_code;
}
