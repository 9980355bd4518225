// The counter pass's output: one CSV per process in Nsight Compute's long `--csv --metrics`
// layout, so that the same reader (io/ncu) and join (`analyze --counters`) take it as they take
// an ncu export, and a user can open it with the tools they already have.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace gpuperf::inject {

// One profiled launch: its identity as the launch callback saw it and its metric values.
struct ProfiledLaunch {
  std::int64_t id = 0;  // 0-based, in profiling order
  std::int64_t pid = 0;
  std::string process_name;
  std::string host;
  std::string kernel_name;  // demangled
  std::uint32_t context = 0;
  std::uint64_t stream = 0;
  std::uint32_t block[3] = {0, 0, 0};
  std::uint32_t grid[3] = {0, 0, 0};
  std::uint32_t device = 0;
  int cc_major = 0, cc_minor = 0;
  std::vector<std::string> metrics;
  std::vector<double> values;  // same order as metrics
};

// The unit Nsight Compute prints for a metric name, so that io/ncu converts it the same way:
// "nsecond" for times, "byte" for byte counts, "hz" for rates per second, "%" for percentages,
// "" (a plain count) otherwise.
std::string MetricUnit(const std::string& metric);

class CounterCsvWriter {
 public:
  CounterCsvWriter() = default;
  ~CounterCsvWriter();
  CounterCsvWriter(const CounterCsvWriter&) = delete;
  CounterCsvWriter& operator=(const CounterCsvWriter&) = delete;

  // Creates `path` and writes the header row. False when it cannot be created.
  bool Open(const std::string& path);
  // One row per metric; flushed, so that a program killed later keeps what was profiled.
  bool Write(const ProfiledLaunch& launch);
  void Close();

 private:
  std::FILE* file_ = nullptr;
};

}  // namespace gpuperf::inject
