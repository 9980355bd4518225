// Benchmark: import + analyze one trace file, print raw MB/s and peak RSS as one JSON line.
// One file per process, so that peak RSS belongs to that file alone.
// Usage: analyze_bench TRACE [REPEATS]
#include "gpuperf/analyze.h"
#include "gpuperf/import.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "io/input.h"
#include "util/heap_policy.h"

namespace {

// Decompressed size, measured once outside the timed region.
long long RawBytes(const std::string& path) {
  auto input = gpuperf::io::Input::FromFile(path);
  if (!input.ok())
    return -1;
  auto source = input->Open();
  if (!source.ok())
    return -1;
  std::vector<char> chunk(1 << 20);
  long long total = 0;
  while (true) {
    auto n = (*source)->Read(chunk.data(), chunk.size());
    if (!n.ok() || *n == 0)
      break;
    total += static_cast<long long>(*n);
  }
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s TRACE [REPEATS]\n", argv[0]);
    return 2;
  }
  gpuperf::util::KeepFreedMemoryInHeap();  // as the CLI does
  std::string path = argv[1];
  int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
  long long raw = RawBytes(path);
  std::vector<double> seconds;
  std::vector<double> import_seconds;
  std::size_t activities = 0;
  std::size_t records = 0;      // every model record: the "rows" of an nsys export
  double import_rss_bytes = 0;  // the peak when the first import ends: import's or analysis'?
  for (int i = 0; i < repeats; ++i) {
    auto start = std::chrono::steady_clock::now();
    auto trace = gpuperf::io::ImportTraceFile(path);
    if (!trace.ok()) {
      std::fprintf(stderr, "%s\n", trace.error().message.c_str());
      return 1;
    }
    import_seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (i == 0) {
      rusage after_import{};
      getrusage(RUSAGE_SELF, &after_import);
      import_rss_bytes = static_cast<double>(after_import.ru_maxrss) * 1024.0;
    }
    auto report = gpuperf::analysis::Analyze(*trace);
    seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    activities = trace->activities.size();
    records = activities + trace->api_calls.size() + trace->syncs.size() + trace->ranges.size() +
              trace->host_ops.size() + trace->memory_events.size();
  }
  double best = seconds[0];
  double best_import = import_seconds[0];
  double best_analysis = seconds[0] - import_seconds[0];
  for (std::size_t i = 0; i < seconds.size(); ++i) {
    best = seconds[i] < best ? seconds[i] : best;
    best_import = import_seconds[i] < best_import ? import_seconds[i] : best_import;
    best_analysis = std::min(best_analysis, seconds[i] - import_seconds[i]);
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  double rss_bytes = static_cast<double>(usage.ru_maxrss) * 1024.0;  // ru_maxrss is in KiB
  std::printf(
      "{\"file\": \"%s\", \"raw_mb\": %.1f, \"best_s\": %.3f, \"import_s\": %.3f, "
      "\"analysis_s\": %.4f, "
      "\"raw_mb_per_s\": %.1f, "
      "\"first_s\": %.3f, \"peak_rss_mb\": %.1f, \"import_peak_rss_mb\": %.1f, "
      "\"rss_percent_of_raw\": %.1f, "
      "\"gpu_activities\": %zu, \"records\": %zu, \"records_per_s_first\": %.0f}\n",
      path.c_str(),
      static_cast<double>(raw) / 1e6,
      best,
      best_import,
      best_analysis,
      static_cast<double>(raw) / 1e6 / best,
      seconds[0],
      rss_bytes / 1e6,
      import_rss_bytes / 1e6,
      100.0 * rss_bytes / static_cast<double>(raw),
      activities,
      records,
      static_cast<double>(records) / seconds[0]);
  return 0;
}
