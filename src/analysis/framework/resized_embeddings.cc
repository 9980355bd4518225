// Learned embeddings resized in the forward pass (report::ResizedEmbedding): the evidence that the
// input does not match the size the model was built for, which no timing of its kernels shows.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <string_view>
#include <tuple>

#include "analysis/core/names.h"
#include "analysis/framework/framework_view.h"
#include "analysis/kernel/shape_model.h"

namespace gpuperf::analysis::framework {
namespace {

// Under this growth the resize is rounding (a 14 -> 16 patch grid), not another input size.
constexpr double kMinGrowth = 1.5;

bool IsInterpolation(std::string_view op) {
  return op.starts_with("aten::upsample_") || op.starts_with("aten::_upsample_");
}

// "[128]", "[32, 32]", "[2.0, 2.0]": the numbers of a flat list; empty when the text is not one.
std::vector<double> NumberList(std::string_view text) {
  std::vector<double> out;
  if (text.size() < 2 || text.front() != '[' || text.back() != ']')
    return out;
  text = text.substr(1, text.size() - 2);
  while (!text.empty()) {
    while (!text.empty() && (text.front() == ' ' || text.front() == ','))
      text.remove_prefix(1);
    if (text.empty())
      break;
    double value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || !std::isfinite(value))
      return {};
    out.push_back(value);
    text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  }
  return out;
}

// The resized axes of an interpolation's first input and their sizes after it: the output size
// argument when recorded, else the scale factors. Empty when the shapes say neither.
std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>> Resize(
    std::string_view dims_text, std::string_view concrete_text) {
  std::optional<InputDims> dims = ParseInputDims(dims_text);
  std::optional<std::vector<std::string>> concrete = ParseConcreteInputs(concrete_text);
  if (!dims || dims->empty() || !dims->front() || !concrete)
    return {};
  const std::vector<std::int64_t>& input = *dims->front();
  // A parameter has a batch dimension of 1; a batch of inputs (a feature map) is no embedding.
  if (input.size() < 3 || input.size() > 5 || input[0] != 1)
    return {};
  std::vector<std::int64_t> from(input.begin() + 2, input.end());
  std::optional<std::vector<std::int64_t>> to;
  for (std::size_t i = 1; i < concrete->size() && !to; ++i) {  // [0] is the tensor
    const std::string& text = (*concrete)[i];
    std::vector<double> values = NumberList(text);
    if (values.size() != from.size())
      continue;
    // Python prints sizes as integers ("[128]") and scale factors as floats ("[2.0]").
    bool sizes = text.find_first_of(".eE") == std::string::npos;
    std::vector<std::int64_t> axes;
    for (std::size_t a = 0; a < values.size(); ++a)
      axes.push_back(
          sizes ? static_cast<std::int64_t>(values[a])
                : static_cast<std::int64_t>(std::floor(values[a] * static_cast<double>(from[a]))));
    to = std::move(axes);
  }
  if (!to)
    return {};
  return {std::move(from), std::move(*to)};
}

}  // namespace

std::vector<report::ResizedEmbedding> ResizedEmbeddingTable(const FrameworkInput& input) {
  const LaunchTree& tree = input.tree;
  const model::Trace& trace = input.trace;
  using Key =
      std::tuple<std::string, std::string, std::vector<std::int64_t>, std::vector<std::int64_t>>;
  std::map<Key, std::int64_t> calls;
  if (tree.nvtx_ops)
    return {};
  for (const OpInstance& op : tree.ops) {
    if (op.module == kNone)
      continue;
    std::string_view name = trace.Name(tree.Name(op));
    if (!IsInterpolation(name))
      continue;
    // A dispatcher re-entry (__torch_function__) records the same operator inside itself: one
    // call.
    if (op.parent != kNone && tree.Name(tree.ops[op.parent]) == tree.Name(op))
      continue;
    std::string_view module = ModuleClassName(
        ModuleInstanceName(trace.Name(trace.python_frames[tree.modules[op.module].frame].name)));
    if (AsciiLower(module).find("embed") == std::string::npos)
      continue;
    const model::HostOp& host = trace.host_ops[op.source];
    auto [from, to] = Resize(trace.Name(host.input_dims), trace.Name(host.concrete_inputs));
    if (from.empty())
      continue;
    ++calls[Key{std::string(module), std::string(name), std::move(from), std::move(to)}];
  }
  std::vector<report::ResizedEmbedding> out;
  for (auto& [key, n] : calls) {
    report::ResizedEmbedding row{
        std::get<0>(key), std::get<1>(key), std::get<2>(key), std::get<3>(key), n};
    if (row.Growth() >= kMinGrowth)
      out.push_back(std::move(row));
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.Growth() > b.Growth() || (a.Growth() == b.Growth() && a.calls > b.calls);
  });
  return out;
}

}  // namespace gpuperf::analysis::framework
