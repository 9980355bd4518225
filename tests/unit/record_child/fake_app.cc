// A stand-in for a CUDA program in the recorder's orchestration tests (no GPU needed). It writes
// what the injected library would write: a spool in $GPUPERF_OUT_DIR named by host, pid and rank.
//
//   fake_app <mode> [exit_code]
//   modes: ok      print "fake stdout line" to stdout, record 3 kernels, exit with exit_code
//          kill    record 2 kernels without a footer, then SIGKILL itself
//          fork    fork; parent and child each record 1 kernel in their own file
// Every run appends one line to $FAKE_APP_COUNTER when it is set.
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "record/spool_writer.h"

namespace {

using namespace gpuperf::spool;

void Record(int kernels, bool footer) {
  const char* dir = std::getenv("GPUPERF_OUT_DIR");
  if (dir == nullptr)
    return;
  FileHeader header;
  std::memcpy(header.magic, kMagic, sizeof(kMagic));
  header.event_size = sizeof(Event);
  header.pid = getpid();
  header.rank = RankFromEnvironment();
  header.start_time_ns = 1'700'000'000'000'000'000;
  std::strncpy(header.host, HostName().c_str(), sizeof(header.host) - 1);
  SpoolFileWriter writer;
  const std::string path =
      std::string(dir) + "/" + SpoolFileName(HostName(), header.pid, header.rank);
  if (!writer.Open(path, header))
    std::abort();
  writer.WriteString(1, "_Z10fake_kernelPf");
  for (int i = 0; i < kernels; ++i) {
    Event e;
    e.kind = EventKind::kKernel;
    e.device = 0;
    e.name = 1;
    e.start_ns = header.start_time_ns + 1000 * i;
    e.end_ns = e.start_ns + 500;
    e.correlation = i + 1;
    e.stream = 7;
    writer.WriteEvents(&e, 1);
  }
  if (footer)
    writer.WriteFooter(Footer{});
  writer.Close();
}

}  // namespace

int main(int argc, char** argv) {
  if (const char* counter = std::getenv("FAKE_APP_COUNTER")) {
    if (std::FILE* file = std::fopen(counter, "a")) {
      std::fputs("run\n", file);
      std::fclose(file);
    }
  }
  const std::string mode = argc > 1 ? argv[1] : "ok";
  const int exit_code = argc > 2 ? std::atoi(argv[2]) : 0;
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
  Record(3, true);
  return exit_code;
}
