// The framework view (gpuperf/framework.h): operators, categories, modules and steps, built on
// one launch tree (launch_tree.h). Each table has its own file; ComputeFrameworkView runs them.
#pragma once

#include "gpuperf/framework.h"
#include "gpuperf/trace.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/core/correlation.h"
#include "analysis/framework/categories.h"
#include "analysis/framework/launch_tree.h"
#include "analysis/kernel/device_roofs.h"
#include "analysis/kernel/shape_model.h"

namespace gpuperf::analysis::framework {

struct FrameworkOptions {
  // Steps are the ranges (NVTX, annotations, operators) whose name matches this ECMAScript
  // regex; empty: ProfilerStep#N.
  std::string step_range;
};

// Per kernel name: the operator that launched most of its time and the category of most of it
// (KernelRow::top_operator, KernelRow::category).
struct KernelFramework {
  std::string top_operator;
  std::optional<FrameworkCategory> category;
};
using KernelFrameworkMap = std::map<std::string, KernelFramework>;

// What every table reads: the tree, the activities per call and each activity's category.
struct FrameworkInput {
  const model::Trace& trace;
  const LaunchTree& tree;
  const CallActivities& calls;
  std::vector<FrameworkCategory> category;  // per activity
  std::vector<std::uint8_t> tier;  // per activity: 0 operator, 1 kernel name, 2 activity kind
  std::int64_t total_gpu_ns = 0;   // summed duration of every activity
  std::int64_t orphan_gpu_ns = 0;  // of it, activities without a launch call
  OpWorkMemo* work = nullptr;      // the shape models' work per host op
  const DeviceRoofsTable* roofs = nullptr;  // each device's ceilings (the step table's MFU)
};

// Per activity: the category and the tier that decided it (FrameworkInput::category / tier).
void Categorize(FrameworkInput& input);
std::vector<report::CategoryRow> CategoryTable(const FrameworkInput& input);
// Fills KernelFramework::category of every kernel name.
void KernelCategories(const FrameworkInput& input, KernelFrameworkMap& kernels);

// report::OperatorRow per operator name; fills KernelFramework::top_operator.
std::vector<report::OperatorRow> OperatorTable(const FrameworkInput& input,
                                               KernelFrameworkMap& kernels);

// The elementwise chains of the operators' launches (report::ElementwiseChains).
report::ElementwiseChains ElementwiseChainTable(const FrameworkInput& input,
                                                const std::vector<report::OperatorRow>& operators);

void ModuleTables(const FrameworkInput& input, report::FrameworkView& view);

// Learned embeddings the forward pass resizes (report::ResizedEmbedding), growth >= 1.5 only,
// aggregated by (module class, operator, from, to).
std::vector<report::ResizedEmbedding> ResizedEmbeddingTable(const FrameworkInput& input);

// The window's outermost module class run N >= 2 times on the same operator shapes while the
// trace loads its input fewer than N times (report::RepeatedForward); nullopt otherwise.
std::optional<report::RepeatedForward> RepeatedForwardCheck(const FrameworkInput& input);

// Steps and their summary; `error` is set (and nothing computed) on an invalid --step-range.
void StepTable(const FrameworkInput& input,
               const FrameworkOptions& options,
               report::FrameworkView& view,
               std::string& error);

// The whole view, and what it says of each kernel name; `roofs` are each device's ceilings.
report::FrameworkView ComputeFrameworkView(const model::Trace& trace,
                                           const CorrelationIndex& index,
                                           const DeviceRoofsTable& roofs,
                                           const FrameworkOptions& options,
                                           KernelFrameworkMap& kernels,
                                           std::string& error);

}  // namespace gpuperf::analysis::framework
