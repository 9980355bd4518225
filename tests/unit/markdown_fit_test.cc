// report.md as a pull request shows it: long sections folded, and under 60,000 characters
// whatever the trace (markdown_fit.h).
#include "report/markdown_fit.h"

#include <catch2/catch.hpp>

#include <string>

namespace gpuperf::report {
namespace {

std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

// A report as large as the worst corpus traces and then some: 20,000 kernels with names of
// 200 characters, a finding with 5,000 evidence rows.
AnalysisReport HugeReport() {
  AnalysisReport r;
  r.source.path = "huge.json";
  r.headline = "GPU busy 50% of the window.";
  for (int i = 0; i < 20000; ++i) {
    KernelRow k;
    k.name = "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl<" +
             std::string(120, 'x') + std::to_string(i) + ">>";
    k.duration_ns.count = 10;
    k.duration_ns.total = 100000 - i;
    k.time_percent = 0.001;
    r.kernels.push_back(k);
  }
  Finding f;
  f.id = "gpu_gaps";
  f.title = "GPU idle gaps";
  f.severity = Severity::kWarning;
  f.summary = "many gaps";
  f.columns = {{"Start (ns)", ColumnUnit::kStartNs},
               {"Duration (ns)", ColumnUnit::kDurationNs},
               {"Before"},
               {"After"}};
  for (int i = 0; i < 5000; ++i)
    f.rows.push_back({{std::to_string(1661203462672529000LL + i * 1000),
                       "5000",
                       std::string(150, 'a'),
                       std::string(150, 'b')}});
  r.findings.push_back(f);
  return r;
}

}  // namespace

TEST_CASE("long sections fold under <details>, the first ones stay open", "[markdown]") {
  std::string md = "# title\n\nopening\n\n## Diagnosis\n\n";
  for (int i = 0; i < 50; ++i)
    md += "- line " + std::to_string(i) + "\n";
  md += "\n## Kernels\n\n";
  for (int i = 0; i < 50; ++i)
    md += "| " + std::to_string(i) + " |\n";
  md += "\n## Short\n\none line\n";
  const std::string folded = FoldLongSections(md, 1, 30);
  CHECK(Count(folded, "<details>") == 1);
  CHECK(Count(folded, "</details>") == 1);
  CHECK(folded.find("<details>") > folded.find("## Kernels"));
  CHECK(folded.find("<summary>Kernels (51 lines)</summary>") != std::string::npos);
  CHECK(folded.find("## Short\n\none line\n") != std::string::npos);
  CHECK(folded.find("- line 49") < folded.find("## Kernels"));
}

TEST_CASE("report.md stays under 60,000 characters whatever the report", "[markdown]") {
  MarkdownOptions options;
  options.top_rows = 100000;  // --top 100000 asks for everything
  const std::string md = ToMarkdownWithin(HugeReport(), options);
  CHECK(md.size() <= kMarkdownBudgetChars);
  CHECK(md.find("report.json has") != std::string::npos);
  CHECK(Count(md, "<details>") == Count(md, "</details>"));
  // A small report is left as it is, apart from folding.
  AnalysisReport small;
  small.source.path = "small.json";
  const std::string plain = ToMarkdownWithin(small, MarkdownOptions{});
  CHECK(plain == FoldLongSections(ToMarkdown(small, MarkdownOptions{})));
}

}  // namespace gpuperf::report
