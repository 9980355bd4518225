// The input checked against the model before any lever (docs/method.md, "Input against the
// model"): a model that resizes its learned embeddings in the forward pass runs on an input of
// another size than it was built for. Every stage that grows with the input, its preparation on
// the host included, grows with it, so the first question is whether that input is intended.
#include "analysis/diagnosis/input_check.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>
#include <vector>

namespace gpuperf::analysis {
namespace {

// "8" or "14x14": a resized embedding's positions per axis.
std::string Axes(const std::vector<std::int64_t>& axes) {
  return fmt::format("{}", fmt::join(axes, "x"));
}

// What the resized axes count: a sequence (frames or tokens) or a grid of patches.
const char* Positions(const report::ResizedEmbedding& e) {
  return e.from.size() == 1 ? "positions along its sequence (frames or tokens)"
                            : "patch-grid positions";
}

// The operator and its calls, the source of the check.
std::string Source(const report::ResizedEmbedding& e) {
  return fmt::format(
      "({}, {} call{}; trace: operator shapes)", e.op, e.calls, e.calls == 1 ? "" : "s");
}

}  // namespace

std::string InputCheck(const report::FrameworkView& view) {
  if (view.resized_embeddings.empty())
    return "";
  const report::ResizedEmbedding& e = view.resized_embeddings.front();  // the largest growth
  return fmt::format("its {} resize a learned embedding {:.3g}x, from {} to {} positions",
                     e.module,
                     e.Growth(),
                     Axes(e.from),
                     Axes(e.to));
}

void PrependInputCheck(report::Diagnosis& d, const report::FrameworkView& view) {
  std::string check = InputCheck(view);
  if (check.empty() || d.next_experiment.empty())
    return;
  const report::ResizedEmbedding& e = view.resized_embeddings.front();
  d.input_check = check;
  d.scope += fmt::format("; the input holds {:.3g}x the {} the model's {} were built for",
                         e.Growth(),
                         Positions(e),
                         e.module);
  d.support.push_back(fmt::format(
      "The input does not match the model: in the forward pass {} {}. The input holds {:.3g}x "
      "the {} the checkpoint was built for, and the work that grows with them (attention's with "
      "their square) grows with it.",
      check,
      Source(e),
      e.Growth(),
      Positions(e)));
  d.next_experiment = fmt::format(
      "Check the input against the model first: {} {}, so the input holds {:.3g}x the {} the "
      "model was built for. Feed it inputs of that size ({}), or configure the model for this "
      "size and validate its outputs: a model whose layers keep the checkpoint's size (a config "
      "field read in each layer) regroups the extra positions into its other axes, and its "
      "attention grows with their square. Either way every stage that grows with the input, its "
      "preparation on the host included, changes with it, so profile again before tuning. {}{}",
      check,
      Source(e),
      e.Growth(),
      Positions(e),
      Axes(e.from),
      kIfIntended,
      d.next_experiment);
}

}  // namespace gpuperf::analysis
