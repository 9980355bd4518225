#include "cli/trace_input.h"

#include "gpuperf/import.h"

#include "analysis/timeline/device_remap.h"

namespace gpuperf::cli {

Result<model::Trace> ImportTraceForAnalysis(const std::string& path) {
  auto trace = io::ImportTraceFile(path);
  if (trace.ok())
    analysis::ResolveDeviceRemap(*trace);
  return trace;
}

}  // namespace gpuperf::cli
