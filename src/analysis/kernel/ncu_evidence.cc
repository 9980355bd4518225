#include "analysis/kernel/ncu_evidence.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "model/ncu_rules.h"

namespace gpuperf::analysis {
namespace {

// Duration-weighted sums of one Speed-of-Light figure (percent in the counters, 0-1 here).
struct Weighted {
  double sum = 0, weight = 0;
  void Add(const std::map<std::string, double>& metrics, const char* name, double w) {
    auto it = metrics.find(name);
    if (it == metrics.end() || !std::isfinite(it->second))
      return;
    sum += w * std::clamp(it->second / 100.0, 0.0, 1.0);
    weight += w;
  }
  std::optional<double> Value() const {
    return weight > 0 ? std::optional<double>(sum / weight) : std::nullopt;
  }
};

struct SolSums {
  Weighted compute, memory, dram, l1, l2;
  std::int64_t instances = 0;
};

void AddSol(const model::KernelCounters& c, double weight, SolSums& sums) {
  const auto& m = c.metrics;
  const bool any = m.count("sm__throughput.avg.pct_of_peak_sustained_elapsed") ||
                   m.count("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed");
  if (!any)
    return;
  ++sums.instances;
  sums.compute.Add(m, "sm__throughput.avg.pct_of_peak_sustained_elapsed", weight);
  sums.memory.Add(m, "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", weight);
  // ncu 2025 names the DRAM figure gpu__dram_throughput, older versions dram__throughput.
  if (m.count("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"))
    sums.dram.Add(m, "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", weight);
  else
    sums.dram.Add(m, "dram__throughput.avg.pct_of_peak_sustained_elapsed", weight);
  sums.l1.Add(m, "l1tex__throughput.avg.pct_of_peak_sustained_active", weight);
  sums.l2.Add(m, "lts__throughput.avg.pct_of_peak_sustained_elapsed", weight);
}

// One rule per name over the instances: the largest estimate and its description.
void AddRules(const std::vector<model::NcuRuleRow>& rows,
              std::map<std::string, report::NcuRule>& rules) {
  for (const model::NcuRuleRow& row : rows) {
    auto [it, inserted] = rules.try_emplace(row.section + "/" + row.name);
    report::NcuRule& rule = it->second;
    ++rule.instances;
    const bool larger = row.estimated_speedup_percent &&
                        (!rule.estimated_speedup_percent ||
                         *row.estimated_speedup_percent > *rule.estimated_speedup_percent);
    if (inserted || larger) {
      rule.section = row.section;
      rule.name = row.name;
      rule.type = row.type;
      rule.speedup_type = row.speedup_type;
      rule.description = row.description;
      if (row.estimated_speedup_percent)
        rule.estimated_speedup_percent = row.estimated_speedup_percent;
    }
  }
}

std::vector<report::NcuRule> Ranked(std::map<std::string, report::NcuRule> rules) {
  std::vector<report::NcuRule> out;
  for (auto& [key, rule] : rules)
    out.push_back(std::move(rule));
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.estimated_speedup_percent.value_or(-1) > b.estimated_speedup_percent.value_or(-1);
  });
  return out;
}

}  // namespace

void AttachNcuEvidence(const model::Trace& trace, std::vector<report::KernelRow>& kernels) {
  if (trace.counters.empty())
    return;
  std::map<std::string, SolSums, std::less<>> sol;
  std::map<std::string, std::map<std::string, report::NcuRule>, std::less<>> rules;
  for (const model::KernelCounters& c : trace.counters) {
    if (c.activity >= trace.activities.size())
      continue;
    const model::GpuActivity& a = trace.activities[c.activity];
    std::string name(trace.Name(a.name));
    // Weighted by duration like the time it describes; without one (a replay span, a CSV
    // without durations) every instance weighs the same.
    const double weight =
        !c.replay_span && a.duration_ns() > 0 ? static_cast<double>(a.duration_ns()) : 1.0;
    AddSol(c, weight, sol[name]);
    AddRules(model::LoadNcuRules(trace.metadata, c.activity), rules[name]);
  }
  for (report::KernelRow& row : kernels) {
    if (auto it = sol.find(row.name); it != sol.end() && it->second.instances > 0) {
      const SolSums& s = it->second;
      row.speed_of_light = report::SpeedOfLight{s.compute.Value(),
                                                s.memory.Value(),
                                                s.dram.Value(),
                                                s.l1.Value(),
                                                s.l2.Value(),
                                                s.instances};
    }
    if (auto it = rules.find(row.name); it != rules.end())
      row.ncu_rules = Ranked(std::move(it->second));
  }
}

std::optional<report::CounterJoin> CounterJoinOf(const model::Trace& trace) {
  const model::Diagnostics& counts = trace.diagnostics;
  if (!counts.Has(model::Diagnostic::kCountersNcuLaunches))
    return std::nullopt;
  report::CounterJoin join;
  join.ncu_launches = counts.Get(model::Diagnostic::kCountersNcuLaunches);
  join.joined = counts.Get(model::Diagnostic::kCountersJoined);
  join.no_kernel = counts.Get(model::Diagnostic::kCountersNoKernel);
  join.config_mismatch = counts.Get(model::Diagnostic::kCountersConfigMismatch);
  for (int i = 0;; ++i) {
    auto it = trace.metadata.properties.find("counters_join_example:" + std::to_string(i));
    if (it == trace.metadata.properties.end())
      break;
    join.examples.push_back(it->second);
  }
  return join;
}

}  // namespace gpuperf::analysis
