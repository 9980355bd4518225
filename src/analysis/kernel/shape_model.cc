// The shape models' entry points: ModelOp parses an op's recorded arguments and hands them to
// its family (shape_model_gemm/_elementwise/_conv/_attention.cc); the attribution of each op's
// work to the kernels it launched; and the modelled rooflines of kernel names without counters.
#include "analysis/kernel/shape_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "analysis/kernel/roofline.h"
#include "analysis/kernel/shape_model_ops.h"

namespace gpuperf::analysis {
namespace {

struct ThreadKey {
  std::int64_t pid, tid;
  auto operator<=>(const ThreadKey&) const = default;
};

}  // namespace

std::optional<OpWork> ModelOp(std::string_view name,
                              std::string_view input_dims,
                              std::string_view input_types,
                              std::string_view concrete_inputs) {
  auto dims = ParseInputDims(input_dims);
  auto types = ParseInputTypes(input_types);
  if (!dims || !types || dims->size() != types->size())
    return std::nullopt;
  // Concrete inputs only add what the shapes lack (stride, padding, causal, ...): when missing or
  // unreadable, the families that need them model nothing, the others are unaffected.
  std::optional<std::vector<std::string>> concrete;
  if (!concrete_inputs.empty())
    concrete = ParseConcreteInputs(concrete_inputs);
  shape::Args args{
      *dims, *types, concrete && concrete->size() == dims->size() ? &*concrete : nullptr};
  if (auto work = shape::ModelGemm(name, args))
    return work;
  if (auto work = shape::ModelElementwise(name, args))
    return work;
  if (auto work = shape::ModelConvolution(name, args))
    return work;
  return shape::ModelAttention(name, args);
}

std::vector<std::int64_t> LaunchingHostOps(const model::Trace& trace,
                                           const CorrelationIndex& index) {
  std::vector<std::int64_t> out(trace.activities.size(), -1);
  // The launch call of every kernel, by thread.
  std::map<ThreadKey, std::vector<std::pair<std::size_t, std::size_t>>> calls;  // (call, kernel)
  std::optional<ThreadKey> launch_key;  // kernels come in runs of one launching thread
  std::vector<std::pair<std::size_t, std::size_t>>* launch_calls = nullptr;
  for (std::size_t i = 0; i < trace.activities.size(); ++i) {
    const model::GpuActivity& a = trace.activities[i];
    if (a.kind != model::ActivityKind::kKernel || a.correlation == model::kNoId)
      continue;
    std::int64_t call = index.PrimaryCall(a.correlation, a.pid);
    if (call < 0)
      continue;
    const model::ApiCall& c = trace.api_calls[static_cast<std::size_t>(call)];
    ThreadKey key{c.pid, c.tid};
    if (key != launch_key) {
      launch_key = key;
      launch_calls = &calls[key];
    }
    launch_calls->emplace_back(static_cast<std::size_t>(call), i);
  }
  if (calls.empty())
    return out;
  std::map<ThreadKey, std::vector<std::size_t>> ops;
  // Host ops come in runs of one thread: look the thread up once per run.
  std::optional<ThreadKey> last_key;
  std::vector<std::size_t>* last_ops = nullptr;
  for (std::size_t i = 0; i < trace.host_ops.size(); ++i) {
    const model::HostOp& o = trace.host_ops[i];
    ThreadKey key{o.pid, o.tid};
    if (key != last_key) {
      last_key = key;
      last_ops = calls.count(key) ? &ops[key] : nullptr;
    }
    if (last_ops != nullptr)
      last_ops->push_back(i);
  }
  for (auto& [key, thread_calls] : calls) {
    auto it = ops.find(key);
    if (it == ops.end())
      continue;
    std::vector<std::size_t>& thread_ops = it->second;
    // Outer before inner: by start, then the longer first, then trace order.
    std::stable_sort(thread_ops.begin(), thread_ops.end(), [&](std::size_t l, std::size_t r) {
      const model::HostOp& a = trace.host_ops[l];
      const model::HostOp& b = trace.host_ops[r];
      return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.end_ns > b.end_ns;
    });
    std::stable_sort(thread_calls.begin(), thread_calls.end(), [&](auto l, auto r) {
      return trace.api_calls[l.first].start_ns < trace.api_calls[r.first].start_ns;
    });
    std::vector<std::size_t> open;  // the ops that may still contain what comes next
    std::size_t next = 0;
    for (const auto& [call_index, kernel] : thread_calls) {
      const model::ApiCall& call = trace.api_calls[call_index];
      while (next < thread_ops.size() &&
             trace.host_ops[thread_ops[next]].start_ns <= call.start_ns) {
        const model::HostOp& op = trace.host_ops[thread_ops[next]];
        while (!open.empty() && trace.host_ops[open.back()].end_ns < op.start_ns)
          open.pop_back();
        open.push_back(thread_ops[next++]);
      }
      while (!open.empty() && trace.host_ops[open.back()].end_ns < call.start_ns)
        open.pop_back();
      // The innermost open op that contains the whole call (ops need not nest perfectly).
      for (auto op = open.rbegin(); op != open.rend(); ++op) {
        if (trace.host_ops[*op].end_ns >= call.end_ns) {
          out[kernel] = static_cast<std::int64_t>(*op);
          break;
        }
      }
    }
  }
  return out;
}

const std::optional<OpWork>& OpWorkMemo::Of(const model::HostOp& op) {
  static const std::optional<OpWork> kUnmodeled;
  if (op.input_dims == 0)
    return kUnmodeled;
  Key key{op.name, op.input_dims, op.input_types, op.concrete_inputs};
  auto it = memo_.find(key);
  if (it == memo_.end()) {
    it = memo_
             .emplace(key,
                      ModelOp(trace_.Name(op.name),
                              trace_.Name(op.input_dims),
                              trace_.Name(op.input_types),
                              trace_.Name(op.concrete_inputs)))
             .first;
  }
  return it->second;
}

void ForEachModeledOp(const model::Trace& trace,
                      const CorrelationIndex& index,
                      const std::function<void(const ModeledOp&)>& visit,
                      const std::vector<std::int64_t>* launching) {
  std::vector<std::int64_t> own;
  if (!launching) {
    own = LaunchingHostOps(trace, index);
    launching = &own;
  }
  // (host op, kernel) pairs sorted by op, then kernel: one array, not a map of vectors (about
  // 100 bytes per launching op).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (std::size_t i = 0; i < launching->size(); ++i) {
    if ((*launching)[i] >= 0)
      pairs.emplace_back(static_cast<std::uint32_t>((*launching)[i]),
                         static_cast<std::uint32_t>(i));
  }
  std::vector<std::int64_t>().swap(own);
  std::sort(pairs.begin(), pairs.end());
  OpWorkMemo memo(trace);
  ModeledOp modeled;
  for (std::size_t begin = 0; begin < pairs.size();) {
    std::size_t end = begin;
    while (end < pairs.size() && pairs[end].first == pairs[begin].first)
      ++end;
    std::size_t op_index = pairs[begin].first;
    const model::HostOp& op = trace.host_ops[op_index];
    const std::optional<OpWork>* work = nullptr;
    if (op.input_dims != 0 && op.input_types != 0)
      work = &memo.Of(op);
    if (work && *work) {
      modeled.host_op = op_index;
      modeled.work = **work;
      modeled.kernels.clear();
      for (std::size_t k = begin; k < end; ++k)
        modeled.kernels.push_back(pairs[k].second);
      modeled.target = modeled.kernels.front();
      for (std::size_t k : modeled.kernels) {
        if (trace.activities[k].duration_ns() > trace.activities[modeled.target].duration_ns())
          modeled.target = k;
      }
      visit(modeled);
    }
    begin = end;
  }
}

