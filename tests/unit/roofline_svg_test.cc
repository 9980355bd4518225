// roofline.svg: the predicate, hand-computed axes and pixels, roof labels, escaping of hostile
// names, well-formedness, and the chart of a real trace with modelled rooflines (corpus).
#include "report/roofline_svg.h"

#include "gpuperf/analyze.h"
#include "gpuperf/import.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_test_support.h"
#include "corpus.h"
#include "report/markdown_escape.h"
#include "report/markdown_writer.h"
#include "report/svg_text.h"

namespace gpuperf::report {
namespace {

// A minimal XML well-formedness check: valid UTF-8 without control characters but newline, one
// root element, balanced and properly nested tags, quoted attributes without '<', and '&' only
// as one of the five named entities or a character reference. Returns "" or what is wrong.
std::string XmlProblem(const std::string& doc) {
  for (std::size_t i = 0; i < doc.size(); ++i) {
    auto c = static_cast<unsigned char>(doc[i]);
    if ((c < 0x20 && c != '\n') || c == 0x7F)
      return "control character at " + std::to_string(i);
  }
  for (std::size_t i = 0; i < doc.size();) {  // UTF-8 structure (lead byte, continuations)
    auto lead = static_cast<unsigned char>(doc[i]);
    std::size_t length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
    if ((lead >= 0x80 && lead < 0xC2) || lead > 0xF4 || i + length > doc.size())
      return "invalid UTF-8 at " + std::to_string(i);
    for (std::size_t k = 1; k < length; ++k) {
      if ((static_cast<unsigned char>(doc[i + k]) & 0xC0) != 0x80)
        return "invalid UTF-8 at " + std::to_string(i);
    }
    i += length;
  }
  auto entity_ok = [&](std::size_t at) {
    for (const char* e : {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#"}) {
      if (doc.compare(at, std::string(e).size(), e) == 0)
        return true;
    }
    return false;
  };
  std::vector<std::string> open;
  int roots = 0;
  std::size_t i = doc.rfind("<?xml", 0) == 0 ? doc.find("?>") + 2 : 0;
  while (i < doc.size()) {
    if (doc[i] == '&' && !entity_ok(i))
      return "raw & at " + std::to_string(i);
    if (doc[i] == '>')
      return "stray > at " + std::to_string(i);
    if (doc.compare(i, 4, "<!--") == 0) {  // a comment (the run id before the root)
      std::size_t end = doc.find("-->", i + 4);
      if (end == std::string::npos)
        return "unterminated comment";
      i = end + 3;
      continue;
    }
    if (doc[i] != '<') {
      if (open.empty() && doc[i] != '\n')
        return "text outside the root at " + std::to_string(i);
      ++i;
      continue;
    }
    // A tag: find its end outside quoted attribute values.
    std::size_t j = i + 1;
    char quote = 0;
    for (; j < doc.size() && (quote != 0 || doc[j] != '>'); ++j) {
      if (quote != 0 && doc[j] == '<')
        return "< in an attribute at " + std::to_string(j);
      if (quote != 0 && doc[j] == '&' && !entity_ok(j))
        return "raw & in an attribute at " + std::to_string(j);
      if (doc[j] == '"' || doc[j] == '\'')
        quote = quote == 0 ? doc[j] : (quote == doc[j] ? 0 : quote);
      else if (quote == 0 && doc[j] == '<')
        return "< inside a tag at " + std::to_string(j);
    }
    if (j >= doc.size())
      return "unterminated tag";
    std::string tag = doc.substr(i + 1, j - i - 1);
    const bool closing = !tag.empty() && tag[0] == '/';
    const bool empty = !tag.empty() && tag.back() == '/';
    std::string name = tag.substr(closing ? 1 : 0);
    name = name.substr(0, name.find_first_of(" /\n"));
    if (name.empty())
      return "tag without a name at " + std::to_string(i);
    if (closing) {
      if (open.empty() || open.back() != name)
        return "</" + name + "> does not close " + (open.empty() ? "anything" : open.back());
      open.pop_back();
    } else if (!empty) {
      roots += open.empty() ? 1 : 0;
      open.push_back(name);
    }
    i = j + 1;
  }
  if (!open.empty())
    return "<" + open.back() + "> is not closed";
  return roots == 1 ? "" : "not exactly one root element";
}

TEST_CASE("roofline.svg: the test's XML checker rejects what it should") {
  CHECK(XmlProblem("<svg><g/><text a=\"x &amp; y\">1 &lt; 2</text></svg>\n").empty());
  CHECK_FALSE(XmlProblem("<svg><g></svg>").empty());
  CHECK_FALSE(XmlProblem("<svg>a & b</svg>").empty());
  CHECK_FALSE(XmlProblem("<svg a=\"<\"/>").empty());
  CHECK_FALSE(XmlProblem("<svg>a > b</svg>").empty());
  CHECK_FALSE(XmlProblem("<svg>\xff</svg>").empty());
  CHECK_FALSE(XmlProblem("<svg>\x01</svg>").empty());
  CHECK_FALSE(XmlProblem("<svg/><svg/>").empty());
}

KernelRow Kernel(const std::string& name,
                 double time_percent,
                 double ai,
                 double flops_per_s,
                 const std::string& precision,
                 const std::string& unit,
                 double peak_flops,
                 EvidenceTier evidence) {
  KernelRow row;
  row.name = name;
  row.time_percent = time_percent;
  row.duration_ns.total = static_cast<std::int64_t>(time_percent * 1000);
  KernelRoofline r;
  r.precision = precision;
  r.unit = unit;
  r.arithmetic_intensity = ai;
  r.achieved_flops_per_s = flops_per_s;
  r.achieved_bytes_per_s = flops_per_s / ai;
  r.bound = ai < 9 ? gpuperf::report::KernelBound::kMemory : gpuperf::report::KernelBound::kCompute;
  r.shown_bound = r.bound;
  r.evidence = evidence;
  r.peak_flops_per_s = peak_flops;
  r.peak_bytes_per_s = 2.039e12;  // A100 SXM4 80GB DRAM
  row.roofline = r;
  return row;
}

// Three kernels on an A100 80GB: fp32 vector 19.5 TFLOP/s (ridge 19.5 / 2.039 = 9.56 FLOP/B)
// and bf16 tensor 312 TFLOP/s (ridge 153 FLOP/B).
AnalysisReport ThreeKernels() {
  AnalysisReport report;
  report.kernels.push_back(
      Kernel("sgemm_big", 60, 50, 5e12, "fp32", "vector", 19.5e12, EvidenceTier::kMeasured));
  report.kernels.push_back(
      Kernel("elementwise", 30, 0.25, 3e11, "fp32", "vector", 19.5e12, EvidenceTier::kModeled));
  report.kernels.push_back(
      Kernel("bf16_gemm", 10, 200, 1e14, "bf16", "tensor", 312e12, EvidenceTier::kModeled));
  return report;
}

TEST_CASE("roofline.svg: HasRooflineChart needs intensity, achieved FLOP/s and both roofs") {
  AnalysisReport report = ThreeKernels();
  CHECK(HasRooflineChart(report));
  CHECK(ToMarkdown(report).find("![Roofline chart of the hot kernels](roofline.svg)") !=
        std::string::npos);
  for (int missing = 0; missing < 5; ++missing) {
    AnalysisReport one;
    one.kernels.push_back(ThreeKernels().kernels[0]);
    KernelRoofline& r = *one.kernels[0].roofline;
    if (missing == 0)
      one.kernels[0].roofline.reset();
    if (missing == 1)
      r.peak_flops_per_s.reset();
    if (missing == 2)
      r.peak_bytes_per_s.reset();
    if (missing == 3)
      r.arithmetic_intensity = 0.0;
    if (missing == 4)
      r.achieved_flops_per_s.reset();
    INFO("case " << missing);
    CHECK_FALSE(HasRooflineChart(one));
    CHECK(RooflineSvg(one).empty());
    CHECK(ToMarkdown(one).find("roofline.svg") == std::string::npos);
  }
  CHECK_FALSE(HasRooflineChart(AnalysisReport{}));
}

TEST_CASE("roofline.svg: decade axes and a point at hand-computed pixels") {
  AnalysisReport report = ThreeKernels();
  RooflineAxes axes = ChooseRooflineAxes(report);
  // x: 0.25 / 2 -> 0.1, 200 * 2 -> 1000; y: 3e11 / 2 -> 1e11, 312e12 * 2 -> 1e15.
  CHECK(axes.x.lo == Approx(0.1));
  CHECK(axes.x.hi == Approx(1000));
  CHECK(axes.y.lo == Approx(1e11));
  CHECK(axes.y.hi == Approx(1e15));
  // Four decades over 840 px (x) and 420 px (y): AI 50 -> 90 + 2.69897 * 210 = 656.78;
  // 5 TFLOP/s -> 480 - 1.69897 * 105 = 301.61.
  CHECK(axes.x.Map(50) == Approx(656.7837));
  CHECK(axes.y.Map(5e12) == Approx(301.6081));
  CHECK(axes.x.Map(0.1) == Approx(kRooflinePlotLeft));
  CHECK(axes.y.Map(1e15) == Approx(kRooflinePlotTop));
  std::string svg = RooflineSvg(report);
  INFO(svg);
  CHECK(XmlProblem(svg).empty());
  // Filled (measured), radius 4 + 10 * sqrt(0.6) = 11.75.
  CHECK(svg.find("<circle cx=\"656.8\" cy=\"301.6\" r=\"11.7\" fill=\"#b2182b\"") !=
        std::string::npos);
  // Hollow (modeled): AI 0.25 -> 173.57, 300 GFLOP/s -> 429.90, radius 4 + 10 * sqrt(0.3).
  CHECK(svg.find("<circle cx=\"173.6\" cy=\"429.9\" r=\"9.5\" fill=\"#ffffff\"") !=
        std::string::npos);
  // fp32 roof: enters at AI 0.1 (203.9 GFLOP/s), ridge at (9.56, 19.5 T), flat to the right edge.
  CHECK(svg.find("points=\"90.0,447.5 505.9,239.5 930.0,239.5\"") != std::string::npos);
}

TEST_CASE("roofline.svg: roof labels, ridge points, ticks, caption and legend") {
  std::string svg = RooflineSvg(ThreeKernels());
  INFO(svg);
  CHECK(svg.find("fp32 vector 19.5 TFLOP/s") != std::string::npos);
  CHECK(svg.find("bf16 tensor 312 TFLOP/s") != std::string::npos);
  CHECK(svg.find(">ridge 9.56<") != std::string::npos);
  CHECK(svg.find(">ridge 153<") != std::string::npos);
  // One bandwidth shared by both roofs: labelled once.
  std::size_t dram = svg.find("DRAM 2.04 TB/s");
  CHECK(dram != std::string::npos);
  CHECK(svg.find("DRAM 2.04 TB/s", dram + 1) == std::string::npos);
  for (const char* tick :
       {">0.1<", ">1<", ">10<", ">100<", ">1 k<", ">100 G<", ">1 T<", ">10 T<", ">100 T<", ">1 P<"})
    CHECK(svg.find(tick) != std::string::npos);
  CHECK(svg.find("Arithmetic intensity (FLOP/byte)") != std::string::npos);
  CHECK(svg.find("Performance (FLOP/s)") != std::string::npos);
  CHECK(svg.find("<title>") != std::string::npos);
  CHECK(svg.find("filled = hardware counters (measured), hollow = shape model (modeled)") !=
        std::string::npos);
  CHECK(svg.find(">sgemm_big<") < svg.find(">elementwise<"));
  CHECK(svg.find(">elementwise<") < svg.find(">bf16_gemm<"));
  CHECK(svg.find(">60.0%<") != std::string::npos);
  CHECK(svg.find("<script") == std::string::npos);
  CHECK(svg.find("href") == std::string::npos);
  CHECK(RooflineSvg(ThreeKernels()) == svg);  // deterministic
}

TEST_CASE("roofline.svg: hostile and long kernel names are escaped and shortened") {
  AnalysisReport report = ThreeKernels();
  report.kernels[0].name = "<script>alert(1)</script>&\"'\x01\xff\xfe|\xEF\xBF\xBF end";
  report.kernels[1].name = "void f<" + std::string(200, 'x') + ">()";
  report.ceilings.push_back({});
  report.ceilings.back().entry = "A100 <SXM4> & 80GB";
  report.ceilings.back().evidence = CeilingsEvidence::kDatasheet;
  std::string svg = RooflineSvg(report);
  INFO(svg);
  CHECK(XmlProblem(svg).empty());
  CHECK(svg.find("&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&apos;???|? end") !=
        std::string::npos);
  CHECK(svg.find("<script") == std::string::npos);
  // 80 characters: "void f<", 72 x and the ellipsis.
  CHECK(svg.find("void f&lt;" + std::string(72, 'x') + "\xE2\x80\xA6<") != std::string::npos);
  CHECK(svg.find(std::string(73, 'x')) == std::string::npos);
  CHECK(svg.find("Roofs: datasheet A100 &lt;SXM4&gt; &amp; 80GB") != std::string::npos);
  CHECK(svg::EscapeXml("a<b>\x01\xff") == "a&lt;b&gt;??");
  CHECK(svg::EscapeXml("\xC3\xA9\t\n\xC2\x85") == "\xC3\xA9???");  // é kept, C1 NEL dropped
}

TEST_CASE("roofline.svg: at most max_kernels points, numbered as report.md's roofline table") {
  AnalysisReport report;
  for (int i = 0; i < 15; ++i) {
    report.kernels.push_back(Kernel("k" + std::to_string(i),
                                    15.0 - i,
                                    1 + i,
                                    1e12,
                                    "fp32",
                                    "vector",
                                    19.5e12,
                                    EvidenceTier::kMeasured));
  }
  report.kernels[1].roofline->peak_flops_per_s.reset();  // table row 2, not placeable
  std::string svg = RooflineSvg(report);
  INFO(svg);
  CHECK(XmlProblem(svg).empty());
  CHECK(svg.find(">k0<") != std::string::npos);
  CHECK(svg.find(">k1<") == std::string::npos);
  CHECK(svg.find(">k12<") != std::string::npos);  // the 12th placeable kernel, number 13
  CHECK(svg.find(">13<") != std::string::npos);
  CHECK(svg.find(">k13<") == std::string::npos);
  CHECK(svg.find("and 2 more kernels with a roofline") != std::string::npos);
}

TEST_CASE("roofline.svg: number formatting is fixed and locale-free") {
  CHECK(svg::FormatSi(19.5e12, "FLOP/s") == "19.5 TFLOP/s");
  CHECK(svg::FormatSi(2.039e12, "B/s") == "2.04 TB/s");
  CHECK(svg::FormatSi(812, "B/s") == "812 B/s");
  CHECK(svg::FormatDecade(-4) == "1e-4");
  CHECK(svg::FormatDecade(-2) == "0.01");
  CHECK(svg::FormatDecade(0) == "1");
  CHECK(svg::FormatDecade(2) == "100");
  CHECK(svg::FormatDecade(4) == "10 k");
  CHECK(svg::FormatDecade(15) == "1 P");
  CHECK(svg::Px(-0.01) == "0.0");
}

TEST_CASE("roofline.svg: modelled rooflines of a TraceLens H100 trace give a chart", "[corpus]") {
  for (const char* name :
       {"gaunernst_bert-small-uncased__1016001", "Qwen_Qwen1.5-0.5B-Chat__1016005"}) {
    auto path = testing::CorpusFile(std::string("kineto/tracelens/h100/") + name + ".json.gz");
    if (!path)
      return;
    INFO(name);
    auto trace = io::ImportTraceFile(*path);
    REQUIRE(trace.ok());
    AnalysisReport report = analysis::Analyze(*trace);
    REQUIRE(HasRooflineChart(report));
    std::string svg = RooflineSvg(report);
    CHECK(XmlProblem(svg).empty());
    // The top placeable kernel is in the legend under its number in report.md's roofline table
    // (its rank among kernels with a roofline) and its shortened name.
    int number = 0;
    for (const KernelRow& row : report.kernels) {
      number += row.roofline ? 1 : 0;
      if (!row.roofline || !row.roofline->peak_flops_per_s || !row.roofline->peak_bytes_per_s ||
          row.roofline->arithmetic_intensity.value_or(0) <= 0 ||
          row.roofline->achieved_flops_per_s.value_or(0) <= 0)
        continue;
      INFO("top kernel " << number << ": " << row.name);
      CHECK(svg.find("text-anchor=\"end\">" + std::to_string(number) + "</text>") !=
            std::string::npos);
      CHECK(svg.find(">" + svg::EscapeXml(Shorten(row.name, 80)) + "<") != std::string::npos);
      break;
    }
    CHECK(svg.find(">modeled</text>") != std::string::npos);
    CHECK(svg.find("TFLOP/s") != std::string::npos);
  }
}

TEST_CASE("roofline.svg: an Nsight Compute CSV without ceilings gives no chart", "[corpus]") {
  auto path = testing::CorpusFile("ncu/learningnote4dev-a100/sgemm.csv");
  if (!path)
    return;
  auto trace = io::ImportTraceFile(*path);
  REQUIRE(trace.ok());
  CHECK_FALSE(HasRooflineChart(analysis::Analyze(*trace)));
}

TEST_CASE("roofline.svg: analyze writes it beside report.md, and only with md", "[corpus]") {
  auto csv = testing::CorpusFile("ncu/learningnote4dev-a100/sgemm.csv");
  if (!csv)
    return;
  // The golden case's A100 Kineto trace joined to the ncu counters: measured rooflines with roofs.
  const std::string input =
      std::string(GPUPERF_SOURCE_DIR) + "/tests/golden/ncu-join-kineto/input.json";
  testing::TempDir dir;
  const std::filesystem::path both = dir.path() / "both", json = dir.path() / "json";
  auto run = testing::RunGpuperf({"analyze", input, "--counters", *csv, "--out", both.string()});
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("roofline.svg") != std::string::npos);
  const std::string svg = testing::ReadFile(both / "roofline.svg");
  CHECK(XmlProblem(svg).empty());
  CHECK(svg.find("fp32 vector 19.5 TFLOP/s") != std::string::npos);
  CHECK(svg.find(">measured</text>") != std::string::npos);
  CHECK(testing::ReadFile(both / "report.md").find("](roofline.svg)") != std::string::npos);
  run = testing::RunGpuperf(
      {"analyze", input, "--counters", *csv, "--format", "json", "--out", json.string()});
  REQUIRE(run.exit_code == 0);
  CHECK_FALSE(std::filesystem::exists(json / "roofline.svg"));
}

}  // namespace
}  // namespace gpuperf::report
