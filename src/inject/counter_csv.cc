#include "inject/counter_csv.h"

#include <cinttypes>
#include <cmath>

namespace gpuperf::inject {
namespace {

bool EndsWith(const std::string& text, const char* suffix) {
  const std::string tail(suffix);
  return text.size() >= tail.size() &&
         text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

// A CSV field: quoted, inner quotes doubled, line breaks flattened (a kernel name may hold any
// byte; the reader wants one record per line).
std::string Quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"')
      out += "\"\"";
    else if (c == '\n' || c == '\r')
      out += ' ';
    else
      out += c;
  }
  return out + "\"";
}

std::string Dim3(const std::uint32_t (&d)[3]) {
  return "(" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) +
         ")";
}

}  // namespace

std::string MetricUnit(const std::string& metric) {
  if (metric.rfind("gpu__time_duration", 0) == 0)
    return "nsecond";
  if (EndsWith(metric, ".per_second"))
    return "hz";
  if (metric.find(".pct_of_peak") != std::string::npos || EndsWith(metric, "_pct"))
    return "%";
  if (metric.find("bytes") != std::string::npos)
    return "byte";
  return "";
}

CounterCsvWriter::~CounterCsvWriter() {
  Close();
}

bool CounterCsvWriter::Open(const std::string& path) {
  Close();
  file_ = std::fopen(path.c_str(), "wx");  // never overwrite: one file per process
  if (file_ == nullptr)
    return false;
  std::fputs(
      "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\","
      "\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\","
      "\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n",
      file_);
  return std::fflush(file_) == 0;
}

bool CounterCsvWriter::Write(const ProfiledLaunch& launch) {
  if (file_ == nullptr)
    return false;
  const std::string identity =
      Quote(std::to_string(launch.id)) + "," + Quote(std::to_string(launch.pid)) + "," +
      Quote(launch.process_name) + "," + Quote(launch.host) + "," + Quote(launch.kernel_name) +
      "," + Quote(std::to_string(launch.context)) + "," + Quote(std::to_string(launch.stream)) +
      "," + Quote(Dim3(launch.block)) + "," + Quote(Dim3(launch.grid)) + "," +
      Quote(std::to_string(launch.device)) + "," +
      Quote(std::to_string(launch.cc_major) + "." + std::to_string(launch.cc_minor)) +
      ",\"Command line profiler metrics\",";
  for (std::size_t i = 0; i < launch.metrics.size() && i < launch.values.size(); ++i) {
    const double value = launch.values[i];
    char number[64];
    if (std::isfinite(value))
      std::snprintf(number, sizeof(number), "%.17g", value);
    else
      std::snprintf(number, sizeof(number), "n/a");
    std::fprintf(file_,
                 "%s%s,%s,%s\n",
                 identity.c_str(),
                 Quote(launch.metrics[i]).c_str(),
                 Quote(MetricUnit(launch.metrics[i])).c_str(),
                 Quote(number).c_str());
  }
  return std::fflush(file_) == 0 && std::ferror(file_) == 0;
}

void CounterCsvWriter::Close() {
  if (file_ != nullptr) {
    std::fclose(file_);
    file_ = nullptr;
  }
}

}  // namespace gpuperf::inject