std::vector<ModeledOp> ModelHostOps(const model::Trace& trace, const CorrelationIndex& index) {
  std::vector<ModeledOp> out;
  ForEachModeledOp(trace, index, [&](const ModeledOp& op) { out.push_back(op); });
  return out;
}

void ApplyKernelMathPath(OpWork& work, std::string_view kernel_name) {
  if (work.precision != model::Precision::kFp32 || work.unit != model::MathUnit::kVector)
    return;
  bool tf32 = kernel_name.find("tensorop_s") != std::string_view::npos ||
              kernel_name.find("tf32") != std::string_view::npos ||
              kernel_name.find("TF32") != std::string_view::npos;
  if (tf32) {
    work.precision = model::Precision::kTf32;
    work.unit = model::MathUnit::kTensor;
  }
}

void AttachModeledRooflines(const model::Trace& trace,
                            const CorrelationIndex& index,
                            const DeviceRoofsTable& roofs,
                            std::vector<report::KernelRow>& kernels,
                            std::vector<std::string>& notes,
                            const std::vector<std::int64_t>* launching) {
  if (trace.host_ops.empty())
    return;
  std::set<std::string> open_rows;  // kernel names without a (measured) roofline
  for (const report::KernelRow& row : kernels) {
    if (!row.roofline)
      open_rows.insert(row.name);
  }
  std::map<std::string, std::vector<InstanceWork>> by_name;
  std::map<std::string, std::int32_t> device_of;
  std::int64_t ops = 0;
  ForEachModeledOp(
      trace,
      index,
      [&](const ModeledOp& op) {
        const model::GpuActivity& a = trace.activities[op.target];
        std::string name(trace.Name(a.name));
        if (!open_rows.count(name))
          return;
        ++ops;
        OpWork work = op.work;
        ApplyKernelMathPath(work, name);
        std::map<PrecisionUnit, double> flops{
            {{work.precision, work.unit}, static_cast<double>(work.flops)}};
        by_name[name].push_back({a.duration_ns(), flops, static_cast<double>(op.work.bytes)});
        device_of.emplace(name, a.device);
      },
      launching);
  if (by_name.empty())
    return;
  std::map<std::int32_t, model::CeilingMatch> matches;
  for (const auto& [name, device] : device_of) {
    if (!matches.count(device))
      matches[device] = roofs.Of(device).match;
  }
  for (report::KernelRow& row : kernels) {
    auto it = by_name.find(row.name);
    if (it == by_name.end() || row.roofline)
      continue;
    row.roofline = RooflineFromWork(it->second, matches[device_of[row.name]].entry);
    row.roofline->evidence = report::EvidenceTier::kModeled;
  }
  std::string ceilings = DescribeCeilings(matches);
  notes.push_back(fmt::format(
      "roofline (modeled): {} kernel names without counters get FLOPs and bytes from the shapes "
      "of the {} PyTorch ops that launched them (evidence \"modeled\"; docs/metrics.md, \"Shape "
      "models\"); an op's work goes to its longest kernel. Bytes are the operands' sizes, not "
      "DRAM traffic; fp16/bf16 GEMMs, convolutions and attention are assumed to run on tensor "
      "cores, "
      "fp32 cuDNN convolutions allowed TF32 on TF32 tensor cores. Ceilings: {}.",
      by_name.size(),
      ops,
      ceilings));
}

}  // namespace gpuperf::analysis
