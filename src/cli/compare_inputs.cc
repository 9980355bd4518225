#include "cli/compare_inputs.h"

#include "gpuperf/analyze.h"
#include "gpuperf/import.h"

#include <fmt/format.h>

#include <filesystem>

#include "cli/trace_input.h"
#include "io/report/baseline_json_reader.h"
#include "io/report/report_json_reader.h"
#include "util/sha256.h"

namespace gpuperf::cli {
namespace {

namespace fs = std::filesystem;

// Instance durations per kernel name, and ProfilerStep iterations as end-to-end samples.
void AddSamples(const model::Trace& trace, compare::Side& side, bool steps_as_wall) {
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind == model::ActivityKind::kKernel)
      side.kernel_samples_ns[std::string(trace.Name(a.name))].push_back(
          static_cast<double>(a.duration_ns()));
  }
  if (!steps_as_wall)
    return;
  for (const model::Range& r : trace.ranges) {
    if (r.kind == model::RangeKind::kProfilerStep && r.end_ns > r.start_ns)
      side.wall_samples_ns.push_back(static_cast<double>(r.end_ns - r.start_ns));
  }
  // 2021-era writers record ProfilerStep#N as an operator (cat "Operator"), so it arrives as a
  // host op, not a range.
  if (side.wall_samples_ns.empty()) {
    for (const model::HostOp& op : trace.host_ops) {
      if (trace.Name(op.name).starts_with("ProfilerStep#") && op.end_ns > op.start_ns)
        side.wall_samples_ns.push_back(static_cast<double>(op.end_ns - op.start_ns));
    }
  }
  if (!side.wall_samples_ns.empty())
    side.wall_samples_source = "ProfilerStep iterations";
}

void FingerprintOfTrace(const model::Trace& trace, compare::Fingerprint& f) {
  for (const model::Device& d : trace.devices) {
    if (!d.name.empty())
      f.gpus.push_back(d.name);
  }
  const auto& p = trace.metadata.properties;
  if (auto it = p.find("cuda_driver_version"); it != p.end())
    f.driver = it->second;
  if (auto it = p.find("cuda_runtime_version"); it != p.end())
    f.cuda = it->second;
}

// The GPUs the report's work ran on, from its structured `devices[]` (never parsed back out of
// the formatted source.devices sentences).
void FingerprintOfReport(const report::AnalysisReport& r, compare::Fingerprint& f) {
  for (const report::DeviceTimeline& d : r.devices) {
    if (!d.name.empty())
      f.gpus.push_back(d.name);
  }
}

std::string Sha256OrEmpty(const std::string& path) {
  auto sha = util::Sha256File(path);
  return sha.ok() ? *sha : std::string();
}

Result<compare::Side> LoadTrace(const std::string& path) {
  auto trace = ImportTraceForAnalysis(path);
  if (!trace.ok())
    return trace.error();
  compare::Side side;
  side.path = path;
  side.kind = compare::SideKind::kTrace;
  side.sha256 = Sha256OrEmpty(path);
  side.report = analysis::Analyze(*trace);
  AddSamples(*trace, side, true);
  FingerprintOfTrace(*trace, side.fingerprint);
  return side;
}

compare::Side SideOfReport(const std::string& path, report::AnalysisReport report) {
  compare::Side side;
  side.path = path;
  side.kind = compare::SideKind::kReport;
  side.sha256 = Sha256OrEmpty(path);
  side.report = std::move(report);
  FingerprintOfReport(side.report, side.fingerprint);
  return side;
}

void FingerprintOfBaseline(const io::BaselineFile& b, compare::Fingerprint& f) {
  if (b.gpus_recorded) {
    std::string clocks;
    for (const io::BaselineFile::Gpu& g : b.gpus) {
      f.gpus.push_back(g.name);
      clocks += fmt::format("{}sm {} kHz, mem {} kHz",
                            clocks.empty() ? "" : "; ",
                            g.max_sm_clock_khz,
                            g.max_memory_clock_khz);
    }
    f.clocks = clocks;
  }
  f.driver = b.driver_release;
  f.cuda = b.cuda_runtime_version;
  f.command = b.command;
  f.executable_sha256 = b.executable_sha256;
  f.inputs = b.inputs;
}

Result<compare::Side> LoadBaseline(const std::string& dir) {
  const fs::path file = fs::path(dir) / "baseline.json";
  auto b = io::ReadBaselineJson(file.string());
  if (!b.ok())
    return Error{fmt::format("{}: not a readable baseline.json", file.string())};
  compare::Side side;
  side.path = dir;
  side.kind = compare::SideKind::kBaseline;
  side.sha256 = Sha256OrEmpty(file.string());
  FingerprintOfBaseline(*b, side.fingerprint);
  std::vector<std::string> traces;
  for (const io::BaselineFile::Run& run : b->runs) {
    if (!run.complete)
      continue;  // a cut-short run is not a sample of the program
    side.wall_samples_ns.push_back(run.wall_time_s * 1e9);
    for (const std::string& t : run.traces)
      traces.push_back((fs::path(dir) / t).string());
  }
  side.wall_samples_source = "measured runs (process wall time)";
  // The kernel table and predictions from the analysed run's report when there is one.
  const fs::path report = fs::path(dir) / "report.json";
  if (fs::exists(report)) {
    auto r = io::ReadReportJson(report.string());
    if (!r.ok())
      return r.error();
    side.report = std::move(*r);
  }
  for (const std::string& path : traces) {
    auto trace = ImportTraceForAnalysis(path);
    if (!trace.ok())
      return trace.error();
    AddSamples(*trace, side, false);
    if (side.report.kernels.empty())
      side.report = analysis::Analyze(*trace);
  }
  return side;
}

}  // namespace

Result<compare::Side> LoadSide(const std::string& path) {
  std::error_code error;
  if (fs::is_directory(path, error)) {
    if (!fs::exists(fs::path(path) / "baseline.json"))
      return Error{
          fmt::format("{}: a directory without baseline.json (not a gpuperf baseline)", path)};
    return LoadBaseline(path);
  }
  // Content decides (io/report): a gpuperf report.json is read back, anything else imported.
  auto input = io::ReadReportOrTracePath(path);
  if (!input.ok())
    return input.error();
  if (input->report)
    return SideOfReport(path, std::move(*input->report));
  return LoadTrace(path);
}

}  // namespace gpuperf::cli
