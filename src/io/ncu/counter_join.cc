#include "io/ncu/counter_join.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <vector>

#include "model/ncu_rules.h"
#include "util/kernel_name_keys.h"

namespace gpuperf::io::ncu {
namespace {

bool Known(const model::Dim3& d) {
  return d.Volume() > 0;
}

// The counters' launch configuration against a trace instance's. Unknown on either side
// agrees. Nsight Compute <= 2022.3 gives only totals (2048 blocks, kept as 2048x1x1): those
// agree with any grid of the same volume.
bool SameConfig(const model::GpuActivity& counters, const model::GpuActivity& kernel) {
  auto same = [](const model::Dim3& a, const model::Dim3& b) {
    if (!Known(a) || !Known(b))
      return true;
    if (a.x == b.x && a.y == b.y && a.z == b.z)
      return true;
    return a.y == 1 && a.z == 1 && a.Volume() == b.Volume();
  };
  return same(counters.grid, kernel.grid) && same(counters.block, kernel.block);
}

std::string DimText(const model::Dim3& d) {
  return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}

void AddExample(model::Trace& trace, std::string example) {
  for (int i = 0; i < 3; ++i) {
    std::string key = "counters_join_example:" + std::to_string(i);
    if (trace.metadata.properties.emplace(key, example).second)
      return;
  }
}

std::string Upper(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return out;
}

bool SameDevice(const model::Device& a, const model::Device& b) {
  if (a.compute_major > 0 && b.compute_major > 0 &&
      (a.compute_major != b.compute_major || a.compute_minor != b.compute_minor))
    return false;
  return a.name.empty() || b.name.empty() || Upper(a.name) == Upper(b.name);
}

std::string DeviceText(const model::Device& d) {
  return (d.name.empty() ? std::string("an unnamed GPU") : "\"" + d.name + "\"") + " (cc " +
         std::to_string(d.compute_major) + "." + std::to_string(d.compute_minor) + ")";
}

std::set<std::int32_t> KernelDevices(const model::Trace& trace) {
  std::set<std::int32_t> devices;
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind == model::ActivityKind::kKernel)
      devices.insert(a.device);
  }
  return devices;
}

}  // namespace

Status CheckCounterDevices(const model::Trace& trace,
                           const model::Trace& counters,
                           const std::string& counters_name) {
  std::vector<const model::Device*> ran_on;
  for (std::int32_t id : KernelDevices(trace)) {
    if (const model::Device* d = trace.FindDevice(id))
      ran_on.push_back(d);
  }
  if (ran_on.empty())
    return Status::Ok();  // the trace records no device: nothing to check against
  for (std::int32_t id : KernelDevices(counters)) {
    const model::Device* profiled = counters.FindDevice(id);
    if (!profiled)
      continue;
    bool fits = std::any_of(ran_on.begin(), ran_on.end(), [&](const model::Device* d) {
      return SameDevice(*profiled, *d);
    });
    if (!fits) {
      return Error{counters_name + ": the counters were taken on " + DeviceText(*profiled) +
                   ", the trace's kernels ran on " + DeviceText(*ran_on.front()) +
                   ": counters from another GPU do not describe these kernels"};
    }
  }
  return Status::Ok();
}

JoinSummary JoinCounters(model::Trace& trace, const model::Trace& counters) {
  std::vector<std::size_t> order(trace.activities.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return trace.activities[a].start_ns < trace.activities[b].start_ns;
  });
  // Three spellings, most exact first: ncu's own (parameters and spaces aside), the name without
  // return type and namespaces (unmodified ncu "void Kernel2<...>(Params)" against CUPTI's "void
  // cutlass::Kernel2<...>(...::Params)"), and the bare function name (--print-kernel-base).
  std::map<std::string, std::vector<std::size_t>> by_key, by_normal, by_base;
  for (std::size_t index : order) {
    const model::GpuActivity& a = trace.activities[index];
    if (a.kind != model::ActivityKind::kKernel)
      continue;
    std::string_view name = trace.Name(a.name);
    by_key[util::SignatureKey(name)].push_back(index);
    by_normal[util::NormalKey(name)].push_back(index);
    by_base[util::BaseName(name)].push_back(index);
  }
  // Kernels that already have counters (an earlier --counters file) are not joined again.
  std::vector<bool> taken(trace.activities.size(), false);
  for (const model::KernelCounters& c : trace.counters) {
    if (c.activity < taken.size())
      taken[c.activity] = true;
  }
  static const std::vector<std::size_t> kNone;
  auto queue_for = [&](std::string_view name) -> const std::vector<std::size_t>& {
    if (util::IsBareName(name)) {
      auto it = by_base.find(std::string(name));
      return it == by_base.end() ? kNone : it->second;
    }
    for (auto* level : {&by_key, &by_normal}) {
      auto it = level->find(level == &by_key ? util::SignatureKey(name) : util::NormalKey(name));
      if (it != level->end())
        return it->second;
    }
    return kNone;
  };
  JoinSummary summary;
  for (const model::KernelCounters& c : counters.counters) {
    if (c.activity >= counters.activities.size())
      continue;
    const model::GpuActivity& launch = counters.activities[c.activity];
    std::string_view name = counters.Name(launch.name);
    ++summary.ncu_launches;
    // The earliest instance not taken yet whose grid and block agree with the profiled launch.
    const std::vector<std::size_t>& queue = queue_for(name);
    std::optional<std::size_t> chosen, other_config;
    for (std::size_t index : queue) {
      if (taken[index])
        continue;
      if (SameConfig(launch, trace.activities[index])) {
        chosen = index;
        break;
      }
      if (!other_config)
        other_config = index;
    }
    if (!chosen) {
      ++summary.unjoined;
      if (other_config) {
        ++summary.config_mismatch;
        const model::GpuActivity& k = trace.activities[*other_config];
        AddExample(trace,
                   "\"" + std::string(name) + "\": profiled with grid " + DimText(launch.grid) +
                       " block " + DimText(launch.block) + ", the trace's instances have grid " +
                       DimText(k.grid) + " block " + DimText(k.block));
      } else {
        ++summary.no_kernel;
        AddExample(trace,
                   "\"" + std::string(name) + "\": no instance of that name left in the trace");
      }
      continue;
    }
    taken[*chosen] = true;
    trace.counters.push_back({*chosen, c.metrics});
    model::StoreNcuRules(
        trace.metadata, *chosen, model::LoadNcuRules(counters.metadata, c.activity));
    ++summary.joined;
  }
  trace.diagnostics.Count(model::Diagnostic::kCountersNcuLaunches, summary.ncu_launches);
  trace.diagnostics.Count(model::Diagnostic::kCountersJoined, summary.joined);
  trace.diagnostics.Count(model::Diagnostic::kCountersUnjoined, summary.unjoined);
  trace.diagnostics.Count(model::Diagnostic::kCountersNoKernel, summary.no_kernel);
  trace.diagnostics.Count(model::Diagnostic::kCountersConfigMismatch, summary.config_mismatch);
  trace.diagnostics.notes.push_back(
      "--counters: " + std::to_string(summary.joined) + " of " +
      std::to_string(summary.ncu_launches) +
      " Nsight Compute launches joined to trace kernels by name, launch order and launch "
      "configuration; " +
      std::to_string(summary.no_kernel) + " found no kernel of that name left, " +
      std::to_string(summary.config_mismatch) +
      " only kernels with another grid or block (not joined).");
  return summary;
}

}  // namespace gpuperf::io::ncu
