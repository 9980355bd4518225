#include "report/json_predictions.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <utility>
#include <vector>

#include "report/json_field_writer.h"

namespace gpuperf::report {
namespace {

using Json = nlohmann::ordered_json;

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
  Json object = Json::object();
  JsonFieldWriter write(object);
  json_fields::CriticalShareFields(share, write);
  object["illustrative_gains"] = IllustrativeGainsJson(share.illustrative_gains);
  return object;
}

namespace {

// The orphan work left out of the window before the trace's first launch call, or null.
Json PreRollJson(const std::optional<PreRollSummary>& preroll) {
  if (!preroll)
    return Json(nullptr);
  // category_ns: the categories' and the copies' time keyed by their spellings, in the order of
  // the spellings (as report.json has always written them), not of the enum.
  std::vector<std::pair<std::string_view, std::int64_t>> spelled;
  for (const auto& [category, ns] : preroll->category_ns)
    spelled.emplace_back(ToString(category), ns);
  if (preroll->memcpy_ns)
    spelled.emplace_back("memcpy", *preroll->memcpy_ns);
  std::sort(spelled.begin(), spelled.end());
  Json categories = Json::object();
  for (const auto& [name, ns] : spelled)
    categories[std::string(name)] = ns;
  return Json{{"time_ns", preroll->time_ns},
              {"gpu_ns", preroll->gpu_ns},
              {"activities", preroll->activities},
              {"category_ns", std::move(categories)},
              {"warmup_step", preroll->warmup_step},
              {"warmup_step_wall_ns", preroll->warmup_step_wall_ns},
              {"warmup_steps", preroll->warmup_steps},
              {"lead_in_unrecorded_ns", preroll->lead_in_unrecorded_ns},
              {"lead_in_unrecorded_start_ns", preroll->lead_in_unrecorded_start_ns},
              {"other_steps_median_ns", preroll->other_steps_median_ns},
              {"lead_in_ns", preroll->lead_in_ns},
              {"first_step", preroll->first_step}};
}

}  // namespace

Json PredictionsJson(const Predictions& predictions) {
  Json kernels = Json::array();
  for (const CriticalShare& k : predictions.kernels)
    kernels.push_back(CriticalShareJson(k));
  Json phases = Json::array();
  for (const CriticalShare& p : predictions.phases)
    phases.push_back(CriticalShareJson(p));
  Json object = Json::object();
  JsonFieldWriter write(object);
  json_fields::PredictionsFields(predictions, write);
  object[json_fields::kPredictedKernels] = std::move(kernels);
  object[json_fields::kKernelsOmitted] = predictions.kernels_omitted;
  object[json_fields::kPhases] = std::move(phases);
  object["preroll"] = PreRollJson(predictions.preroll);
  object["illustrative_speedups"] = predictions.illustrative_speedups;
  return object;
}

}  // namespace gpuperf::report
