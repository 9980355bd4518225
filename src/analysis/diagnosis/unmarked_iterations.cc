// Iterations a trace does not mark (docs/metrics.md, "Steps"): a loop whose GPU work repeats the
// same kernel launches each time (saxpy: 5 iterations of one kernel between copies) holds a
// run-to-run distribution of the iteration time even without step ranges. The period from one
// iteration's first kernel to the next's is that distribution; the baseline says it rather than
// "repeat the run".
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/core/statistics.h"
#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/findings/findings.h"
#include "analysis/kernel/readable_name.h"
#include "util/utf8.h"

namespace gpuperf::analysis {
namespace {

constexpr std::size_t kNameChars = 80;  // the full name is in the kernel table

}  // namespace

std::string UnmarkedIterationsText(const model::Trace& trace) {
  std::vector<std::size_t> kernels;
  for (std::size_t i = 0; i < trace.activities.size(); ++i) {
    if (trace.activities[i].kind == model::ActivityKind::kKernel)
      kernels.push_back(i);
  }
  if (kernels.size() < 3)
    return "";
  std::stable_sort(kernels.begin(), kernels.end(), [&](std::size_t a, std::size_t b) {
    return trace.activities[a].start_ns < trace.activities[b].start_ns;
  });
  // The first kernel anchors each iteration; every iteration runs the same launches, the last
  // one included (a loop cut short by the recording is not a clean repetition).
  model::NameId anchor = trace.activities[kernels.front()].name;
  std::vector<std::size_t> starts;  // positions in `kernels`
  for (std::size_t p = 0; p < kernels.size(); ++p) {
    if (trace.activities[kernels[p]].name == anchor)
      starts.push_back(p);
  }
  constexpr std::size_t kMinIterations = 3;
  if (starts.size() < kMinIterations)
    return "";
  std::size_t length = kernels.size() / starts.size();
  if (length * starts.size() != kernels.size())
    return "";
  for (std::size_t i = 0; i < starts.size(); ++i) {
    if (starts[i] != i * length)
      return "";
    for (std::size_t k = 0; k < length; ++k) {
      if (trace.activities[kernels[starts[i] + k]].name != trace.activities[kernels[k]].name)
        return "";
    }
  }
  std::vector<double> periods;
  for (std::size_t i = 0; i + 1 < starts.size(); ++i)
    periods.push_back(static_cast<double>(trace.activities[kernels[starts[i + 1]]].start_ns -
                                          trace.activities[kernels[starts[i]]].start_ns));
  return fmt::format(
      "its GPU work repeats in {} unmarked iterations ({}, the same {} kernel launch{} in each): "
      "the period from one iteration's first kernel to the next's, median {}, p95 {}, MAD {} "
      "over {} periods (trace: kernel start times), is its run-to-run distribution; mark the "
      "iterations (an NVTX range, --step-range) to analyse them as steps",
      starts.size(),
      util::Shorten(ReadableKernelName(trace.Name(anchor)), kNameChars),
      length,
      length == 1 ? "" : "es",
      Ms(static_cast<std::int64_t>(Median(periods))),
      Ms(static_cast<std::int64_t>(Percentile(periods, 0.95))),
      Ms(static_cast<std::int64_t>(MedianAbsoluteDeviation(periods))),
      periods.size());
}

}  // namespace gpuperf::analysis
