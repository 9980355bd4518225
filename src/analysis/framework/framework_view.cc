#include "analysis/framework/framework_view.h"

namespace gpuperf::analysis::framework {

report::FrameworkView ComputeFrameworkView(const model::Trace& trace,
                                           const CorrelationIndex& index,
                                           const FrameworkOptions& options,
                                           KernelFrameworkMap& kernels,
                                           std::string& error) {
  report::FrameworkView view;
  LaunchTree tree = BuildLaunchTree(trace);
  CallActivities calls(trace, index);
  OpWorkMemo work(trace);
  FrameworkInput input{trace, tree, calls, {}, {}, 0, 0, &work};
  Categorize(input);
  view.op_source = tree.op_source;
  view.total_gpu_ns = input.total_gpu_ns;
  view.orphan_gpu_ns = input.orphan_gpu_ns;
  view.categories = CategoryTable(input);
  view.operators = OperatorTable(input, kernels);
  KernelCategories(input, kernels);
  ModuleTables(input, view);
  StepTable(input, options, view, error);
  return view;
}

}  // namespace gpuperf::analysis::framework
