#include "analysis/framework/launch_tree.h"

#include <algorithm>
#include <tuple>

#include "util/sort_runs.h"

namespace gpuperf::analysis::framework {
namespace {

// Node kinds in the order a container sorts before what it contains when both start together.
enum class NodeKind : std::uint8_t { kAnnotation, kFrame, kOp, kCall };

struct Node {
  std::int64_t pid = 0;
  std::int64_t tid = 0;
  model::TimeNs start_ns = 0;
  model::TimeNs end_ns = 0;
  NodeKind kind = NodeKind::kCall;
  std::uint32_t index = 0;  // into the record vector of its kind (ops: LaunchTree::ops)
};

bool NodeBefore(const Node& a, const Node& b) {
  return std::tie(a.pid, a.tid, a.start_ns, b.end_ns, a.kind, a.index) <
         std::tie(b.pid, b.tid, b.start_ns, a.end_ns, b.kind, b.index);
}

struct StackEntry {
  const Node* node = nullptr;
  std::int64_t op = kNone;      // innermost operator instance at this depth
  std::int64_t module = kNone;  // innermost module node at this depth
};

bool IsHostRange(const model::Range& range) {
  return range.kind == model::RangeKind::kUserAnnotation ||
         range.kind == model::RangeKind::kProfilerStep || range.kind == model::RangeKind::kNvtx;
}

class TreeBuilder {
 public:
  explicit TreeBuilder(const model::Trace& trace) : trace_(trace) {}

  LaunchTree Build() {
    tree_.launcher.assign(trace_.api_calls.size(), kNone);
    tree_.innermost_op.assign(trace_.api_calls.size(), kNone);
    tree_.module.assign(trace_.api_calls.size(), kNone);
    CollectNodes();
    util::SortRuns(nodes_.begin(), nodes_.end(), NodeBefore);
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      const Node& node = nodes_[i];
      if (i == 0 || node.pid != nodes_[i - 1].pid || node.tid != nodes_[i - 1].tid)
        PopAll();
      while (!stack_.empty() && node.end_ns > stack_.back().node->end_ns)
        Pop();
      Visit(node);
    }
    PopAll();
    return std::move(tree_);
  }

 private:
  void CollectNodes() {
    bool nvtx_ops = trace_.host_ops.empty();
    tree_.op_source = trace_.host_ops.empty() ? "" : "cpu_op";
    // Only nn.Module frames: any other frame is transparent to both the launcher walk and the
    // module stack, and they are most of the nodes (65k of 100k on owlv2). Found first, so that
    // the nodes are reserved once: growing them would copy the largest array of the view.
    std::vector<std::uint32_t> module_frames;
    for (std::size_t i = 0; i < trace_.python_frames.size(); ++i) {
      if (!ModuleInstanceName(trace_.Name(trace_.python_frames[i].name)).empty())
        module_frames.push_back(static_cast<std::uint32_t>(i));
    }
    tree_.ops.reserve(nvtx_ops ? trace_.ranges.size() : trace_.host_ops.size());
    nodes_.reserve(trace_.host_ops.size() + trace_.ranges.size() + module_frames.size() +
                   trace_.api_calls.size());
    for (std::size_t i = 0; i < trace_.host_ops.size(); ++i) {
      const model::HostOp& op = trace_.host_ops[i];
      AddOp(op.name, op.start_ns, op.end_ns, op.pid, op.tid, i);
      tree_.ops.back().backward = op.IsBackward();
      tree_.ops.back().sequence = op.sequence;
    }
    for (std::size_t i = 0; i < trace_.ranges.size(); ++i) {
      const model::Range& r = trace_.ranges[i];
      if (!IsHostRange(r) || r.tid == model::kNoId)
        continue;
      if (nvtx_ops && r.kind == model::RangeKind::kNvtx) {
        tree_.op_source = "nvtx";
        AddOp(r.name, r.start_ns, r.end_ns, r.pid, r.tid, i);
      } else {
        nodes_.push_back({r.pid,
                          r.tid,
                          r.start_ns,
                          r.end_ns,
                          NodeKind::kAnnotation,
                          static_cast<std::uint32_t>(i)});
      }
    }
    for (std::uint32_t i : module_frames) {
      const model::PythonFrame& f = trace_.python_frames[i];
      const model::HostThread& thread = trace_.ThreadOf(f);
      nodes_.push_back({thread.pid, thread.tid, f.start_ns, f.end_ns, NodeKind::kFrame, i});
    }
    for (std::size_t i = 0; i < trace_.api_calls.size(); ++i) {
      const model::ApiCall& c = trace_.api_calls[i];
      nodes_.push_back(
          {c.pid, c.tid, c.start_ns, c.end_ns, NodeKind::kCall, static_cast<std::uint32_t>(i)});
    }
  }

