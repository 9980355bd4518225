#include "spool/metric_sets.h"

#include <algorithm>

namespace gpuperf::spool {

const std::vector<MetricSet>& MetricSets() {
  // The roofline set: everything analysis/kernel/roofline.cc reads, with Nsight Compute's formulas
  // (docs/metrics.md "Counters"). Pass counts on GH100 from the offline host API are asserted in
  // tests/unit/inject_profiler_host_test.cc.
  static const std::vector<MetricSet> sets = {
      {"roofline",
       "FLOPs per precision (vector SASS ops, tensor ops_path), DRAM bytes, kernel time, SM clock, "
       "achieved occupancy, tensor-pipe activity",
       {
           "gpu__time_duration.sum",
           "sm__cycles_elapsed.avg.per_second",
           "dram__bytes_read.sum",
           "dram__bytes_write.sum",
           "lts__t_bytes.sum",
           "l1tex__t_bytes.sum",
           "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
           "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
           "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
           "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum",
           "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum",
           "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum",
           "smsp__sass_thread_inst_executed_op_hadd_pred_on.sum",
           "smsp__sass_thread_inst_executed_op_hmul_pred_on.sum",
           "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum",
           // Tensor FLOPs by source type; the names differ per architecture and the counter
           // pass keeps those the chip has (GH100: src_fp16; GA100/AD10x/GB100: the dst_ pair).
           "sm__ops_path_tensor_src_fp16.sum",
           "sm__ops_path_tensor_src_fp16_dst_fp16.sum",
           "sm__ops_path_tensor_src_fp16_dst_fp32.sum",
           "sm__ops_path_tensor_src_bf16_dst_fp32.sum",
           "sm__ops_path_tensor_src_tf32_dst_fp32.sum",
           "sm__ops_path_tensor_src_fp8.sum",
           "sm__ops_path_tensor_src_fp64.sum",
           "sm__ops_path_tensor_src_int8.sum",
           "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active",
           "sm__warps_active.avg.pct_of_peak_sustained_active",
       }},
      {"memory",
       "DRAM and L2 traffic and kernel time only (one pass)",
       {
           "gpu__time_duration.sum",
           "dram__bytes_read.sum",
           "dram__bytes_write.sum",
           "lts__t_bytes.sum",
       }},
  };
  return sets;
}

// A raw metric name is CUPTI's spelling, letters, digits, '_' and '.', with a "__" after the unit
// ("dram__bytes_read.sum"); anything else is refused before it reaches a report or a program.
ExpandedMetrics ExpandMetricList(std::string_view list) {
  ExpandedMetrics out;
  auto add = [&](std::string_view metric) {
    if (std::find(out.metrics.begin(), out.metrics.end(), metric) == out.metrics.end())
      out.metrics.emplace_back(metric);
  };
  for (const std::string& word : SplitMetrics(list)) {
    auto set = std::find_if(MetricSets().begin(), MetricSets().end(), [&](const MetricSet& s) {
      return s.name == word;
    });
    if (set != MetricSets().end()) {
      for (std::string_view metric : set->metrics)
        add(metric);
    } else if (word.find("__") != std::string::npos &&
               word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                      "0123456789_.") == std::string::npos) {
      add(word);
    } else {
      std::string names;
      for (const MetricSet& s : MetricSets())
        names += (names.empty() ? "" : ", ") + std::string(s.name);
      out.error = "unknown metric set or name \"" + word + "\" (sets: " + names +
                  "; raw names look like dram__bytes_read.sum)";
      return out;
    }
  }
  if (out.metrics.empty())
    out.error = "empty metric list";
  return out;
}

std::string JoinMetrics(const std::vector<std::string>& metrics) {
  std::string out;
  for (const std::string& metric : metrics)
    out += (out.empty() ? "" : ",") + metric;
  return out;
}

std::vector<std::string> SplitMetrics(std::string_view joined) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= joined.size()) {
    std::size_t comma = joined.find(',', start);
    if (comma == std::string_view::npos)
      comma = joined.size();
    std::string_view word = joined.substr(start, comma - start);
    while (!word.empty() && (word.front() == ' ' || word.front() == '\t'))
      word.remove_prefix(1);
    while (!word.empty() && (word.back() == ' ' || word.back() == '\t'))
      word.remove_suffix(1);
    if (!word.empty())
      out.emplace_back(word);
    start = comma + 1;
  }
  return out;
}

}  // namespace gpuperf::spool
