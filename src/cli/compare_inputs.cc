#include "cli/compare_inputs.h"

#include "gpuperf/analyze.h"
#include "gpuperf/import.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/trace_input.h"
#include "io/report/report_json_reader.h"
#include "util/byte_source.h"
#include "util/sha256.h"

namespace gpuperf::cli {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

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

void FingerprintOfReport(const report::AnalysisReport& r, compare::Fingerprint& f) {
  // "0: NVIDIA H100 80GB HBM3 (cc 9.0, 132 SMs)" -> the name between ": " and " (cc".
  for (const std::string& d : r.source.devices) {
    std::size_t colon = d.find(": ");
    std::size_t cc = d.rfind(" (cc ");
    if (colon != std::string::npos && cc != std::string::npos && cc > colon + 2)
      f.gpus.push_back(d.substr(colon + 2, cc - colon - 2));
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
  side.kind = "trace";
  side.sha256 = Sha256OrEmpty(path);
  side.report = analysis::Analyze(*trace);
  AddSamples(*trace, side, true);
  FingerprintOfTrace(*trace, side.fingerprint);
  return side;
}

Result<compare::Side> LoadReport(const std::string& path) {
  auto report = io::ReadReportJson(path);
  if (!report.ok())
    return report.error();
  compare::Side side;
  side.path = path;
  side.kind = "report";
  side.sha256 = Sha256OrEmpty(path);
  side.report = std::move(*report);
  FingerprintOfReport(side.report, side.fingerprint);
  return side;
}

std::string TextOf(const Json& j) {
  if (j.is_string())
    return j.get<std::string>();
  if (j.is_array()) {
    std::string out;
    for (const Json& part : j)
      out += (out.empty() ? "" : " ") + TextOf(part);
    return out;
  }
  return j.is_null() ? std::string() : j.dump();
}

void FingerprintOfBaseline(const Json& b, compare::Fingerprint& f) {
  const Json hardware = b.value("hardware", Json::object());
  if (const Json gpus = hardware.value("gpus", Json()); gpus.is_array()) {
    std::string clocks;
    for (const Json& g : gpus) {
      f.gpus.push_back(g.value("name", std::string()));
      clocks += fmt::format("{}sm {} kHz, mem {} kHz",
                            clocks.empty() ? "" : "; ",
                            g.value("max_sm_clock_khz", 0),
                            g.value("max_memory_clock_khz", 0));
    }
    f.clocks = clocks;
  }
  const Json software = b.value("software", Json::object());
  f.driver = TextOf(software.value("driver_release", Json()));
  f.cuda = TextOf(software.value("cuda_runtime_version", Json()));
  const Json workload = b.value("workload", Json::object());
  f.command = TextOf(workload.value("command", Json()));
  f.executable_sha256 = TextOf(workload.value("executable_sha256", Json()));
  if (const Json inputs = workload.value("inputs", Json()); inputs.is_array()) {
    for (const Json& input : inputs)
      f.inputs[input.value("path", std::string())] = input.value("sha256", std::string());
  }
}

Result<compare::Side> LoadBaseline(const std::string& dir) {
  const fs::path file = fs::path(dir) / "baseline.json";
  auto text = util::ReadFileText(file.string(), std::size_t{256} << 20);
  Json b = text.ok() ? Json::parse(*text, nullptr, false) : Json();
  if (!text.ok() || b.is_discarded() || !b.is_object())
    return Error{fmt::format("{}: not a readable baseline.json", file.string())};
  compare::Side side;
  side.path = dir;
  side.kind = "baseline";
  side.sha256 = Sha256OrEmpty(file.string());
  FingerprintOfBaseline(b, side.fingerprint);
  std::vector<std::string> traces;
  for (const Json& run : b.value("runs", Json::array())) {
    if (!run.value("complete", false))
      continue;  // a cut-short run is not a sample of the program
    side.wall_samples_ns.push_back(run.value("wall_time_s", 0.0) * 1e9);
    for (const Json& t : run.value("traces", Json::array()))
      traces.push_back((fs::path(dir) / t.get<std::string>()).string());
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
  auto read = util::ReadFileHead(path, 4096);
  if (!read.ok())
    return read.error();
  const std::string& head = read.value();
  if (io::LooksLikeGpuperfReport(head))
    return LoadReport(path);
  return LoadTrace(path);
}

}  // namespace gpuperf::cli
