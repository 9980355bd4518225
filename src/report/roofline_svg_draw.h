// The drawing of roofline.svg (roofline_svg.h): grid and axes, roofs, kernel markers, legend.
// Internal to src/report; every function appends SVG elements to `out`.
#pragma once

#include "gpuperf/report.h"

#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "report/roofline_svg.h"

namespace gpuperf::report::svg {

// The height of one legend row, header included.
inline constexpr double kLegendRowHeight = 18;

// One placed kernel.
struct Point {
  std::size_t number = 0;  // as report.md's roofline table: rank among kernels with a roofline
  const KernelRow* row = nullptr;
  double ai = 0;
  double flops_per_s = 0;
};

// One roof: the bandwidth slope up to the ridge, then the flat peak. Kernels of several
// precisions with the same two peaks share one roof, labelled with all their names.
struct Roof {
  double peak_flops_per_s = 0;
  double peak_bytes_per_s = 0;
  std::vector<std::string> names;  // "fp32 vector"
  double Ridge() const { return peak_flops_per_s / peak_bytes_per_s; }
};

inline int DecadeBelow(double value) {
  return static_cast<int>(std::floor(std::log10(value)));
}
inline int DecadeAbove(double value) {
  return static_cast<int>(std::ceil(std::log10(value)));
}

// <text x y ATTRIBUTES>ESCAPED</text>; `escaped` must already be XML character data.
void AppendText(std::string& out,
                double x,
                double y,
                std::string_view escaped,
                std::string_view attributes = "");

// Decade grid, frame, tick labels and axis titles of the plot area.
void AppendGrid(std::string& out, const RooflineAxes& axes);

// Each roof (slope, ridge point, flat peak) with its labels; a bandwidth is labelled once.
void AppendRoofs(std::string& out, const std::vector<Roof>& roofs, const RooflineAxes& axes);

// The kernels as numbered circles: large ones first so that small ones stay visible.
void AppendPoints(std::string& out, std::vector<Point> points, const RooflineAxes& axes);

// The legend table from baseline `y`: one row per point, in the order given.
void AppendLegend(std::string& out, const std::vector<Point>& points, double y);

}  // namespace gpuperf::report::svg
