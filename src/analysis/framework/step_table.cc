#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "analysis/core/statistics.h"
#include "analysis/framework/framework_view.h"
#include "analysis/kernel/device_roofs.h"
#include "analysis/kernel/shape_model.h"
#include "analysis/timeline/critical_time.h"
#include "analysis/timeline/step_windows.h"
#include "util/intervals.h"
#include "util/sort_runs.h"
#include "util/user_regex.h"

namespace gpuperf::analysis::framework {
namespace {

// The kernels an MFU's FLOPs come from: GEMMs, convolutions and attention.
bool IsMath(FrameworkCategory category) {
  return category == FrameworkCategory::kGemm || category == FrameworkCategory::kConvolution ||
         category == FrameworkCategory::kAttention;
}

class StepBuilder {
 public:
  explicit StepBuilder(const FrameworkInput& input) : in_(input), trace_(input.trace) {
    std::vector<util::Interval> all;
    for (const model::GpuActivity& a : trace_.activities)
      all.push_back({a.start_ns, a.end_ns});
    busy_ = util::MergeIntervals(std::move(all));
    for (std::uint32_t call : in_.tree.call_order) {
      if (!in_.calls.Of(call).empty())
        launches_.push_back(call);
    }
    util::SortRuns(launches_.begin(), launches_.end(), [&](std::uint32_t a, std::uint32_t b) {
      return trace_.api_calls[a].start_ns < trace_.api_calls[b].start_ns;
    });
    window_start_ = ComputeTraceWindow(trace_).start_ns;
  }

  report::StepRow Step(const StepWindow& window) {
    report::StepRow row;
    row.name = window.name;
    row.start_ns = window.start_ns - window_start_;
    row.wall_ns = window.end_ns - window.start_ns;
    row.gpu_busy_ns = util::CoveredLength(busy_, window.start_ns, window.end_ns);
    row.idle_ns = row.wall_ns - row.gpu_busy_ns;
    auto first = std::lower_bound(
        launches_.begin(),
        launches_.end(),
        window.start_ns,
        [&](std::uint32_t call, model::TimeNs t) { return trace_.api_calls[call].start_ns < t; });
    std::set<std::int64_t> modeled_ops;
    std::vector<util::Interval> launched;
    double ideal_s = 0;
    std::int64_t flops = 0;
    bool any_model = false;
    for (auto it = first; it != launches_.end(); ++it) {
      const model::ApiCall& call = trace_.api_calls[*it];
      if (call.start_ns >= window.end_ns)
        break;
      if (window.pid != model::kNoId && call.pid != model::kNoId && call.pid != window.pid)
        continue;
      std::int64_t op = in_.tree.launcher[*it];
      const OpWork* modeled = nullptr;  // the launching operator's modelled work
      if (op >= 0 && in_.tree.op_source == report::OperatorSource::kCpuOp) {
        if (const auto& work_of_op = Work(static_cast<std::size_t>(op)))
          modeled = &*work_of_op;
      }
      for (std::uint32_t i : in_.calls.Of(*it)) {
        row.kernel_ns += trace_.activities[i].duration_ns();
        ++row.launches;
        launched.push_back({trace_.activities[i].start_ns, trace_.activities[i].end_ns});
        if (!modeled && IsMath(in_.category[i]))
          row.unmodeled_math_ns += trace_.activities[i].duration_ns();
      }
      if (!modeled || !modeled_ops.insert(op).second)
        continue;
      any_model = true;
      flops += modeled->flops;
      const model::GpuActivity& ran = trace_.activities[in_.calls.Of(*it).front()];
      OpWork work = *modeled;  // at the peak of the math path its kernel runs on
      ApplyKernelMathPath(work, trace_.Name(ran.name));
      auto peak = Peak(ran.device, work);
      ideal_s = peak && *peak > 0 && ideal_s >= 0
                    ? ideal_s + static_cast<double>(work.flops) / *peak
                    : -1;  // one op without a roof: no MFU
    }
    row.launched_busy_ns = util::TotalLength(util::MergeIntervals(std::move(launched)));
    if (row.kernel_ns > 0)
      row.unmodeled_math_fraction =
          static_cast<double>(row.unmodeled_math_ns) / static_cast<double>(row.kernel_ns);
    if (any_model) {
      row.flops = flops;
      // Missing the FLOPs of unmodelled GEMMs, convolutions or attention, the figure would
      // understate the utilisation: no MFU then.
      bool covered = row.unmodeled_math_ns <= row.kernel_ns / 10;
      if (ideal_s >= 0 && row.wall_ns > 0 && covered)
        row.mfu = ideal_s / (static_cast<double>(row.wall_ns) * 1e-9);
    }
    return row;
  }

