// The writers of `gpuperf baseline`: baseline.json and report.md over the baseline model
// (gpuperf/baseline.h). They format and never compute.
#pragma once

#include "gpuperf/baseline.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "report/markdown_writer.h"

namespace gpuperf::report {

// baseline.json (baseline::kBaselineSchemaVersion; keys in docs/recorder.md); `analysis` is the
// analysis of run data.analyzed_run, when there is one (its report.json is beside).
nlohmann::ordered_json BaselineJson(const baseline::Baseline& data,
                                    const std::optional<AnalysisReport>& analysis);

// report.md: the recording's summary, then, when `analysis` is set, its report.md rendered with
// `options`, its headings demoted one level under "Analysis of run N".
std::string BaselineMarkdown(const baseline::Baseline& data,
                             const std::optional<AnalysisReport>& analysis,
                             const MarkdownOptions& options);

}  // namespace gpuperf::report
