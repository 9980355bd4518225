#include "analysis/framework/launch_tree.h"

#include <algorithm>
#include <tuple>

#include "util/sort_runs.h"

namespace gpuperf::analysis::framework {
namespace {

// Node kinds in the order a container sorts before what it contains when both start together.
enum class NodeKind : std::uint8_t { kAnnotation, kFrame, kOp, kCall };

// A node is a 32-bit id: the ids of each kind form one block, the blocks in NodeKind order, so
// that comparing ids compares (kind, index). The tree sorts 4-byte ids, not copies of the
// records' keys (40 bytes a node: 46 MB on the 1 GB benchmark trace), and reads the keys from
// the records when it compares.
struct NodeKey {
  std::int64_t pid = 0;
  std::int64_t tid = 0;
  model::TimeNs start_ns = 0;
  model::TimeNs end_ns = 0;
};

struct StackEntry {
  std::uint32_t node = 0;
  model::TimeNs end_ns = 0;
  std::int32_t op = kNone;      // innermost operator instance at this depth
  std::int32_t module = kNone;  // innermost module node at this depth
};

bool IsHostRange(const model::Range& range) {
  return range.kind == model::RangeKind::kUserAnnotation ||
         range.kind == model::RangeKind::kProfilerStep || range.kind == model::RangeKind::kNvtx;
}

class TreeBuilder {
 public:
  explicit TreeBuilder(const model::Trace& trace) : trace_(trace) {}

  LaunchTree Build() {
    tree_.trace = &trace_;
    tree_.launcher.assign(trace_.api_calls.size(), kNone);
    tree_.innermost_op.assign(trace_.api_calls.size(), kNone);
    tree_.module.assign(trace_.api_calls.size(), kNone);
    std::vector<std::uint32_t> nodes = CollectNodes();
    util::SortRuns(nodes.begin(), nodes.end(), [this](std::uint32_t a, std::uint32_t b) {
      NodeKey x = Key(a);
      NodeKey y = Key(b);
      return std::tie(x.pid, x.tid, x.start_ns, y.end_ns, a) <
             std::tie(y.pid, y.tid, y.start_ns, x.end_ns, b);
    });
    NodeKey previous;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      NodeKey key = Key(nodes[i]);
      if (i == 0 || key.pid != previous.pid || key.tid != previous.tid)
        PopAll();
      while (!stack_.empty() && key.end_ns > stack_.back().end_ns)
        Pop();
      Visit(nodes[i], key.end_ns);
      previous = key;
    }
    PopAll();
    return std::move(tree_);
  }

 private:
  NodeKind KindOf(std::uint32_t node) const {
    return node >= call_base_    ? NodeKind::kCall
           : node >= op_base_    ? NodeKind::kOp
           : node >= frame_base_ ? NodeKind::kFrame
                                 : NodeKind::kAnnotation;
  }

  static NodeKey KeyOf(const model::Range& r) { return {r.pid, r.tid, r.start_ns, r.end_ns}; }

  NodeKey Key(std::uint32_t node) const {
    if (node >= call_base_) {
      const model::ApiCall& c = trace_.api_calls[node - call_base_];
      return {c.pid, c.tid, c.start_ns, c.end_ns};
    }
    if (node >= op_base_) {
      std::uint32_t source = tree_.ops[node - op_base_].source;
      if (tree_.nvtx_ops)
        return KeyOf(trace_.ranges[source]);
      const model::HostOp& op = trace_.host_ops[source];
      return {op.pid, op.tid, op.start_ns, op.end_ns};
    }
    if (node >= frame_base_) {
      const model::PythonFrame& f = trace_.python_frames[module_frames_[node - frame_base_]];
      const model::HostThread& thread = trace_.ThreadOf(f);
      return {thread.pid, thread.tid, f.start_ns, f.end_ns};
    }
    return KeyOf(trace_.ranges[annotations_[node]]);
  }

