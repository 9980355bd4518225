#include "io/ncu/counter_join.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>
#include <vector>

namespace gpuperf::io::ncu {
namespace {

// The name without a trailing balanced "(...)": "f<int>(float *, int)" -> "f<int>".
std::string_view WithoutParameters(std::string_view name) {
  if (name.empty() || name.back() != ')')
    return name;
  int depth = 0;
  for (std::size_t i = name.size(); i-- > 0;) {
    if (name[i] == ')')
      ++depth;
    else if (name[i] == '(' && --depth == 0)
      return name.substr(0, i);
  }
  return name;
}

bool IsBare(std::string_view name) {
  return name.find_first_of("<(: ") == std::string_view::npos;
}

// Per key, the trace's kernel indices in start order and how many are taken.
struct Queue {
  std::vector<std::size_t> kernels;
  std::size_t next = 0;
};

}  // namespace

std::string JoinKey(std::string_view kernel_name) {
  std::string key;
  for (char c : WithoutParameters(kernel_name)) {
    if (!std::isspace(static_cast<unsigned char>(c)))
      key += c;
  }
  return key;
}

std::string BaseName(std::string_view kernel_name) {
  std::string_view name = WithoutParameters(kernel_name);
  name = name.substr(0, name.find('<'));
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back())))
    name.remove_suffix(1);
  if (std::size_t space = name.find_last_of(' '); space != std::string_view::npos)
    name = name.substr(space + 1);  // "void ns::f" -> "ns::f"
  if (std::size_t colons = name.rfind("::"); colons != std::string_view::npos)
    name = name.substr(colons + 2);
  return std::string(name);
}

JoinSummary JoinCounters(model::Trace& trace, const model::Trace& counters) {
  std::vector<std::size_t> order(trace.activities.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return trace.activities[a].start_ns < trace.activities[b].start_ns;
  });
  std::map<std::string, Queue> by_key, by_base;
  for (std::size_t index : order) {
    const model::GpuActivity& a = trace.activities[index];
    if (a.kind != model::ActivityKind::kKernel)
      continue;
    by_key[JoinKey(trace.Name(a.name))].kernels.push_back(index);
    by_base[BaseName(trace.Name(a.name))].kernels.push_back(index);
  }
  // Kernels that already have counters (an earlier --counters file) are not joined again.
  std::vector<bool> taken(trace.activities.size(), false);
  for (const model::KernelCounters& c : trace.counters) {
    if (c.activity < taken.size())
      taken[c.activity] = true;
  }
  JoinSummary summary;
  std::vector<std::string> unmatched;
  for (const model::KernelCounters& c : counters.counters) {
    if (c.activity >= counters.activities.size())
      continue;
    std::string_view name = counters.Name(counters.activities[c.activity].name);
    ++summary.ncu_launches;
    Queue& queue = IsBare(name) ? by_base[std::string(name)] : by_key[JoinKey(name)];
    while (queue.next < queue.kernels.size() && taken[queue.kernels[queue.next]])
      ++queue.next;
    if (queue.next >= queue.kernels.size()) {
      ++summary.unjoined;
      if (unmatched.size() < 3 &&
          std::find(unmatched.begin(), unmatched.end(), name) == unmatched.end())
        unmatched.emplace_back(name);
      continue;
    }
    std::size_t index = queue.kernels[queue.next++];
    taken[index] = true;
    trace.counters.push_back({index, c.metrics});
    ++summary.joined;
  }
  trace.diagnostics.Count("counters_joined", summary.joined);
  trace.diagnostics.Count("counters_unjoined", summary.unjoined);
  std::string note = "--counters: " + std::to_string(summary.joined) + " of " +
                     std::to_string(summary.ncu_launches) +
                     " Nsight Compute launches joined to trace kernels by name and launch order";
  if (!unmatched.empty()) {
    note += "; not joined (no instance of that name left in the trace), e.g.";
    for (const std::string& name : unmatched)
      note += " \"" + name + "\"";
  }
  trace.diagnostics.notes.push_back(note + ".");
  return summary;
}

}  // namespace gpuperf::io::ncu
