#include "record/counter_pass.h"

#include "gpuperf/import.h"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "io/ncu/counter_join.h"
#include "spool/metric_sets.h"
#include "util/durable_file.h"

namespace gpuperf::record {
namespace {

namespace fs = std::filesystem;

// Performance counters are admin-only unless the driver was loaded with
// NVreg_RestrictProfilingToAdminUsers=0 (CUPTI: ERR_NVGPUCTRPERM); say so before running.
std::string PermissionWarning() {
  std::ifstream params("/proc/driver/nvidia/params");
  std::string line;
  while (std::getline(params, line)) {
    if (line.rfind("RmProfilingAdminOnly:", 0) == 0 && line.find('1') != std::string::npos &&
        geteuid() != 0) {
      return "the driver restricts GPU performance counters to administrators "
             "(RmProfilingAdminOnly: 1) and gpuperf is not root: the counter pass may fail with "
             "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (run as root, with CAP_PERFMON on R565+, or "
             "load nvidia with NVreg_RestrictProfilingToAdminUsers=0)";
    }
  }
  return "";
}

}  // namespace

std::vector<std::string> TopKernelNames(const model::Trace& trace, std::size_t count) {
  std::map<std::string, std::int64_t> total;
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind == model::ActivityKind::kKernel)
      total[std::string(trace.Name(a.name))] += a.duration_ns();
  }
  std::vector<std::pair<std::string, std::int64_t>> ranked(total.begin(), total.end());
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.second > b.second;
  });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < ranked.size() && i < count; ++i)
    out.push_back(ranked[i].first);
  return out;
}

std::int64_t CounterPassTimeoutMs(const CounterPassOptions& options, std::int64_t run_wall_ns) {
  if (options.timeout_s > 0)
    return static_cast<std::int64_t>(options.timeout_s * 1000);
  return 60'000 + 20 * std::max<std::int64_t>(run_wall_ns, 0) / 1'000'000;
}

CounterPassResult RunCounterPass(const CounterPassOptions& options,
                                 std::int64_t timeout_ms,
                                 const std::vector<std::string>& command,
                                 const std::string& inject_library,
                                 const std::string& out_dir,
                                 const std::string& dir,
                                 model::Trace& trace) {
  CounterPassResult result;
  result.kernels = TopKernelNames(trace, static_cast<std::size_t>(std::max(options.kernels, 1)));
  if (result.kernels.empty()) {
    result.problem = "the analysed run has no kernels to profile";
    return result;
  }
  if (std::string warning = PermissionWarning(); !warning.empty())
    result.warnings.push_back(warning);
  std::error_code error;
  const fs::path root = fs::absolute(dir);
  fs::create_directories(root / "spool", error);
  if (error) {
    result.problem = root.string() + ": " + error.message();
    return result;
  }
  std::string names;
  for (const std::string& name : result.kernels) {
    std::string line = name;
    std::replace(line.begin(), line.end(), '\n', ' ');
    names += line + '\n';
  }
  if (Status written = util::WriteNewFile((root / "kernels.txt").string(), names); !written) {
    result.problem = written.error().message;
    return result;
  }
  ChildSpec spec;
  spec.argv = command;
  spec.set_env = {{"CUDA_INJECTION64_PATH", inject_library},
                  {"GPUPERF_OUT_DIR", (root / "spool").string()},
                  {"GPUPERF_SESSION", "counter-pass"},
                  {"GPUPERF_METRICS", spool::JoinMetrics(options.metrics)},
                  {"GPUPERF_METRICS_KERNELS", (root / "kernels.txt").string()},
                  {"GPUPERF_METRICS_PER_KERNEL", std::to_string(std::max(options.per_kernel, 1))}};
  spec.timeout_ms = timeout_ms;
  result.timeout_ms = timeout_ms;
  auto outcome = RunChild(spec);
  if (!outcome) {
    result.problem = outcome.error().message;
    return result;
  }
  result.ran = true;
  result.outcome = *outcome;
  if (outcome->timed_out) {
    result.warnings.push_back(fmt::format(
        "the program did not finish within {:.0f} s under the counter pass and was killed "
        "(--metrics-timeout); launches profiled until then are kept",
        static_cast<double>(timeout_ms) / 1000));
  }
  for (const std::string& path : io::ListSpoolFiles((root / "spool").string())) {
    if (auto contents = io::ReadSpoolFile(path); contents.ok()) {
      for (const io::SpoolStatus& status : contents->statuses)
        result.statuses.push_back(status);
    }
  }
  std::vector<fs::path> csvs;
  for (const auto& entry : fs::directory_iterator(root / "spool", error)) {
    if (entry.path().filename().string().ends_with(".counters.csv"))
      csvs.push_back(entry.path());
  }
  std::sort(csvs.begin(), csvs.end());
  for (const fs::path& csv : csvs) {
    const fs::path kept = root / csv.filename();
    fs::rename(csv, kept, error);
    const fs::path& path = error ? csv : kept;
    result.csv_files.push_back(fs::relative(path, fs::absolute(out_dir), error).string());
    auto imported = io::ImportTraceFile(path.string());
    if (!imported.ok()) {  // a header-only CSV (nothing profiled) imports fine, with no rows
      result.warnings.push_back(imported.error().message);
      continue;
    }
    result.launches_profiled += static_cast<std::int64_t>(imported->counters.size());
    io::ncu::JoinSummary summary = io::ncu::JoinCounters(trace, *imported);
    result.joined += summary.joined;
    result.unjoined += summary.unjoined;
  }
  if (result.joined == 0) {
    std::string why;
    for (const io::SpoolStatus& status : result.statuses) {
      if (status.level == spool::StatusLevel::kError) {
        why = status.message;
        break;
      }
    }
    if (why.empty() && result.csv_files.empty())
      why = "the program never initialised CUDA under the counter pass";
    if (why.empty())
      why = result.launches_profiled == 0
                ? "no launch of the selected kernels was profiled"
                : "no profiled launch matched a kernel of the analysed run";
    result.problem = why;
  }
  return result;
}

}  // namespace gpuperf::record