  // The node ids, block by block: annotations, module frames, operators, API calls.
  std::vector<std::uint32_t> CollectNodes() {
    tree_.nvtx_ops = trace_.host_ops.empty();
    tree_.op_source =
        trace_.host_ops.empty() ? report::OperatorSource::kNone : report::OperatorSource::kCpuOp;
    if (tree_.nvtx_ops) {
      tree_.ops.reserve(trace_.ranges.size());
    } else {
      tree_.ops.reserve(trace_.host_ops.size());
      for (std::size_t i = 0; i < trace_.host_ops.size(); ++i)
        AddOp(i);
    }
    for (std::size_t i = 0; i < trace_.ranges.size(); ++i) {
      const model::Range& r = trace_.ranges[i];
      if (!IsHostRange(r) || r.tid == model::kNoId)
        continue;
      if (tree_.nvtx_ops && r.kind == model::RangeKind::kNvtx) {
        tree_.op_source = report::OperatorSource::kNvtx;
        AddOp(i);
      } else {
        annotations_.push_back(static_cast<std::uint32_t>(i));
      }
    }
    // Only nn.Module frames: any other frame is transparent to both the launcher walk and the
    // module stack, and they are most of the nodes (65k of 100k on owlv2).
    for (std::size_t i = 0; i < trace_.python_frames.size(); ++i) {
      if (!ModuleInstanceName(trace_.Name(trace_.python_frames[i].name)).empty())
        module_frames_.push_back(static_cast<std::uint32_t>(i));
    }
    frame_base_ = static_cast<std::uint32_t>(annotations_.size());
    op_base_ = frame_base_ + static_cast<std::uint32_t>(module_frames_.size());
    call_base_ = op_base_ + static_cast<std::uint32_t>(tree_.ops.size());
    std::vector<std::uint32_t> nodes(call_base_ + trace_.api_calls.size());
    for (std::size_t i = 0; i < nodes.size(); ++i)
      nodes[i] = static_cast<std::uint32_t>(i);
    return nodes;
  }

  void AddOp(std::size_t source) {
    OpInstance op;
    op.source = static_cast<std::uint32_t>(source);
    tree_.ops.push_back(op);
  }

  StackEntry Top() const { return stack_.empty() ? StackEntry{} : stack_.back(); }

  void Visit(std::uint32_t node, model::TimeNs end_ns) {
    StackEntry entry = Top();
    entry.node = node;
    entry.end_ns = end_ns;
    switch (KindOf(node)) {
      case NodeKind::kOp: {
        OpInstance& op = tree_.ops[node - op_base_];
        op.parent = entry.op;
        op.module = entry.module;
        op.first_call = static_cast<std::uint32_t>(tree_.call_order.size());
        entry.op = static_cast<std::int32_t>(node - op_base_);
        break;
      }
      case NodeKind::kFrame: {
        std::int32_t depth = entry.module == kNone
                                 ? 0
                                 : tree_.modules[static_cast<std::size_t>(entry.module)].depth + 1;
        tree_.modules.push_back({module_frames_[node - frame_base_], entry.module, depth});
        entry.module = static_cast<std::int32_t>(tree_.modules.size() - 1);
        break;
      }
      case NodeKind::kCall: {
        std::uint32_t call = node - call_base_;
        tree_.launcher[call] = Launcher();
        tree_.innermost_op[call] = entry.op;
        tree_.module[call] = entry.module;
        tree_.call_order.push_back(call);
        break;
      }
      case NodeKind::kAnnotation:
        break;
    }
    stack_.push_back(entry);
  }

  // TraceLens' launcher: up from the call, past python frames and the pass-through "execute"
  // operator, to the first operator; any other enclosing node (an annotation, another API call)
  // ends the walk without one.
  std::int32_t Launcher() const {
    for (auto it = stack_.rbegin(); it != stack_.rend(); ++it) {
      NodeKind kind = KindOf(it->node);
      if (kind == NodeKind::kFrame)
        continue;
      if (kind != NodeKind::kOp)
        return kNone;
      std::uint32_t op = it->node - op_base_;
      if (trace_.Name(tree_.Name(tree_.ops[op])) == "execute")
        continue;
      return static_cast<std::int32_t>(op);
    }
    return kNone;
  }

  void Pop() {
    std::uint32_t node = stack_.back().node;
    if (KindOf(node) == NodeKind::kOp)
      tree_.ops[node - op_base_].last_call = static_cast<std::uint32_t>(tree_.call_order.size());
    stack_.pop_back();
  }

  void PopAll() {
    while (!stack_.empty())
      Pop();
  }

  const model::Trace& trace_;
  LaunchTree tree_;
  std::vector<std::uint32_t> annotations_;    // Trace::ranges indices of the annotation nodes
  std::vector<std::uint32_t> module_frames_;  // Trace::python_frames indices of the frame nodes
  std::uint32_t frame_base_ = 0;              // the first frame node; then op_base_, call_base_
  std::uint32_t op_base_ = 0;
  std::uint32_t call_base_ = 0;
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
