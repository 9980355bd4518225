#include "report/json_diagnosis.h"

#include <cmath>

#include "report/json_predictions.h"

namespace gpuperf::report {
namespace {

using Json = nlohmann::ordered_json;

Json Optional(const std::optional<double>& value, int decimals) {
  if (!value || !std::isfinite(*value))
    return Json(nullptr);
  return RoundedNumber(*value, decimals);
}

}  // namespace

Json DiagnosisJson(const Diagnosis& d) {
  Json triage = Json::array();
  for (const TriageStep& step : d.triage)
    triage.push_back(Json{{"question", std::string(ToString(step.question))},
                          {"answer", std::string(ToString(step.answer))},
                          {"detail", step.detail}});
  return Json{
      {"target_metric", d.target_metric},
      {"scope", d.scope},
      {"baseline", d.baseline},
      {"dominant",
       Json{{"kind", std::string(ToString(d.dominant_kind))},
            {"name", d.dominant_name},
            {"fraction", RoundedNumber(d.dominant_fraction, 6)}}},
      {"lever", std::string(ToString(d.lever))},
      {"bottleneck", std::string(ToString(d.bottleneck))},
      {"label", d.label},
      {"status", std::string(ToString(d.status))},
      {"evidence", std::string(ToString(d.evidence))},
      {"support", d.support},
      {"triage", triage},
      {"next_experiment", d.next_experiment},
      {"bound_speedup", Optional(d.bound_speedup, 6)},
      {"bound_speedup_modeled", Optional(d.bound_speedup_modeled, 6)},
      {"bound_speedup_at_2x", Optional(d.bound_speedup_at_2x, 6)},
      {"time_removed_fraction_at_2x", Optional(d.time_removed_fraction_at_2x, 6)},
      {"bound_speedup_overlapped", Optional(d.bound_speedup_overlapped, 6)},
      {"bound_speedup_across_inputs", Optional(d.bound_speedup_across_inputs, 6)},  // since 1.24.0
      {"bound_speedup_named", Optional(d.bound_speedup_named, 6)},                  // since 1.23.0
      {"bound_speedup_same_launches", Optional(d.bound_speedup_same_launches, 6)},
      {"bound_speedup_idle_kept", Optional(d.bound_speedup_idle_kept, 6)},  // since 1.24.0
      {"bound_speedup_unrecorded_graph_work",
       Optional(d.bound_speedup_unrecorded_graph_work, 6)},  // since 1.25.0
      {"bound_speedup_piecewise_graphs", Optional(d.bound_speedup_piecewise_graphs, 6)},
      {"peer_wait_ns", d.peer_wait_ns},  // since 1.26.0
      {"bound_speedup_this_rank_only",
       Optional(d.bound_speedup_this_rank_only, 6)},                        // since 1.26.0
      {"bound_speedup_estimated", Optional(d.bound_speedup_estimated, 6)},  // since 1.20.0
      {"input_check", d.input_check},
      {"input_check_bound_speedup", Optional(d.input_check_bound_speedup, 6)},
      {"lead",
       d.lead == DiagnosisLead::kNone ? Json(nullptr) : Json(std::string(ToString(d.lead)))},
      {"falsified_by", d.falsified_by},
      {"missing_evidence", d.missing_evidence},
      {"queue",
       d.queue ? Json{{"launches", d.queue->launches},
                      {"median_ns", d.queue->median_ns},
                      {"p90_ns", d.queue->p90_ns},
                      {"verdict", std::string(ToString(d.queue->verdict))},
                      {"sentence", d.queue->sentence},
                      // since 1.22.0
                      {"blocked_launches", d.queue->blocked_launches},
                      {"blocked_ns", d.queue->blocked_ns},
                      {"queued_at_blocked_return", d.queue->queued_at_blocked_return},
                      {"blocked_return_gap_ns", d.queue->blocked_return_gap_ns},
                      {"unblocked_return_gap_ns", d.queue->unblocked_return_gap_ns},
                      {"queue_full", d.queue->queue_full},
                      // since 1.23.0
                      {"between_phases_idle_ns",
                       d.queue->between_phases_idle_ns ? Json(*d.queue->between_phases_idle_ns)
                                                       : Json(nullptr)}}
               : Json(nullptr)},
      {"secondary", d.secondary.empty() ? Json(nullptr) : DiagnosisJson(d.secondary.front())}};
}

Json InitializationJson(const Initialization& init) {
  Json items = Json::array();
  for (const InitializationItem& item : init.items)
    items.push_back(Json{{"kind", std::string(ToString(item.kind))},
                         {"name", item.name},
                         {"time_ns", item.time_ns},
                         {"count", item.count},
                         {"evidence", item.evidence}});
  return Json{{"time_ns", init.time_ns},
              {"fraction", RoundedNumber(init.fraction, 6)},
              {"steady_window_ns", init.steady_window_ns},
              {"unobserved_lead_ns", init.unobserved_lead_ns},
              {"unobserved_tail_ns", init.unobserved_tail_ns},
              {"before_window_ns", init.before_window_ns},
              {"items", std::move(items)},
              {"items_omitted", init.items_omitted}};
}

Json CeilingsJson(const std::vector<CeilingsUsed>& ceilings) {
  Json array = Json::array();
  for (const CeilingsUsed& c : ceilings) {
    Json peaks = Json::array();
    for (const CeilingPeak& p : c.peaks) {
      peaks.push_back(
          Json{{"precision", p.precision}, {"unit", p.unit}, {"flops_per_s", p.flops_per_s}});
    }
    Json object{{"device", c.device}, {"device_name", c.device_name}, {"entry", c.entry}};
    if (c.entry.empty()) {
      object["reason"] = c.reason;
      if (!c.clocks.empty())  // candidates of an unnamed device: the clock they are scaled to
        object["clocks"] = c.clocks;
    } else {
      object["evidence"] = std::string(ToString(c.evidence));
      object["source"] = c.source;
      object["dram_bytes_per_s"] = c.dram_bytes_per_s ? Json(*c.dram_bytes_per_s) : Json(nullptr);
      object["l2_bytes"] = c.l2_bytes ? Json(*c.l2_bytes) : Json(nullptr);
      object["peaks"] = std::move(peaks);
      object["clocks"] = c.clocks;
    }
    array.push_back(std::move(object));
  }
  return array;
}

Json KernelClassJson(const KernelClass& c) {
  return Json{{"bound", std::string(ToString(c.bound))},
              {"evidence", std::string(ToString(c.evidence))},
              {"reason", c.reason},
              {"basis", c.basis},
              {"tensor_cores_expected_but_unused", c.tensor_cores_expected_but_unused}};
}

}  // namespace gpuperf::report
