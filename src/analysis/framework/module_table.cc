#include <algorithm>
#include <unordered_map>

#include "analysis/framework/framework_view.h"

namespace gpuperf::analysis::framework {
namespace {

constexpr double kTreeNodeMinFraction = 0.01;
constexpr std::size_t kTreeNodesKept = 300;
constexpr std::string_view kUnlinkedBackward = "(backward without a forward module)";

class ModuleBuilder {
 public:
  explicit ModuleBuilder(const FrameworkInput& input)
      : in_(input), trace_(input.trace), tree_(input.tree) {}

  void Build(report::FrameworkView& view) {
    if (tree_.modules.empty())
      return;
    NameNodes();
    LinkBackward();
    for (std::uint32_t call : tree_.call_order)
      AddCall(call);
    CountInstances();
    EmitModules(view);
    EmitTree(view);
  }

 private:
  // Class and path of every module node. Paths are interned: (parent path, class name).
  void NameNodes() {
    class_of_.resize(tree_.modules.size());
    path_of_.resize(tree_.modules.size());
    std::map<std::pair<std::int64_t, std::string_view>, std::size_t> path_ids;
    for (std::size_t n = 0; n < tree_.modules.size(); ++n) {
      const ModuleNode& node = tree_.modules[n];
      std::string_view instance =
          ModuleInstanceName(trace_.Name(trace_.python_frames[node.frame].name));
      class_of_[n] = ClassId(ModuleClassName(instance));
      std::int64_t parent_path =
          node.parent >= 0
              ? static_cast<std::int64_t>(path_of_[static_cast<std::size_t>(node.parent)])
              : -1;
      // Paths by class: the 24 decoder layers of a model are one node with 24 calls.
      auto [it, inserted] =
          path_ids.try_emplace({parent_path, ModuleClassName(instance)}, paths_.size());
      if (inserted) {
        Path path;
        path.name = std::string(ModuleClassName(instance));
        path.depth = node.depth;
        path.text = parent_path >= 0
                        ? paths_[static_cast<std::size_t>(parent_path)].text + "/" + path.name
                        : path.name;
        path.first_start = trace_.python_frames[node.frame].start_ns;
        paths_.push_back(std::move(path));
      }
      path_of_[n] = it->second;
      paths_[it->second].calls += 1;
    }
  }

  // Autograd's link: a forward operator's sequence number names the backward operator that
  // differentiates it; the forward operator's module is the backward work's module.
  void LinkBackward() {
    for (const OpInstance& op : tree_.ops) {
      std::int64_t sequence = tree_.Sequence(op);
      if (!tree_.Backward(op) && sequence != model::kNoId && op.module >= 0)
        forward_module_.try_emplace(sequence, op.module);
    }
  }

  // The module node of the forward pass that a backward call belongs to; kNone when the call
  // is not backward work, -2 when it is but no forward module is linked.
  std::int64_t BackwardModule(std::uint32_t call) const {
    bool backward = false;
    for (std::int64_t op = tree_.innermost_op[call]; op >= 0;
         op = tree_.ops[static_cast<std::size_t>(op)].parent) {
      const OpInstance& instance = tree_.ops[static_cast<std::size_t>(op)];
      if (!tree_.Backward(instance))
        continue;
      backward = true;
      auto it = forward_module_.find(tree_.Sequence(instance));
      if (it != forward_module_.end())
        return it->second;
    }
    return backward ? -2 : kNone;
  }

  void AddCall(std::uint32_t call) {
    std::int64_t ns = 0;
    for (std::uint32_t i : in_.calls.Of(call))
      ns += trace_.activities[i].duration_ns();
    if (ns == 0)
      return;
    std::int64_t backward_node = BackwardModule(call);
    if (backward_node == -2) {
      rows_[ClassId(kUnlinkedBackward)].backward_ns += ns;
      return;
    }
    bool backward = backward_node >= 0;
    std::int64_t node = backward ? backward_node : tree_.module[call];
    ++stamp_;  // a class nested in itself counts once per call
    for (; node >= 0; node = tree_.modules[static_cast<std::size_t>(node)].parent) {
      std::uint32_t cls = class_of_[static_cast<std::size_t>(node)];
      if (seen_[cls] != stamp_) {
        seen_[cls] = stamp_;
        (backward ? rows_[cls].backward_ns : rows_[cls].forward_ns) += ns;
      }
      if (!backward)
        paths_[path_of_[static_cast<std::size_t>(node)]].kernel_ns += ns;
    }
  }

