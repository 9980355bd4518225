#include "cli/analyze_command.h"

#include <cstdio>

#include "cli/errors.h"
#include "gpuperf/analyze.h"
#include "gpuperf/import.h"

namespace gpuperf::cli {

CLI::App* AnalyzeCommand::Register(CLI::App& app) {
  CLI::App* sub = app.add_subcommand("analyze", "Analyze a trace (Kineto JSON, Nsight Systems SQLite)");
  sub->add_option("trace", trace_path_, "Trace file")->required();
  sub->add_option("--out", out_dir_, "Output directory for report.json and report.md");
  sub->add_option("--format", formats_, "Comma-separated output formats: md,json")->delimiter(',');
  sub->add_option("--top", top_, "Rows in the terminal summary and Markdown tables");
  return sub;
}

int AnalyzeCommand::Run() {
  auto trace = io::ImportTraceFile(trace_path_);
  if (!trace.ok()) {
    PrintError(trace.error().message);
    return kExitFailure;
  }
  auto report = analysis::Analyze(*trace);
  std::printf("%s\n", report.headline.c_str());
  return kExitOk;
}

}  // namespace gpuperf::cli
