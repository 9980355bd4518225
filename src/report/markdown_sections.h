// The sections of report.md, one function each, appended to `out`. Internal to the report layer.
#pragma once

#include "gpuperf/report.h"

#include <string>

#include "report/markdown_writer.h"

namespace gpuperf::report::markdown {

// The diagnosis (markdown_diagnosis.cc): bottleneck class, status, next experiment, falsifier.
void AppendDiagnosis(std::string& out,
                     const AnalysisReport& report,
                     const MarkdownOptions& options);
// The hierarchy (markdown_framework.cc): steps, modules, operators, categories, top kernels.
void AppendHierarchy(std::string& out, const AnalysisReport& report, const MarkdownOptions& options);
// The ceilings each device's kernels were placed against, and at what clocks.
void AppendCeilings(std::string& out, const AnalysisReport& report);
// Per-kernel class, evidence and tensor-core use; nothing when no kernel is classified.
void AppendClassification(std::string& out,
                          const AnalysisReport& report,
                          const MarkdownOptions& options);
void AppendFindings(std::string& out, const AnalysisReport& report, const MarkdownOptions& options);
void AppendPredictions(std::string& out,
                       const AnalysisReport& report,
                       const MarkdownOptions& options);
void AppendKernels(std::string& out, const AnalysisReport& report, const MarkdownOptions& options);
// The roofline table (markdown_roofline.cc); nothing when no kernel has hardware counters.
void AppendRoofline(std::string& out, const AnalysisReport& report, const MarkdownOptions& options);
// Nsight Compute evidence (markdown_ncu.cc): the --counters join, Speed of Light and rule
// results; nothing when the report has none of them.
void AppendNcuEvidence(std::string& out,
                       const AnalysisReport& report,
                       const MarkdownOptions& options);
// The occupancy table (markdown_occupancy.cc); nothing when no kernel has launch attributes.
void AppendOccupancy(std::string& out,
                     const AnalysisReport& report,
                     const MarkdownOptions& options);
// The tensor-core table (markdown_tensor_cores.cc); nothing when no kernel has evidence.
void AppendTensorCores(std::string& out,
                       const AnalysisReport& report,
                       const MarkdownOptions& options);
void AppendMemoryOps(std::string& out,
                     const AnalysisReport& report,
                     const MarkdownOptions& options);
void AppendApi(std::string& out, const AnalysisReport& report, const MarkdownOptions& options);
void AppendLaunch(std::string& out, const AnalysisReport& report);
void AppendAudit(std::string& out, const AnalysisReport& report);
void AppendRanges(std::string& out, const AnalysisReport& report, const MarkdownOptions& options);
void AppendDiagnostics(std::string& out, const AnalysisReport& report);

// "_Showing 20 of 31 kernels; report.json has all of them._" when rows were left out.
void AppendShownNote(std::string& out, std::size_t shown, std::size_t total, const char* what);

}  // namespace gpuperf::report::markdown
