#include "report/roofline_svg_draw.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "report/markdown_escape.h"
#include "report/svg_text.h"

namespace gpuperf::report::svg {
namespace {

constexpr std::size_t kNameChars = 80;
constexpr const char* kRoofColors[] = {"#444444", "#1b7837", "#762a83", "#b35806"};
// A white outline under labels inside the plot keeps them legible over lines and circles.
constexpr const char* kHalo = " stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\"";

const char* BoundColor(KernelBound bound) {
  switch (bound) {
    case KernelBound::kMemory:
      return "#2166ac";
    case KernelBound::kCompute:
      return "#b2182b";
    case KernelBound::kLatency:
      return "#e08214";
    case KernelBound::kCache:
      return "#8c510a";
    case KernelBound::kLaunch:
    case KernelBound::kUnknown:
      break;
  }
  return "#666666";
}

// Circle area grows with the kernel's share of kernel time: 4 px at 0%, 14 px at 100%.
double Radius(const KernelRow& row) {
  return 4 + 10 * std::sqrt(std::clamp(row.time_percent, 0.0, 100.0) / 100);
}

// Filled for counters (measured), hollow for shape models (modeled).
std::string Marker(double cx, double cy, double r, const KernelRow& row) {
  const char* color = BoundColor(row.roofline->shown_bound);
  const bool measured = row.roofline->evidence != EvidenceTier::kModeled;
  return fmt::format(
      "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" fill-opacity=\"{}\" stroke=\"{}\" "
      "stroke-width=\"1.5\"/>\n",
      Px(cx),
      Px(cy),
      Px(r),
      measured ? color : "#ffffff",
      measured ? "0.75" : "0.6",
      color);
}

}  // namespace

void AppendText(
    std::string& out, double x, double y, std::string_view escaped, std::string_view attributes) {
  fmt::format_to(std::back_inserter(out),
                 "<text x=\"{}\" y=\"{}\"{}>{}</text>\n",
                 Px(x),
                 Px(y),
                 attributes,
                 escaped);
}

void AppendGrid(std::string& out, const RooflineAxes& axes) {
  const double left = kRooflinePlotLeft, right = kRooflinePlotRight;
  const double top = kRooflinePlotTop, bottom = kRooflinePlotBottom;
  out += "<g stroke=\"#e0e0e0\" stroke-width=\"1\">\n";
  for (int e = DecadeBelow(axes.x.lo); e <= DecadeAbove(axes.x.hi); ++e) {
    const double x = axes.x.Map(std::pow(10.0, e));
    fmt::format_to(std::back_inserter(out),
                   "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>\n",
                   Px(x),
                   Px(top),
                   Px(bottom));
  }
  for (int e = DecadeBelow(axes.y.lo); e <= DecadeAbove(axes.y.hi); ++e) {
    const double y = axes.y.Map(std::pow(10.0, e));
    fmt::format_to(std::back_inserter(out),
                   "<line x1=\"{1}\" y1=\"{0}\" x2=\"{2}\" y2=\"{0}\"/>\n",
                   Px(y),
                   Px(left),
                   Px(right));
  }
  out += "</g>\n";
  fmt::format_to(std::back_inserter(out),
                 "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" "
                 "stroke=\"#000000\"/>\n",
                 Px(left),
                 Px(top),
                 Px(right - left),
                 Px(bottom - top));
  for (int e = DecadeBelow(axes.x.lo); e <= DecadeAbove(axes.x.hi); ++e)
    AppendText(out,
               axes.x.Map(std::pow(10.0, e)),
               bottom + 16,
               svg::FormatDecade(e),
               " text-anchor=\"middle\"");
  for (int e = DecadeBelow(axes.y.lo); e <= DecadeAbove(axes.y.hi); ++e)
    AppendText(out,
               left - 6,
               axes.y.Map(std::pow(10.0, e)) + 4,
               svg::FormatDecade(e),
               " text-anchor=\"end\"");
  AppendText(out,
             (left + right) / 2,
             bottom + 36,
             "Arithmetic intensity (FLOP/byte)",
             " text-anchor=\"middle\" font-weight=\"bold\"");
  const double mid = (top + bottom) / 2;
  AppendText(out,
             22,
             mid,
             "Performance (FLOP/s)",
             fmt::format(" text-anchor=\"middle\" font-weight=\"bold\" "
                         "transform=\"rotate(-90 22 {})\"",
                         Px(mid)));
}

void AppendRoofs(std::string& out, const std::vector<Roof>& roofs, const RooflineAxes& axes) {
  std::vector<double> labelled_bandwidths;
  for (std::size_t i = 0; i < roofs.size(); ++i) {
    const Roof& roof = roofs[i];
    const char* color = kRoofColors[i % std::size(kRoofColors)];
    // The slope enters at the left edge or the bottom edge, whichever it meets first.
    const double x0 = std::max(axes.x.lo, axes.y.lo / roof.peak_bytes_per_s);
    const double sx = axes.x.Map(x0), sy = axes.y.Map(x0 * roof.peak_bytes_per_s);
    const double rx = axes.x.Map(roof.Ridge()), ry = axes.y.Map(roof.peak_flops_per_s);
    fmt::format_to(std::back_inserter(out),
                   "<polyline points=\"{},{} {},{} {},{}\" fill=\"none\" stroke=\"{}\" "
                   "stroke-width=\"2\"/>\n",
                   Px(sx),
                   Px(sy),
                   Px(rx),
                   Px(ry),
                   Px(axes.x.px1),
                   Px(ry),
                   color);
    std::string name;
    for (const std::string& n : roof.names)
      name += (name.empty() ? "" : ", ") + n;
    AppendText(out,
               axes.x.px1 - 6,
               ry - 5,
               EscapeXml(name + " " + FormatSi(roof.peak_flops_per_s, "FLOP/s")),
               fmt::format(" text-anchor=\"end\" fill=\"{}\"{}", color, kHalo));
    // The ridge point: where the kernel stops being able to be memory bound.
    fmt::format_to(
        std::back_inserter(out),
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{3}\" "
        "stroke-dasharray=\"3,3\"/>\n<circle cx=\"{0}\" cy=\"{1}\" r=\"3\" fill=\"{3}\"/>\n",
        Px(rx),
        Px(ry),
        Px(kRooflinePlotBottom),
        color);
    AppendText(out,
               rx + 4,
               ry + 14,
               "ridge " + fmt::format("{:.3g}", roof.Ridge()),
               fmt::format(" font-size=\"10\" fill=\"{}\"{}", color, kHalo));
    if (std::find(labelled_bandwidths.begin(), labelled_bandwidths.end(), roof.peak_bytes_per_s) !=
        labelled_bandwidths.end())
      continue;
    labelled_bandwidths.push_back(roof.peak_bytes_per_s);
    const double angle = std::atan2(ry - sy, rx - sx) * 180 / 3.141592653589793;
    // Just above the slope near where it enters the plot, where few kernels sit.
    const double along = 12 / std::max(1.0, std::hypot(rx - sx, ry - sy));
    const double lx = sx + along * (rx - sx), ly = sy + along * (ry - sy) - 6;
    AppendText(out,
               lx,
               ly,
               "DRAM " + FormatSi(roof.peak_bytes_per_s, "B/s"),
               fmt::format(" fill=\"{}\"{} transform=\"rotate({:.1f} {} {})\"",
                           color,
                           kHalo,
                           angle,
                           Px(lx),
                           Px(ly)));
  }
}

void AppendPoints(std::string& out, std::vector<Point> points, const RooflineAxes& axes) {
  // Large circles first, so that small ones stay visible on top.
  std::stable_sort(points.begin(), points.end(), [](const Point& a, const Point& b) {
    return Radius(*a.row) > Radius(*b.row);
  });
  for (const Point& p : points)
    out += Marker(axes.x.Map(p.ai), axes.y.Map(p.flops_per_s), Radius(*p.row), *p.row);
  for (const Point& p : points) {
    const double r = Radius(*p.row);
    AppendText(out,
               axes.x.Map(p.ai) + r * 0.7 + 2,
               axes.y.Map(p.flops_per_s) - r * 0.7 - 1,
               std::to_string(p.number),
               fmt::format(" font-weight=\"bold\"{}", kHalo));
  }
}

void AppendLegend(std::string& out, const std::vector<Point>& points, double y) {
  const char* bold = " font-weight=\"bold\"";
  AppendText(out, 50, y, "#", " text-anchor=\"end\" font-weight=\"bold\"");
  AppendText(out, 60, y, "kernel", bold);
  AppendText(out, 770, y, "time", " text-anchor=\"end\" font-weight=\"bold\"");
  AppendText(out, 790, y, "bound", bold);
  AppendText(out, 860, y, "evidence", bold);
  for (const Point& p : points) {
    y += kLegendRowHeight;
    out += Marker(20, y - 4, 5, *p.row);
    AppendText(out, 50, y, std::to_string(p.number), " text-anchor=\"end\"");
    AppendText(out, 60, y, EscapeXml(Shorten(p.row->name, kNameChars)));
    AppendText(out, 770, y, fmt::format("{:.1f}%", p.row->time_percent), " text-anchor=\"end\"");
    AppendText(out,
               790,
               y,
               EscapeXml(ToString(p.row->roofline->shown_bound)),
               fmt::format(" fill=\"{}\"", BoundColor(p.row->roofline->shown_bound)));
    AppendText(out, 860, y, EscapeXml(ToString(p.row->roofline->evidence)));
  }
}

}  // namespace gpuperf::report::svg
