#include "report/markdown_writer.h"

#include <fmt/format.h>

#include <string_view>

#include "report/json_writer.h"
#include "report/markdown_escape.h"
#include "report/markdown_sections.h"
#include "report/markdown_table.h"
#include "util/units_format.h"

namespace gpuperf::report {
namespace {

std::string_view BaseName(std::string_view path) {
  auto slash = path.find_last_of('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

void AppendTitleAndHeadline(std::string& out,
                            const AnalysisReport& report,
                            const MarkdownOptions& options) {
  out += "# gpuperf report";
  if (!report.source.path.empty()) {
    out += ": " + EscapeMarkdown(Shorten(BaseName(report.source.path), options.name_chars));
  }
  out += "\n\n";
  out += report.headline.empty() ? "_The analysis produced no headline for this trace._"
                                 : EscapeMarkdown(report.headline);
  out += "\n\n";
}

// Share of the GPU span, for display only: report.json carries the raw nanoseconds.
std::string ShareOfSpan(std::int64_t ns, std::int64_t span_ns) {
  if (span_ns <= 0)
    return "n/a";
  return util::FormatPercent(100.0 * static_cast<double>(ns) / static_cast<double>(span_ns));
}

// Orphans (GPU work without a launch call in the trace) are counted by default; TraceLens drops
// them. Both figures are in report.json; the Markdown names the difference when there is one.
void AppendOrphanNote(std::string& out, const AnalysisReport& report) {
  if (report.orphan_activities <= 0)
    return;
  const Timeline& t = report.timeline_tracelens;
  out += fmt::format(
      "{} GPU activities have no launch call in the trace (orphans). Without them (TraceLens' "
      "`gpu_timeline` selection) the span is {}, busy {} and idle {}.\n\n",
      util::FormatCount(report.orphan_activities),
      util::FormatDuration(static_cast<double>(t.total_ns)),
      util::FormatDuration(static_cast<double>(t.busy_ns)),
      util::FormatDuration(static_cast<double>(t.idle_ns)));
}

void AppendTimeline(std::string& out, const Timeline& t) {
  out += "## Where the time goes\n\n";
  if (t.activities == 0) {
    out += "The trace holds no GPU activity that the timeline counts.\n\n";
    return;
  }
  MarkdownTable table({{"GPU time"}, {"time", Align::kRight}, {"% of span", Align::kRight}});
  auto row = [&](const char* what, std::int64_t ns) {
    table.AddRow(
        {what, util::FormatDuration(static_cast<double>(ns)), ShareOfSpan(ns, t.total_ns)});
  };
  row("span (first start to last end)", t.total_ns);
  row("busy (any GPU work)", t.busy_ns);
  row("idle", t.idle_ns);
  row("computation (kernels, memsets)", t.computation_ns);
  row("communication (collective kernels)", t.communication_ns);
  row("exposed communication", t.exposed_communication_ns);
  row("memcpy", t.memcpy_ns);
  row("exposed memcpy", t.exposed_memcpy_ns);
  row("memset", t.memset_ns);
  out += table.Render();
  out += fmt::format("\n{} GPU activities counted.\n\n", util::FormatCount(t.activities));
}

void AppendDevices(std::string& out, const AnalysisReport& report) {
  if (report.devices.size() < 2)
    return;
  out += "### Per device\n\n";
  MarkdownTable table({{"device", Align::kRight},
                       {"name"},
                       {"span", Align::kRight},
                       {"busy", Align::kRight},
                       {"idle", Align::kRight},
                       {"communication", Align::kRight},
                       {"memcpy", Align::kRight}});
  for (const auto& d : report.devices) {
    const Timeline& t = d.timeline;
    auto ns = [](std::int64_t value) { return util::FormatDuration(static_cast<double>(value)); };
    table.AddRow({std::to_string(d.device),
                  d.name,
                  ns(t.total_ns),
                  ns(t.busy_ns),
                  ns(t.idle_ns),
                  ns(t.communication_ns),
                  ns(t.memcpy_ns)});
  }
  out += table.Render() + "\n";
}

void AppendBullet(std::string& out, std::string_view label, const std::string& raw_value) {
  out +=
      fmt::format("- {}: {}\n", label, raw_value.empty() ? "unknown" : EscapeMarkdown(raw_value));
}

void AppendSource(std::string& out, const AnalysisReport& report, const MarkdownOptions& options) {
  const SourceInfo& s = report.source;
  out += "## Source and method\n\n";
  AppendBullet(out, "File", s.path);
  AppendBullet(
      out, "Format", s.format_version.empty() ? s.format : s.format + " " + s.format_version);
  if (!s.producer.empty())
    AppendBullet(out, "Producer", s.producer);
  if (s.rank) {
    std::string rank = std::to_string(*s.rank);
    if (s.world_size)
      rank += " of " + std::to_string(*s.world_size);
    AppendBullet(out, "Rank", rank);
  }
  out += s.devices.empty() ? "- Devices: none recorded\n" : "- Devices:\n";
  for (const auto& device : s.devices)
    out += "  - " + EscapeMarkdown(device) + "\n";
  std::string version = options.tool.version.empty() ? "" : " " + options.tool.version;
  out += fmt::format("- Written by {}{} (report schema {})\n",
                     EscapeMarkdown(options.tool.name),
                     EscapeMarkdown(version),
                     kReportSchemaVersion);
  out += fmt::format(
      "- Evidence: every figure comes from the trace's own records (evidence tier `{}`); "
      "definitions of every metric are in `docs/metrics.md` of gpuperf.\n",
      kEvidenceTrace);
  if (!report.notes.empty()) {
    out += "\nNotes:\n\n";
    for (const auto& note : report.notes)
      out += "- " + EscapeMarkdown(note) + "\n";
  }
}

}  // namespace

std::string ToMarkdown(const AnalysisReport& report, const MarkdownOptions& options) {
  std::string out;
  AppendTitleAndHeadline(out, report, options);
  markdown::AppendDiagnosis(out, report, options);
  markdown::AppendHierarchy(out, report, options);
  if (!report.source.has_timeline) {
    // Nsight Compute replays each kernel alone: its back-to-back layout is not a timeline, so
    // busy, idle, overlap and orphan figures would describe nothing that ran.
    out +=
        "## Where the time goes\n\nNsight Compute replayed each profiled kernel alone: there "
        "is no timeline, so no idle, overlap, copy or orphan figures. The kernel tables below "
        "hold the profiled durations.\n\n";
  } else {
    AppendTimeline(out, report.timeline);
    AppendOrphanNote(out, report);
  }
  AppendDevices(out, report);
  markdown::AppendFindings(out, report, options);
  markdown::AppendPredictions(out, report, options);
  markdown::AppendKernels(out, report, options);
  markdown::AppendClassification(out, report, options);
  markdown::AppendRoofline(out, report, options);
  markdown::AppendCeilings(out, report);
  markdown::AppendNcuEvidence(out, report, options);
  markdown::AppendOccupancy(out, report, options);
  markdown::AppendTensorCores(out, report, options);
  markdown::AppendMemoryOps(out, report, options);
  markdown::AppendApi(out, report, options);
  markdown::AppendLaunch(out, report);
  markdown::AppendAudit(out, report);
  markdown::AppendRanges(out, report, options);
  markdown::AppendDiagnostics(out, report);
  AppendSource(out, report, options);
  return out;
}

}  // namespace gpuperf::report