 private:
  const std::optional<OpWork>& Work(std::size_t op) const {
    return in_.work->Of(trace_.host_ops[in_.tree.ops[op].source]);
  }

  std::optional<double> Peak(std::int32_t device, const OpWork& work) {
    const model::DeviceCeilings* entry = in_.roofs->Of(device).match.entry;
    if (!entry)
      return std::nullopt;
    return entry->Peak(work.precision, work.unit);
  }

  const FrameworkInput& in_;
  const model::Trace& trace_;
  std::vector<util::Interval> busy_;
  std::vector<std::uint32_t> launches_;  // calls that launched GPU work, by start
  model::TimeNs window_start_ = 0;
};

report::StepSummary Summarize(const std::vector<report::StepRow>& steps, std::string source) {
  report::StepSummary s;
  s.source = std::move(source);
  s.steps = static_cast<std::int64_t>(steps.size());
  std::vector<double> walls, mfus;
  for (const report::StepRow& step : steps) {
    walls.push_back(static_cast<double>(step.wall_ns));
    if (step.mfu)
      mfus.push_back(*step.mfu);
  }
  s.median_wall_ns = Median(walls);
  s.p95_wall_ns = Percentile(walls, 0.95);
  s.mad_wall_ns = MedianAbsoluteDeviation(walls);
  s.warmup_steps = static_cast<std::int64_t>(LeadingOutliers(walls));
  s.first_step_outlier = s.warmup_steps > 0;
  if (!mfus.empty())
    s.median_mfu = Median(mfus);
  // FLOPs over part of the work: the report says why there is no MFU rather than leave a bare
  // "-" (the same 10% as withholds a step's MFU).
  const report::StepRow& first = steps.front();
  if (!s.median_mfu && first.flops && first.kernel_ns > 0 &&
      first.unmodeled_math_ns > first.kernel_ns / 10)
    s.no_mfu_unmodeled_math_fraction = first.unmodeled_math_fraction;
  return s;
}

}  // namespace

void StepTable(const FrameworkInput& input,
               const FrameworkOptions& options,
               report::FrameworkView& view,
               std::string& error) {
  std::optional<util::UserRegex> pattern;
  if (!options.step_range.empty()) {
    auto compiled = util::UserRegex::Compile(options.step_range);
    if (!compiled.ok()) {
      error = "--step-range: " + compiled.error().message;
      return;
    }
    pattern = std::move(compiled).value();
  }
  // The same steps as bound the steady window (FindWindowSteps).
  WindowSteps found = FindWindowSteps(input.trace, pattern ? &*pattern : nullptr);
  const std::vector<StepWindow>& windows = found.steps;
  const std::string source = pattern        ? "--step-range " + options.step_range
                             : found.marked ? "ProfilerStep"
                                            : "Optimizer.step (from one call to the next)";
  if (windows.empty())
    return;
  StepBuilder builder(input);
  for (const StepWindow& window : windows)
    view.steps.push_back(builder.Step(window));
  view.step_summary = Summarize(view.steps, source);
}

}  // namespace gpuperf::analysis::framework