  void AddOp(model::NameId name,
             model::TimeNs start,
             model::TimeNs end,
             std::int64_t pid,
             std::int64_t tid,
             std::size_t source) {
    OpInstance op;
    op.name = name;
    op.start_ns = start;
    op.end_ns = end;
    op.source = static_cast<std::uint32_t>(source);
    nodes_.push_back(
        {pid, tid, start, end, NodeKind::kOp, static_cast<std::uint32_t>(tree_.ops.size())});
    tree_.ops.push_back(op);
  }

  StackEntry Top() const { return stack_.empty() ? StackEntry{} : stack_.back(); }

  void Visit(const Node& node) {
    StackEntry entry = Top();
    entry.node = &node;
    switch (node.kind) {
      case NodeKind::kOp: {
        OpInstance& op = tree_.ops[node.index];
        op.parent = entry.op;
        op.module = entry.module;
        op.first_call = static_cast<std::uint32_t>(tree_.call_order.size());
        entry.op = node.index;
        break;
      }
      case NodeKind::kFrame: {
        std::string_view name = trace_.Name(trace_.python_frames[node.index].name);
        if (!ModuleInstanceName(name).empty()) {
          std::int32_t depth =
              entry.module == kNone
                  ? 0
                  : tree_.modules[static_cast<std::size_t>(entry.module)].depth + 1;
          tree_.modules.push_back({node.index, entry.module, depth});
          entry.module = static_cast<std::int64_t>(tree_.modules.size() - 1);
        }
        break;
      }
      case NodeKind::kCall:
        tree_.launcher[node.index] = Launcher();
        tree_.innermost_op[node.index] = entry.op;
        tree_.module[node.index] = entry.module;
        tree_.call_order.push_back(node.index);
        break;
      case NodeKind::kAnnotation:
        break;
    }
    stack_.push_back(entry);
  }

  // TraceLens' launcher: up from the call, past python frames and the pass-through "execute"
  // operator, to the first operator; any other enclosing node (an annotation, another API call)
  // ends the walk without one.
  std::int64_t Launcher() const {
    for (auto it = stack_.rbegin(); it != stack_.rend(); ++it) {
      const Node& node = *it->node;
      if (node.kind == NodeKind::kFrame)
        continue;
      if (node.kind != NodeKind::kOp)
        return kNone;
      if (trace_.Name(tree_.ops[node.index].name) == "execute")
        continue;
      return node.index;
    }
    return kNone;
  }

  void Pop() {
    const Node& node = *stack_.back().node;
    if (node.kind == NodeKind::kOp)
      tree_.ops[node.index].last_call = static_cast<std::uint32_t>(tree_.call_order.size());
    stack_.pop_back();
  }

  void PopAll() {
    while (!stack_.empty())
      Pop();
  }

  const model::Trace& trace_;
  LaunchTree tree_;
  std::vector<Node> nodes_;
  std::vector<StackEntry> stack_;
};

}  // namespace

std::string_view ModuleInstanceName(std::string_view frame_name) {
  constexpr std::string_view kPrefix = "nn.Module: ";
  if (!frame_name.starts_with(kPrefix))
    return {};
  return frame_name.substr(kPrefix.size());
}

std::string_view ModuleClassName(std::string_view instance_name) {
  std::size_t underscore = instance_name.rfind('_');
  if (underscore == std::string_view::npos || underscore + 1 == instance_name.size())
    return instance_name;
  for (char c : instance_name.substr(underscore + 1)) {
    if (c < '0' || c > '9')
      return instance_name;
  }
  return instance_name.substr(0, underscore);
}

LaunchTree BuildLaunchTree(const model::Trace& trace) {
  return TreeBuilder(trace).Build();
}

CallActivities::CallActivities(const model::Trace& trace, const CorrelationIndex& index) {
  std::vector<std::int64_t> call_of(trace.activities.size(), kNone);
  offsets_.assign(trace.api_calls.size() + 1, 0);
  for (std::size_t i = 0; i < trace.activities.size(); ++i) {
    const model::GpuActivity& a = trace.activities[i];
    if (a.correlation == model::kNoId)
      continue;
    call_of[i] = index.PrimaryCall(a.correlation, a.pid);
    if (call_of[i] >= 0)
      ++offsets_[static_cast<std::size_t>(call_of[i]) + 1];
  }
  for (std::size_t c = 0; c < trace.api_calls.size(); ++c)
    offsets_[c + 1] += offsets_[c];
  activities_.resize(offsets_.back());
  std::vector<std::uint32_t> fill(offsets_.begin(), offsets_.end() - 1);
  for (std::size_t i = 0; i < trace.activities.size(); ++i) {
    if (call_of[i] >= 0)
      activities_[fill[static_cast<std::size_t>(call_of[i])]++] = static_cast<std::uint32_t>(i);
  }
}

}  // namespace gpuperf::analysis::framework
