#include "cli/baseline_traces.h"

#include <fmt/format.h>

#include <algorithm>

#include "io/spool/spool_model.h"
#include "io/spool/spool_reader.h"
#include "report/kineto_trace_writer.h"
#include "util/gzip_text.h"

namespace gpuperf::cli {
namespace {

// A problem of run `index`, unless the same one is listed already: the figures were read from
// the same spools first (record::ReadRunFigures), so an unreadable spool is reported there.
void AddProblem(record::BaselineData& data, int index, const std::string& message) {
  const std::string problem = fmt::format("run {}: {}", index, message);
  if (std::find(data.problems.begin(), data.problems.end(), problem) == data.problems.end())
    data.problems.push_back(problem);
  data.complete = false;
}

Status StageProcessTrace(const record::BaselineSession& session, const record::RunSpool& spool) {
  auto contents = io::ReadSpoolFile(spool.spool_path);
  if (!contents)
    return contents.error();
  const report::KinetoTraceOptions options{spool.trace_file, session.data.probe.driver_api_version};
  std::string text = report::ToKinetoJson(io::SpoolsToTrace({*contents}), options);
  if (session.data.options.gzip) {
    auto compressed = util::GzipText(text);
    if (!compressed)
      return Error{(session.tmp() / spool.trace_file).string() + ": " + compressed.error().message};
    text = std::move(*compressed);
  }
  return record::StageBaselineFile(session, spool.trace_file, text);
}

}  // namespace

void StageRunTraces(record::BaselineSession& session) {
  record::BaselineData& data = session.data;
  for (record::MeasuredRun& run : data.runs) {
    for (const record::RunSpool& spool :
         record::RunSpools(session.tmp().string(), run, data.options.gzip)) {
      if (Status staged = StageProcessTrace(session, spool); !staged) {
        AddProblem(data, run.index, staged.error().message);
        break;
      }
      run.trace_files.push_back(spool.trace_file);
    }
  }
}

}  // namespace gpuperf::cli
