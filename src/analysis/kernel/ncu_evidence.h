// What Nsight Compute's details page says about each kernel beyond FLOPs and bytes: the
// Speed-of-Light throughputs (each unit against its own peak on the profiled GPU) and the rule
// results (Rule Name / Type / Estimated Speedup), per kernel name; and how an
// `analyze --counters` join went (docs/metrics.md, "Nsight Compute evidence").
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <optional>
#include <vector>

namespace gpuperf::analysis {

// Fills KernelRow::speed_of_light and KernelRow::ncu_rules from the counters and the rule rows
// of the kernels' instances. Rules are ordered by estimated speedup, largest first.
void AttachNcuEvidence(const model::Trace& trace, std::vector<report::KernelRow>& kernels);

// The --counters join summary the join counted in trace.diagnostics ("counters_ncu_launches",
// "counters_joined", "counters_no_kernel", "counters_config_mismatch") and its examples
// (metadata property "counters_join_example:<n>"); nullopt when no --counters file was joined.
std::optional<report::CounterJoin> CounterJoinOf(const model::Trace& trace);

}  // namespace gpuperf::analysis
