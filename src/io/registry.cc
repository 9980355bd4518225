// The importer registry: probes decide the format from content, never from the file name.
#include "gpuperf/import.h"

#include <memory>
#include <vector>

#include "io/importer.h"
#include "io/kineto/kineto_importer.h"
#include "io/ncu/ncu_importer.h"
#include "io/nsys/nsys_importer.h"
#include "io/sniff.h"

namespace gpuperf::io {
namespace {

const std::vector<std::unique_ptr<Importer>>& Importers() {
  static const auto* importers = [] {
    auto* list = new std::vector<std::unique_ptr<Importer>>();
    list->push_back(MakeNsysImporter());
    list->push_back(MakeKinetoImporter());
    list->push_back(MakeNcuImporter());
    return list;
  }();
  return *importers;
}

Result<model::Trace> ImportInput(const Input& input) {
  for (const auto& importer : Importers()) {
    if (!importer->Probe(input.head()))
      continue;
    auto trace = importer->Import(input);
    if (!trace.ok())
      return trace.error();
    trace->metadata.source_path = input.name();
    trace->metadata.format = std::string(importer->FormatName());
    return trace;
  }
  return Error{input.name() + ": not a trace gpuperf reads: " + DescribeContent(input.head())};
}

}  // namespace

Result<model::Trace> ImportTraceFile(const std::string& path) {
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
