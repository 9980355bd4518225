// What `gpuperf baseline --metrics LIST` collects in its counter pass: named sets of CUPTI range-
// profiler metrics and raw metric names. Shared by the CLI (which expands the list and passes it
// to the program's environment) and the injected library (which reads it back).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpuperf::spool {

struct MetricSet {
  std::string_view name;
  std::string_view purpose;
  std::vector<std::string_view> metrics;
};

// The built-in sets ("roofline", ...), in documentation order.
const std::vector<MetricSet>& MetricSets();

// Expands "roofline,l1tex__t_bytes.sum": set names become their metrics, raw names (anything
// with "__") stay; duplicates are dropped, order kept. An error text (naming the bad word) when
// a word is neither, or the list is empty.
struct ExpandedMetrics {
  std::vector<std::string> metrics;
  std::string error;  // empty on success
};
ExpandedMetrics ExpandMetricList(std::string_view list);

// The environment form of a metric list (comma-separated) and back.
std::string JoinMetrics(const std::vector<std::string>& metrics);
std::vector<std::string> SplitMetrics(std::string_view joined);

}  // namespace gpuperf::spool
