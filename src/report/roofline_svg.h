// roofline.svg: the hot kernels on a log-log roofline chart, written beside report.md and linked
// from its roofline section, so that it shows on GitHub and in a browser. A plain SVG 1.1
// document: no script, no external fonts or links, every trace string XML-escaped.
#pragma once

#include "gpuperf/report.h"

#include <cstddef>
#include <string>

namespace gpuperf::report {

// The plot area of the chart, in SVG user units (pixels); the legend sits below it.
inline constexpr double kRooflinePlotLeft = 90;
inline constexpr double kRooflinePlotRight = 930;
inline constexpr double kRooflinePlotTop = 60;
inline constexpr double kRooflinePlotBottom = 480;

// A logarithmic axis: value `lo` maps to pixel `px0`, `hi` to `px1` (px1 < px0 for a y axis,
// which grows upwards). Map(10^k) is linear in k. Values must be > 0; lo < hi.
struct LogAxis {
  double lo = 1;
  double hi = 10;
  double px0 = 0;
  double px1 = 1;
  double Map(double value) const;
};

struct RooflineAxes {
  LogAxis x;  // arithmetic intensity, FLOP/byte
  LogAxis y;  // FLOP/s
};

// True when at least one kernel can be placed: a roofline with arithmetic intensity > 0,
// achieved FLOP/s > 0 and both roofs (peak_flops_per_s, peak_bytes_per_s). report.md links
// roofline.svg exactly when this holds, and the CLI writes it exactly then.
bool HasRooflineChart(const AnalysisReport& report);

// The axes of RooflineSvg(report, max_kernels): whole decades that hold the plotted points, the
// ridge points and the peaks with at least a factor 2 of padding on each side (x at least
// 0.1..100 FLOP/byte). Only meaningful when HasRooflineChart(report).
RooflineAxes ChooseRooflineAxes(const AnalysisReport& report, std::size_t max_kernels = 12);

// The chart as a complete SVG document: one roof (bandwidth slope, then flat peak) per distinct
// pair of roofs, labelled, with its ridge point; the first `max_kernels` placeable kernels by
// total time as circles (filled: measured counters; hollow: shape model; area by time share),
// numbered as in report.md's roofline table, and a legend below the plot. Deterministic: the
// same report gives the same bytes. Returns "" when !HasRooflineChart(report).
std::string RooflineSvg(const AnalysisReport& report, std::size_t max_kernels = 12);

}  // namespace gpuperf::report
