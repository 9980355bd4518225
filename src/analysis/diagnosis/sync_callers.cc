// What the host-blocking synchronizations of a window wait for, by the framework operator around
// each call: a copy from pageable host memory (PyTorch's copy_ synchronizes after the copy unless
// the source is pinned and non_blocking is set), a scalar read (.item()), or an operator whose
// output size depends on the data. Each has its own remedy, and only the last cannot go (k2021:
// the two synchronizations of each step are the input batch's pageable copies, not .item()).
#include <array>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/core/host_intervals.h"
#include "analysis/core/names.h"
#include "analysis/diagnosis/diagnosis_parts.h"
#include "util/intervals.h"

namespace gpuperf::analysis {
namespace {

constexpr std::array<std::string_view, 3> kCopyOps = {"aten::copy_", "aten::_to_copy", "aten::to"};
constexpr std::array<std::string_view, 2> kScalarReads = {"aten::item",
                                                          "aten::_local_scalar_dense"};
constexpr std::array<std::string_view, 6> kDataDependent = {"aten::nonzero",
                                                            "aten::masked_select",
                                                            "aten::unique",
                                                            "aten::_unique2",
                                                            "aten::unique_consecutive",
                                                            "aten::repeat_interleave"};

template <std::size_t N>
bool OneOf(std::string_view name, const std::array<std::string_view, N>& names) {
  for (std::string_view n : names) {
    if (name == n)
      return true;
  }
  return false;
}

}  // namespace

ExperimentContext::SyncCallers SyncCallersOf(const model::Trace& trace,
                                             const IdleAttribution& idle,
                                             const util::Interval& span) {
  // Only the steady window's calls: a left-out first step's copies are not the steady state's.
  auto in_span = [&](const model::ApiCall& call) {
    return call.start_ns >= span.start && call.start_ns < span.end;
  };
  ExperimentContext::SyncCallers out;
  HostIntervals<std::uint32_t> ops;  // host op indices
  for (std::size_t i = 0; i < trace.host_ops.size(); ++i) {
    const model::HostOp& op = trace.host_ops[i];
    ops.Add(op.pid, op.tid, op.start_ns, op.end_ns, static_cast<std::uint32_t>(i));
  }
  ops.Sort();
  // The copy operators that copy from host to device: their copies' direction, by correlation.
  std::unordered_map<std::int64_t, model::CopyKind> copy_kind;
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind == model::ActivityKind::kMemcpy && a.correlation != model::kNoId)
      copy_kind.emplace(a.correlation, a.copy_kind);
  }
  std::unordered_set<std::uint32_t> to_device;
  for (const model::ApiCall& call : trace.api_calls) {
    auto it = copy_kind.find(call.correlation);
    if (it == copy_kind.end() || it->second != model::CopyKind::kHtoD)
      continue;
    if (const std::uint32_t* op = ops.Of(call))
      to_device.insert(*op);
  }
  // What those copy operators cost: the host time their blocking calls (the copy and the sync
  // after it) hold, the GPU idle those calls cause, and their copies' time no kernel overlaps
  // (a copy on the compute stream holds the kernels behind it; a prefetch on another stream
  // hides it).
  std::vector<util::Interval> to_device_waits;
  std::unordered_set<std::int64_t> to_device_copies;  // correlation ids
  for (const model::ApiCall& call : trace.api_calls) {
    std::string_view name = trace.Name(call.name);
    if (!in_span(call) ||
        (!IsBlockingSyncApi(name) && !IsSyncMemcpyApi(name) && !IsAsyncMemcpyApi(name)))
      continue;
    const std::uint32_t* op = ops.Of(call);
    if (op && to_device.contains(*op)) {
      to_device_waits.push_back({call.start_ns, call.end_ns});
      out.to_device_host_ns += call.end_ns - call.start_ns;
      if (call.correlation != model::kNoId)
        to_device_copies.insert(call.correlation);
    }
  }
  if (!to_device_waits.empty()) {
    const IdleAttribution::WaitIdle caused = idle.CausedSplit(std::move(to_device_waits));
    out.to_device_idle_ns = caused.adjacent_ns;
    out.to_device_caused_ns = caused.caused_ns;
  }
  if (!to_device_copies.empty()) {
    std::vector<util::Interval> kernels = KernelBusy(trace);
    util::IntervalProbe probe(kernels);
    for (const model::GpuActivity& a : trace.activities) {
      if (a.kind == model::ActivityKind::kMemcpy && a.copy_kind == model::CopyKind::kHtoD &&
          to_device_copies.contains(a.correlation))
        out.to_device_exposed_copy_ns += a.duration_ns() - probe.Covered(a.start_ns, a.end_ns);
    }
  }
  for (const model::ApiCall& call : trace.api_calls) {
    if (!in_span(call) || !IsBlockingSyncApi(trace.Name(call.name)))
      continue;
    ++out.calls;
    const std::uint32_t* op = ops.Of(call);
    if (!op)
      continue;
    std::string_view name = trace.Name(trace.host_ops[*op].name);
    if (OneOf(name, kCopyOps))
      ++(to_device.contains(*op) ? out.copies_to_device : out.copies_to_host);
    out.scalar_reads += OneOf(name, kScalarReads);
    out.data_dependent += OneOf(name, kDataDependent);
  }
  return out;
}

}  // namespace gpuperf::analysis
