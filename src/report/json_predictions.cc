#include "report/json_predictions.h"

#include <cmath>

namespace gpuperf::report {
namespace {

using Json = nlohmann::ordered_json;

template <class T>
Json Optional(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

Json OptionalRatio(const std::optional<double>& value) {
  return value ? RoundedNumber(*value, 6) : Json(nullptr);
}

Json IllustrativeGainsJson(const std::vector<IllustrativeGain>& gains) {
  Json out = Json::array();
  for (const IllustrativeGain& g : gains)
    out.push_back(Json{{"local_speedup", RoundedNumber(g.local_speedup, 6)},
                       {"bound_speedup", RoundedNumber(g.bound_speedup, 6)},
                       {"time_saved_ns", g.time_saved_ns}});
  return out;
}

}  // namespace

Json RoundedNumber(double value, int decimals) {
  if (!std::isfinite(value))
    return nullptr;
  double scale = std::pow(10.0, decimals);
  double rounded = std::round(value * scale) / scale;
  return rounded == 0 ? 0.0 : rounded;  // never "-0.0"
}

Json CriticalShareJson(const CriticalShare& share) {
  return Json{{"name", share.name},
              {"kind", share.kind},
              {"instances", share.instances},
              {"total_ns", share.total_ns},
              {"exclusive_ns", share.exclusive_ns},
              {"critical_ns", share.critical_ns},
              {"fraction", RoundedNumber(share.fraction, 6)},
              {"limit_speedup", OptionalRatio(share.limit_speedup)},
              {"floor_ns", Optional(share.floor_ns)},
              {"floor_evidence", share.floor_ns ? Json(share.floor_evidence) : Json(nullptr)},
              {"max_local_speedup", OptionalRatio(share.max_local_speedup)},
              {"bound_speedup_at_roof", OptionalRatio(share.bound_speedup_at_roof)},
              {"recoverable_ns", Optional(share.recoverable_ns)},
              {"illustrative_gains", IllustrativeGainsJson(share.illustrative_gains)}};
}

namespace {

// The orphan work left out of the window before the trace's first launch call, or null.
Json PreRollJson(const std::optional<PreRollSummary>& preroll) {
  if (!preroll)
    return Json(nullptr);
  Json categories = Json::object();
  for (const auto& [name, ns] : preroll->category_ns)
    categories[name] = ns;
  return Json{{"time_ns", preroll->time_ns},
              {"gpu_ns", preroll->gpu_ns},
              {"activities", preroll->activities},
              {"category_ns", std::move(categories)}};
}

}  // namespace

Json PredictionsJson(const Predictions& predictions) {
  Json kernels = Json::array();
  for (const CriticalShare& k : predictions.kernels)
    kernels.push_back(CriticalShareJson(k));
  Json phases = Json::array();
  for (const CriticalShare& p : predictions.phases)
    phases.push_back(CriticalShareJson(p));
  return Json{{"wall_ns", predictions.wall_ns},
              {"wall_source", predictions.wall_source},
              {"device_groups", predictions.device_groups},
              {"method", predictions.method},
              {"ranking", predictions.ranking},
              {"kernels", std::move(kernels)},
              {"kernels_omitted", predictions.kernels_omitted},
              {"phases", std::move(phases)},
              {"preroll", PreRollJson(predictions.preroll)},
              {"illustrative_speedups", predictions.illustrative_speedups}};
}

}  // namespace gpuperf::report
