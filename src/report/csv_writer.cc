#include "report/csv_writer.h"

#include <fmt/format.h>

#include <string_view>

namespace gpuperf::report {
namespace {

std::string Row(const std::vector<std::string>& cells) {
  std::string line;
  for (std::size_t i = 0; i < cells.size(); ++i)
    line += (i == 0 ? "" : ",") + CsvField(cells[i]);
  return line + "\n";
}

// nsys stats' geometry cell: each dimension right-aligned in four columns, "2x1x1" ->
// "   2    1    1", so that a script comparing with nsys's CSV sees the same text.
std::string NsysGeometry(std::string_view geometry) {
  std::string out;
  while (!geometry.empty()) {
    std::size_t x = geometry.find('x');
    out += fmt::format("{}{:>4}", out.empty() ? "" : " ", geometry.substr(0, x));
    geometry = x == std::string_view::npos ? std::string_view() : geometry.substr(x + 1);
  }
  return out;
}

// nsys stats' summary columns: Time (%), Total Time (ns), <count>, Avg, Med, Min, Max, StdDev.
std::vector<std::string> SummaryCells(double percent, const Distribution& d) {
  return {fmt::format("{:.1f}", percent),
          std::to_string(d.total),
          std::to_string(d.count),
          fmt::format("{:.1f}", d.avg),
          fmt::format("{:.1f}", d.med),
          std::to_string(d.min),
          std::to_string(d.max),
          fmt::format("{:.1f}", d.stddev)};
}

std::string Kernels(const AnalysisReport& report) {
  std::string out = Row({"Time (%)",
                         "Total Time (ns)",
                         "Instances",
                         "Avg (ns)",
                         "Med (ns)",
                         "Min (ns)",
                         "Max (ns)",
                         "StdDev (ns)",
                         "GridXYZ",
                         "BlockXYZ",
                         "Name",
                         "Wall (%)",
                         "Class",
                         "Class Evidence"});
  for (const KernelRow& k : report.kernels) {
    std::vector<std::string> cells = SummaryCells(k.time_percent, k.duration_ns);
    cells.insert(cells.end(),
                 {NsysGeometry(k.grid),
                  NsysGeometry(k.block),
                  k.name,
                  fmt::format("{:.1f}", k.wall_percent),
                  std::string(ToString(k.classification.bound)),
                  std::string(ToString(k.classification.evidence))});
    out += Row(cells);
  }
  return out;
}

std::string MemoryOps(const AnalysisReport& report) {
  std::string out = Row({"Time (%)",
                         "Total Time (ns)",
                         "Count",
                         "Avg (ns)",
                         "Med (ns)",
                         "Min (ns)",
                         "Max (ns)",
                         "StdDev (ns)",
                         "Operation",
                         "Total (bytes)",
                         "Avg (bytes)"});
  for (const MemoryOpRow& m : report.memory_ops) {
    std::vector<std::string> cells = SummaryCells(m.time_percent, m.duration_ns);
    cells.insert(
        cells.end(),
        {m.operation, std::to_string(m.size_bytes.total), fmt::format("{:.1f}", m.size_bytes.avg)});
    out += Row(cells);
  }
  return out;
}

std::string Api(const AnalysisReport& report) {
  std::string out = Row({"Time (%)",
                         "Total Time (ns)",
                         "Num Calls",
                         "Avg (ns)",
                         "Med (ns)",
                         "Min (ns)",
                         "Max (ns)",
                         "StdDev (ns)",
                         "Name"});
  for (const ApiRow& a : report.api) {
    std::vector<std::string> cells = SummaryCells(a.time_percent, a.duration_ns);
    cells.push_back(a.name);
    out += Row(cells);
  }
  return out;
}

// Not an nsys table: report.json's operators[] (TraceLens' ops_summary columns in ns).
std::string Operators(const AnalysisReport& report) {
  std::string out = Row({"name",
                         "source",
                         "category",
                         "calls",
                         "instances",
                         "kernel_ns",
                         "subtree_kernel_ns",
                         "call_avg_ns",
                         "call_med_ns",
                         "call_stddev_ns",
                         "launches",
                         "host_total_ns",
                         "host_self_ns",
                         "fraction",
                         "top_kernel"});
  for (const OperatorRow& op : report.framework.operators) {
    out += Row({op.name,
                std::string(ToString(op.source)),
                std::string(ToString(op.category)),
                std::to_string(op.calls),
                std::to_string(op.instances),
                std::to_string(op.kernel_ns),
                std::to_string(op.subtree_kernel_ns),
                fmt::format("{:.1f}", op.call_avg_ns),
                fmt::format("{:.1f}", op.call_med_ns),
                fmt::format("{:.1f}", op.call_stddev_ns),
                std::to_string(op.launches),
                std::to_string(op.host_total_ns),
                std::to_string(op.host_self_ns),
                fmt::format("{:.6f}", op.fraction),
                op.top_kernel});
  }
  return out;
}

// Not an nsys table: one row per finding, its evidence rows stay in report.json.
std::string Findings(const AnalysisReport& report) {
  std::string out = Row({"id",
                         "severity",
                         "title",
                         "summary",
                         "count",
                         "time_ns",
                         "wall_fraction",
                         "bound_speedup_if_removed",
                         "advice"});
  for (const Finding& f : report.findings) {
    out +=
        Row({f.id,
             std::string(ToString(f.severity)),
             f.title,
             f.summary,
             std::to_string(f.count),
             std::to_string(f.time_ns),
             f.wall_fraction ? fmt::format("{:.6f}", *f.wall_fraction) : "",
             f.bound_speedup_if_removed ? fmt::format("{:.6f}", *f.bound_speedup_if_removed) : "",
             f.advice});
  }
  return out;
}

}  // namespace

std::string CsvField(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos)
    return std::string(text);
  std::string quoted = "\"";
  for (char c : text)
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::vector<std::pair<std::string, std::string>> ToCsvFiles(const AnalysisReport& report) {
  return {{"kernels.csv", Kernels(report)},
          {"operators.csv", Operators(report)},
          {"memory_ops.csv", MemoryOps(report)},
          {"api.csv", Api(report)},
          {"findings.csv", Findings(report)}};
}

}  // namespace gpuperf::report
