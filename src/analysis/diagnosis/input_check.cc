// The input checked against the model before any lever (docs/method.md, "Input against the
// model"). A model that resizes its learned embeddings in the forward pass runs on an input of
// another size than it was built for: every stage that grows with the input, its preparation on
// the host included, grows with it. A model run several times on one loaded input may compute the
// same thing each time: every stage repeats. Either way the first question is whether the work
// is intended, and each lever's gain is measured on work that may change.
#include "analysis/diagnosis/input_check.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <optional>
#include <string>
#include <vector>

#include "analysis/findings/findings.h"
#include "analysis/predictions/amdahl.h"

namespace gpuperf::analysis {
namespace {

// One check: its clause for the headline and input_check, and its texts.
struct Check {
  std::string clause;
  std::string scope;
  std::string support;
  std::string experiment;
};

// "8" or "14x14": a resized embedding's positions per axis.
std::string Axes(const std::vector<std::int64_t>& axes) {
  return fmt::format("{}", fmt::join(axes, "x"));
}

// What the resized axes count: a sequence (frames or tokens) or a grid of patches.
const char* Positions(const report::ResizedEmbedding& e) {
  return e.from.size() == 1 ? "positions along its sequence (frames or tokens)"
                            : "patch-grid positions";
}

const char* Plural(std::int64_t n) {
  return n == 1 ? "" : "s";
}

// The operator and its calls, the source of the check.
std::string Source(const report::ResizedEmbedding& e) {
  return fmt::format("({}, {} call{}; trace: operator shapes)", e.op, e.calls, Plural(e.calls));
}

// The resized embedding with the largest growth.
std::optional<Check> ResizeCheck(const report::FrameworkView& view) {
  if (view.resized_embeddings.empty())
    return std::nullopt;
  const report::ResizedEmbedding& e = view.resized_embeddings.front();
  Check c;
  c.clause = fmt::format("its {} resize a learned embedding {:.3g}x, from {} to {} positions",
                         e.module,
                         e.Growth(),
                         Axes(e.from),
                         Axes(e.to));
  c.scope = fmt::format("the input holds {:.3g}x the {} the model's {} were built for",
                        e.Growth(),
                        Positions(e),
                        e.module);
  c.support = fmt::format(
      "The input does not match the model: in the forward pass {} {}. The input holds {:.3g}x "
      "the {} the checkpoint was built for, and the work that grows with them (attention's with "
      "their square) grows with it.",
      c.clause,
      Source(e),
      e.Growth(),
      Positions(e));
  c.experiment = fmt::format(
      "Check the input against the model first: {} {}, so the input holds {:.3g}x the {} the "
      "model was built for. Feed it inputs of that size ({}), or configure the model for this "
      "size and validate its outputs: a model whose layers keep the checkpoint's size (a config "
      "field read in each layer) regroups the extra positions into its other axes, and its "
      "attention grows with their square. Either way every stage that grows with the input, its "
      "preparation on the host included, changes with it, so profile again before tuning.",
      c.clause,
      Source(e),
      e.Growth(),
      Positions(e),
      Axes(e.from));
  return c;
}

// One loaded input run through a module several times on the same shapes (the outermost one, or
// the part of it that repeats whole). The
// bound keeps the first run and removes the rest of the repeats' span: everything from the end of
// the first run to the end of the last (an upper bound: each query's own work stays).
std::optional<Check> RepeatCheck(const report::FrameworkView& view,
                                 std::int64_t window_ns,
                                 std::optional<double>& bound) {
  if (!view.repeated_forward)
    return std::nullopt;
  const report::RepeatedForward& f = *view.repeated_forward;
  if (f.repeats_ns <= 0 || f.repeats_ns >= window_ns)
    return std::nullopt;
  bound = AmdahlLimit(static_cast<double>(f.repeats_ns) / static_cast<double>(window_ns));
  Check c;
  c.clause = fmt::format(
      "it runs {} {} times on the same shapes from {} loaded input{}: at most {:.2f}x faster if "
      "the runs repeat one computation",
      f.module,
      f.runs,
      f.loads,
      Plural(f.loads),
      *bound);
  c.scope = fmt::format("{} loaded input{} run{} through {} {} times",
                        f.loads,
                        Plural(f.loads),
                        f.loads == 1 ? "s" : "",
                        f.module,
                        f.runs);
  std::string evidence = fmt::format(
      "{} runs {} times{}{}, each the same {} operator call{} on the same input shapes, while "
      "the window loads its input {} ({})",
      f.module,
      f.runs,
      f.within.empty() ? "" : fmt::format(" (in each run of {})", f.within),
      f.call.empty() ? "" : fmt::format(", all inside one call of {}", f.call),
      f.operators,
      Plural(f.operators),
      f.loads == 1 ? std::string("once") : fmt::format("{} times", f.loads),
      f.load);
  c.support = fmt::format(
      "The work may repeat on one input: {}. From the end of the first run to the end of the "
      "last is {}, {:.1f}% of the window (trace: Python frames and operator shapes). The trace "
      "records shapes, not values: whether the runs see the same data is the check.",
      evidence,
      Ms(f.repeats_ns),
      100.0 * static_cast<double>(f.repeats_ns) / static_cast<double>(window_ns));
  c.experiment = fmt::format(
      "Check the work against its input first: {} (trace: Python frames and operator shapes). A "
      "pipeline that loops over labels, prompts or crops of one input (Hugging Face's zero-shot "
      "object-detection and text-classification pipelines run the whole model once per label) "
      "prepares and encodes the same data in "
      "every run. If the runs see the same data, compute what they share once (one forward with "
      "all the queries batched, or the shared encoder's output reused) and check that the "
      "outputs match: that removes at most the {} from the end of the first run to the end of "
      "the last, at most {:.2f}x faster (Amdahl; less, since each query's own work stays). If "
      "the repeats are deliberate (a timing loop), mark each with a step (torch.profiler's "
      "step(), or --step-range) and they are analysed as steps.",
      evidence,
      Ms(f.repeats_ns),
      *bound);
  return c;
}

}  // namespace

void PrependInputCheck(report::Diagnosis& d,
                       const report::FrameworkView& view,
                       std::int64_t window_ns) {
  if (d.next_experiment.empty())
    return;
  std::optional<double> bound;
  // Repeated runs first: they multiply every stage, an input's size included.
  std::vector<Check> checks;
  for (std::optional<Check> c : {RepeatCheck(view, window_ns, bound), ResizeCheck(view)}) {
    if (c)
      checks.push_back(std::move(*c));
  }
  if (checks.empty())
    return;
  std::string experiments;
  for (const Check& c : checks) {
    d.input_check += (d.input_check.empty() ? "" : "; ") + c.clause;
    d.scope += "; " + c.scope;
    d.support.push_back(c.support);
    experiments += c.experiment + " ";
  }
  d.input_check_bound_speedup = bound;
  // Repeats that hold more of the window than the statement's lever gives back are the
  // diagnosis: every stage, the lever's work included, runs once per repeat.
  if (bound && (!d.bound_speedup || *bound > *d.bound_speedup))
    d.lead = report::DiagnosisLead::kInputCheck;
  d.next_experiment = experiments + std::string(kIfIntended) + d.next_experiment;
  // The other half's experiment and bound rest on the same work the checks may change.
  for (report::Diagnosis& s : d.secondary) {
    if (s.next_experiment.empty())
      continue;
    s.next_experiment = std::string(kIfIntended) + s.next_experiment;
    s.support.push_back(fmt::format(
        "This statement is for the input as it is: the input check above ({}) changes the work "
        "its bound rests on, so settle the check before acting on it.",
        d.input_check));
  }
}

}  // namespace gpuperf::analysis