  // Outermost instances per class, and the smallest depth a class appears at.
  void CountInstances() {
    for (std::size_t n = 0; n < tree_.modules.size(); ++n) {
      report::ModuleRow& row = rows_[class_of_[n]];
      bool nested_in_self = false;
      for (std::int64_t p = tree_.modules[n].parent; p >= 0 && !nested_in_self;
           p = tree_.modules[static_cast<std::size_t>(p)].parent) {
        nested_in_self = class_of_[static_cast<std::size_t>(p)] == class_of_[n];
      }
      if (!nested_in_self)
        row.calls += 1;
      std::int32_t depth = tree_.modules[n].depth;
      row.depth = depth_set_[class_of_[n]] ? std::min(row.depth, depth) : depth;
      depth_set_[class_of_[n]] = true;
    }
  }

  double Fraction(std::int64_t ns) const {
    return in_.total_gpu_ns > 0 ? static_cast<double>(ns) / static_cast<double>(in_.total_gpu_ns)
                                : 0;
  }

  void EmitModules(report::FrameworkView& view) {
    for (std::size_t c = 0; c < rows_.size(); ++c) {
      report::ModuleRow& row = rows_[c];
      const std::string& name = class_names_[c];
      row.name = name;
      row.kernel_ns = row.forward_ns + row.backward_ns;
      row.fraction = Fraction(row.kernel_ns);
      if (row.kernel_ns > 0)
        view.modules.push_back(row);
    }
    std::sort(view.modules.begin(), view.modules.end(), [](const auto& a, const auto& b) {
      return std::tie(b.kernel_ns, a.depth, a.name) < std::tie(a.kernel_ns, b.depth, b.name);
    });
  }

  void EmitTree(report::FrameworkView& view) {
    std::vector<const Path*> kept;
    for (const Path& path : paths_) {
      if (path.kernel_ns > 0 && Fraction(path.kernel_ns) >= kTreeNodeMinFraction)
        kept.push_back(&path);
    }
    // Depth-first in time order: a node's first instance starts before its children's.
    std::sort(kept.begin(), kept.end(), [](const Path* a, const Path* b) {
      return std::tie(a->first_start, a->depth, a->text) <
             std::tie(b->first_start, b->depth, b->text);
    });
    for (const Path* path : kept) {
      if (view.module_tree.size() == kTreeNodesKept)
        break;
      view.module_tree.push_back({path->text,
                                  path->name,
                                  path->depth,
                                  path->calls,
                                  path->kernel_ns,
                                  Fraction(path->kernel_ns)});
    }
  }

  struct Path {
    std::string text;
    std::string name;
    std::int32_t depth = 0;
    std::int64_t calls = 0;
    std::int64_t kernel_ns = 0;
    model::TimeNs first_start = 0;
  };

  const FrameworkInput& in_;
  const model::Trace& trace_;
  const LaunchTree& tree_;
  // Module classes interned: ids index class_names_, rows_, seen_ and depth_set_.
  std::uint32_t ClassId(std::string_view name) {
    auto [it, inserted] =
        class_ids_.try_emplace(std::string(name), static_cast<std::uint32_t>(class_names_.size()));
    if (inserted) {
      class_names_.emplace_back(name);
      rows_.emplace_back();
      seen_.push_back(0);
      depth_set_.push_back(false);
    }
    return it->second;
  }

  std::vector<std::uint32_t> class_of_;
  std::vector<std::size_t> path_of_;
  std::vector<Path> paths_;
  std::unordered_map<std::int64_t, std::int64_t> forward_module_;  // sequence -> module node
  std::map<std::string, std::uint32_t> class_ids_;
  std::vector<std::string> class_names_;
  std::vector<report::ModuleRow> rows_;
  std::vector<std::uint64_t> seen_;
  std::vector<bool> depth_set_;
  std::uint64_t stamp_ = 0;
};

}  // namespace

void ModuleTables(const FrameworkInput& input, report::FrameworkView& view) {
  ModuleBuilder(input).Build(view);
}

}  // namespace gpuperf::analysis::framework
