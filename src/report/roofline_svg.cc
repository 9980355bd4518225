// roofline.svg (roofline_svg.h). Layout, top to bottom: title, the log-log plot (roofs, ridge
// points, kernels), a caption saying what the points are, and a legend with one row per point.
#include "report/roofline_svg.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <vector>

#include "report/markdown_escape.h"
#include "report/roofline_svg_draw.h"
#include "report/row_order.h"
#include "report/svg_text.h"

namespace gpuperf::report {
namespace {

using svg::AppendText;
using svg::DecadeAbove;
using svg::DecadeBelow;
using svg::EscapeXml;
using svg::kLegendRowHeight;
using svg::Point;
using svg::Px;
using svg::Roof;

constexpr int kWidth = 960;

bool Positive(const std::optional<double>& value) {
  return value && std::isfinite(*value) && *value > 0;
}

bool Placeable(const KernelRow& row) {
  const auto& r = row.roofline;
  return r && Positive(r->arithmetic_intensity) && Positive(r->achieved_flops_per_s) &&
         Positive(r->peak_flops_per_s) && Positive(r->peak_bytes_per_s);
}

// The first `max_kernels` placeable kernels by total time; `omitted` counts the rest.
std::vector<Point> SelectPoints(const AnalysisReport& report,
                                std::size_t max_kernels,
                                std::size_t* omitted = nullptr) {
  std::vector<Point> points;
  std::size_t number = 0;
  std::size_t left_out = 0;
  for (const KernelRow* row : KernelsByTotalTime(report.kernels)) {
    if (!row->roofline)
      continue;
    ++number;
    if (!Placeable(*row))
      continue;
    if (points.size() == max_kernels) {
      ++left_out;
      continue;
    }
    points.push_back(
        {number, row, *row->roofline->arithmetic_intensity, *row->roofline->achieved_flops_per_s});
  }
  if (omitted != nullptr)
    *omitted = left_out;
  return points;
}

std::string RoofName(const KernelRoofline& r) {
  if (r.precision.empty())
    return r.unit.empty() ? "peak" : r.unit;
  return r.unit.empty() ? r.precision : r.precision + " " + r.unit;
}

std::vector<Roof> CollectRoofs(const std::vector<Point>& points) {
  std::vector<Roof> roofs;
  for (const Point& point : points) {
    const KernelRoofline& r = *point.row->roofline;
    auto same = [&](const Roof& roof) {
      return roof.peak_flops_per_s == *r.peak_flops_per_s &&
             roof.peak_bytes_per_s == *r.peak_bytes_per_s;
    };
    auto it = std::find_if(roofs.begin(), roofs.end(), same);
    if (it == roofs.end())
      it = roofs.insert(roofs.end(), Roof{*r.peak_flops_per_s, *r.peak_bytes_per_s, {}});
    if (std::find(it->names.begin(), it->names.end(), RoofName(r)) == it->names.end())
      it->names.push_back(RoofName(r));
  }
  std::stable_sort(roofs.begin(), roofs.end(), [](const Roof& a, const Roof& b) {
    return a.peak_flops_per_s > b.peak_flops_per_s;
  });
  return roofs;
}

std::string RoofSources(const AnalysisReport& report, const std::vector<Point>& points) {
  std::vector<std::string> sources;
  for (const CeilingsUsed& ceilings : report.ceilings) {
    if (!ceilings.entry.empty())
      sources.push_back(std::string(ToString(ceilings.evidence)) + " " + ceilings.entry);
  }
  for (const Point& p : points) {
    if (sources.empty() && !p.row->roofline->ceiling_source.empty())
      sources.push_back(p.row->roofline->ceiling_source);
  }
  std::string text;
  for (const std::string& source : sources) {
    if (text.find(source) == std::string::npos)
      text += (text.empty() ? "" : "; ") + source;
  }
  return text.empty() ? "" : Shorten("Roofs: " + text, 150);
}

}  // namespace

double LogAxis::Map(double value) const {
  const double fraction = (std::log10(value) - std::log10(lo)) / (std::log10(hi) - std::log10(lo));
  return px0 + fraction * (px1 - px0);
}

bool HasRooflineChart(const AnalysisReport& report) {
  return std::any_of(report.kernels.begin(), report.kernels.end(), Placeable);
}

RooflineAxes ChooseRooflineAxes(const AnalysisReport& report, std::size_t max_kernels) {
  std::vector<double> xs, ys;
  for (const Point& p : SelectPoints(report, max_kernels)) {
    xs.push_back(p.ai);
    ys.push_back(p.flops_per_s);
    xs.push_back(*p.row->roofline->peak_flops_per_s / *p.row->roofline->peak_bytes_per_s);
    ys.push_back(*p.row->roofline->peak_flops_per_s);
  }
  RooflineAxes axes;
  axes.x = {0.1, 100, kRooflinePlotLeft, kRooflinePlotRight};
  axes.y = {1e9, 1e12, kRooflinePlotBottom, kRooflinePlotTop};
  if (xs.empty())
    return axes;
  auto [x_min, x_max] = std::minmax_element(xs.begin(), xs.end());
  auto [y_min, y_max] = std::minmax_element(ys.begin(), ys.end());
  axes.x.lo = std::pow(10.0, std::min(-1, DecadeBelow(*x_min / 2)));
  axes.x.hi = std::pow(10.0, std::max(2, DecadeAbove(*x_max * 2)));
  const int y_hi = DecadeAbove(*y_max * 2);
  axes.y.lo = std::pow(10.0, std::min(y_hi - 2, DecadeBelow(*y_min / 2)));
  axes.y.hi = std::pow(10.0, y_hi);
  return axes;
}

std::string RooflineSvg(const AnalysisReport& report, std::size_t max_kernels) {
  if (!HasRooflineChart(report) || max_kernels == 0)
    return "";
  std::size_t omitted = 0;
  const std::vector<Point> points = SelectPoints(report, max_kernels, &omitted);
  const RooflineAxes axes = ChooseRooflineAxes(report, max_kernels);
  const double legend_top = kRooflinePlotBottom + 112;
  const double height =
      legend_top + kLegendRowHeight * static_cast<double>(points.size() + (omitted > 0 ? 1 : 0)) +
      20;
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  fmt::format_to(std::back_inserter(out),
                 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
                 "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" font-size=\"12\">\n",
                 kWidth,
                 Px(height));
  out += "<title>Roofline chart of the hot kernels</title>\n";
  fmt::format_to(std::back_inserter(out),
                 "<rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n",
                 kWidth,
                 Px(height));
  AppendText(out,
             20,
             30,
             fmt::format("Roofline: the {} hottest kernels with roofs", points.size()),
             " font-size=\"16\" font-weight=\"bold\"");
  svg::AppendGrid(out, axes);
  svg::AppendRoofs(out, CollectRoofs(points), axes);
  svg::AppendPoints(out, points, axes);
  double y = kRooflinePlotBottom + 62;
  for (const std::string& line :
       {std::string("Points: achieved FLOP/s at the kernel's arithmetic intensity; filled = "
                    "hardware counters (measured), hollow = shape model (modeled)."),
        std::string("Circle area grows with the kernel's share of kernel time; colour is the "
                    "bound; numbers as in report.md's roofline table."),
        RoofSources(report, points)}) {
    if (!line.empty())
      AppendText(out, 20, y, EscapeXml(line), " font-size=\"11\"");
    y += 15;
  }
  svg::AppendLegend(out, points, legend_top);
  if (omitted > 0) {
    AppendText(
        out,
        60,
        legend_top + kLegendRowHeight * static_cast<double>(points.size() + 1),
        fmt::format("… and {} more kernels with a roofline (report.md, report.json)", omitted),
        " font-style=\"italic\"");
  }
  out += "</svg>\n";
  return out;
}

}  // namespace gpuperf::report
