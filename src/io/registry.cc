// The importer registry: probes decide the format from content, never from the file name.
#include "gpuperf/import.h"

#include <filesystem>
#include <memory>
#include <vector>

#include "io/importer.h"
#include "io/kineto/kineto_importer.h"
#include "io/ncu/ncu_importer.h"
#include "io/nsys/nsys_importer.h"
#include "io/sniff.h"
#include "io/spool/spool_importer.h"
#include "model/compact.h"
#include "model/record_limit.h"

namespace gpuperf::io {
namespace {

const std::vector<std::unique_ptr<Importer>>& Importers() {
  static const auto* importers = [] {
    auto* list = new std::vector<std::unique_ptr<Importer>>();
    list->push_back(MakeSpoolImporter());
    list->push_back(MakeNsysImporter());
    list->push_back(MakeKinetoImporter());
    list->push_back(MakeNcuImporter());
    return list;
  }();
  return *importers;
}

// A model at the record limit (model/record_limit.h) is not the whole input: an error, never a
// partial analysis. What an importer drops at the limit is the catalogue's error severity.
Status CheckRecordLimit(const model::Trace& trace, const std::string& name) {
  std::int64_t dropped = 0;
  for (const auto& [what, count] : trace.diagnostics.counts) {
    if (model::Describe(what).severity == model::DiagnosticSeverity::kError)
      dropped += count;
  }
  if (dropped == 0 && model::RecordCount(trace) <= model::MaxTraceRecords())
    return Status::Ok();
  return Error{name + ": more than " + std::to_string(model::MaxTraceRecords()) +
               " records (the limit of --max-records; raise it to read this input)"};
}

Result<model::Trace> ImportInput(const Input& input) {
  for (const auto& importer : Importers()) {
    if (!importer->Probe(input.head()))
      continue;
    auto trace = importer->Import(input);
    if (!trace.ok())
      return trace.error();
    if (Status bounded = CheckRecordLimit(*trace, input.name()); !bounded)
      return bounded.error();
    model::ReleaseSpareCapacity(*trace);
    trace->metadata.source_path = input.name();
    trace->metadata.format = std::string(importer->FormatName());
    trace->metadata.has_timeline = importer->HasTimeline();
    trace->metadata.framework_profiler = importer->IsFrameworkProfiler();
    return trace;
  }
  return Error{input.name() +
               ": not a trace gpuperf reads: " + DescribeInput(input.name(), input.head())};
}

}  // namespace

bool FormatHasTimeline(std::string_view format_name) {
  for (const auto& importer : Importers()) {
    if (importer->FormatName() == format_name)
      return importer->HasTimeline();
  }
  return true;
}

Result<model::Trace> ImportTraceFile(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    return Error{path + ": is a directory; name one trace file in it, or run `gpuperf ranks " +
                 path + "` for the rank traces of one job"};
  }
  auto input = Input::FromFile(path);
  if (!input.ok())
    return input.error();
  return ImportInput(*input);
}

Result<model::Trace> ImportTraceMemory(std::string_view data, const std::string& name) {
  auto input = Input::FromMemory(data, name);
  if (!input.ok())
    return input.error();
  return ImportInput(*input);
}

}  // namespace gpuperf::io
