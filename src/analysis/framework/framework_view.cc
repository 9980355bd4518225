#include "analysis/framework/framework_view.h"

#include "analysis/framework/unmarked_threads.h"
#include "analysis/kernel/readable_name.h"

namespace gpuperf::analysis::framework {

report::FrameworkView ComputeFrameworkView(const model::Trace& trace,
                                           const CorrelationIndex& index,
                                           const DeviceRoofsTable& roofs,
                                           const FrameworkOptions& options,
                                           KernelFrameworkMap& kernels,
                                           std::string& error) {
  report::FrameworkView view;
  LaunchTree tree = BuildLaunchTree(trace);
  CallActivities calls(trace, index);
  OpWorkMemo work(trace);
  FrameworkInput input{trace, tree, calls, {}, {}, 0, 0, &work, &roofs};
  Categorize(input);
  view.op_source = tree.op_source;
  view.total_gpu_ns = input.total_gpu_ns;
  view.orphan_gpu_ns = input.orphan_gpu_ns;
  if (view.total_gpu_ns > 0)
    view.orphan_fraction =
        static_cast<double>(view.orphan_gpu_ns) / static_cast<double>(view.total_gpu_ns);
  view.categories = CategoryTable(input);
  view.operators = OperatorTable(input, kernels);
  view.unmarked_threads = UnmarkedLaunchThreads(input);
  SumUnmarkedThreads(view);
  view.elementwise_chains = ElementwiseChainTable(input, view.operators);
  for (report::CategoryRow& category : view.categories) {
    for (const std::string& op : category.top_operators)
      category.top_operators_display.push_back(OperatorDisplayName(view, op));
  }
  KernelCategories(input, kernels);
  ModuleTables(input, view);
  view.resized_embeddings = ResizedEmbeddingTable(input);
  StepTable(input, options, view, error);
  // Runs marked as steps are iterations by the user's own account.
  if (view.steps.size() < 2)
    view.repeated_forward = RepeatedForwardCheck(input);
  return view;
}

}  // namespace gpuperf::analysis::framework
