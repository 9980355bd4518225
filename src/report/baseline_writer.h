// The writers of `gpuperf baseline`: baseline.json and report.md over the baseline model
// (gpuperf/baseline.h). They format and never compute.
#pragma once

#include "gpuperf/baseline.h"

#include <nlohmann/json.hpp>

#include <string>

#include "report/markdown_writer.h"

namespace gpuperf::report {

// baseline.json (baseline::kBaselineSchemaVersion; keys in docs/recorder.md).
nlohmann::ordered_json BaselineJson(const baseline::Baseline& data);

// report.md: the recording's summary, then, when data.analysis is set, the analysis' report.md
// rendered with `options`, its headings demoted one level under "Analysis of run N".
std::string BaselineMarkdown(const baseline::Baseline& data, const MarkdownOptions& options);

}  // namespace gpuperf::report
