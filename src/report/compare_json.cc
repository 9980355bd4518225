#include "report/compare_writer.h"
#include "report/json_predictions.h"

namespace gpuperf::report {
namespace {

using Json = nlohmann::ordered_json;

Json OrNull(const std::optional<double>& v, int digits) {
  return v ? RoundedNumber(*v, digits) : Json(nullptr);
}

// ratio, ci_low, ci_high, p_value and mean_ratio are null when not computed, so that a CI gate
// on `ratio` or `ci_high` never reads 0 for "no data".
Json StatisticJson(const compare::Statistic& s) {
  Json json{{"verdict", std::string(compare::ToString(s.verdict))},
            {"method", s.method},
            {"n_before", s.n_before},
            {"n_after", s.n_after},
            {"median_before", RoundedNumber(s.median_before, 3)},
            {"median_after", RoundedNumber(s.median_after, 3)},
            {"ratio", OrNull(s.ratio, 6)},
            {"ci_low", OrNull(s.ci_low, 6)},
            {"ci_high", OrNull(s.ci_high, 6)},
            {"p_value", OrNull(s.p_value, 8)}};
  if (s.mean_ratio)
    json["mean_ratio"] = RoundedNumber(*s.mean_ratio, 6);
  json["reason"] = s.reason;
  // Since 1.3.0: the changes compare.md prints, so that its writer computes nothing.
  auto relative = [](const std::optional<compare::ChangeReading>& c) {
    return c ? RoundedNumber(c->relative_change, 6) : Json(nullptr);
  };
  json["relative_change"] = relative(s.change);
  json["ci_low_change"] = relative(s.ci_low_change);
  json["ci_high_change"] = relative(s.ci_high_change);
  json["ci_too_wide"] = s.ci_too_wide;
  return json;
}

Json FingerprintJson(const compare::Fingerprint& f) {
  Json inputs = Json::object();
  for (const auto& [path, sha] : f.inputs)
    inputs[path] = sha;
  return Json{{"gpus", f.gpus},
              {"driver", f.driver},
              {"cuda", f.cuda},
              {"clocks", f.clocks},
              {"command", f.command},
              {"executable_sha256", f.executable_sha256},
              {"inputs", std::move(inputs)}};
}

Json Optional(const std::optional<double>& v) {
  return v ? RoundedNumber(*v, 3) : Json(nullptr);
}

}  // namespace

Json CompareToJson(const compare::CompareReport& r, const ToolInfo& tool) {
  Json json;
  json["schema_version"] = compare::kCompareSchemaVersion;
  json["tool"] = Json{{"name", tool.name}, {"version", tool.version}};
  json["verdict"] = std::string(compare::ToString(r.verdict));
  json["verdict_basis"] = std::string(compare::ToString(r.verdict_basis));
  json["summary"] = r.summary;
  json["options"] = Json{{"threshold", r.options.threshold},
                         {"alpha", r.options.alpha},
                         {"min_repeats", r.options.min_repeats},
                         {"allow_different_env", r.options.allow_different_env},
                         {"min_workload_overlap", r.options.min_workload_overlap}};
  json["method"] = r.method;
  json["before"] = Json{{"path", r.before_path},
                        {"kind", std::string(ToString(r.before_kind))},
                        {"sha256", r.before_sha256},
                        {"environment", FingerprintJson(r.before_env)}};
  json["after"] = Json{{"path", r.after_path},
                       {"kind", std::string(ToString(r.after_kind))},
                       {"sha256", r.after_sha256},
                       {"environment", FingerprintJson(r.after_env)}};
  Json differences = Json::array();
  for (const auto& d : r.env_differences)
    differences.push_back(
        Json{{"field", d.field}, {"before", d.before}, {"after", d.after}, {"gating", d.gating}});
  json["environment_differences"] = std::move(differences);
  json["workload_overlap"] = RoundedNumber(r.workload_overlap, 6);
  json["end_to_end"] = StatisticJson(r.end_to_end);
  json["end_to_end"]["source"] = r.end_to_end_source;
  // Kernels and operators: the same statistic per name.
  auto results = [](const std::vector<compare::KernelResult>& rows) {
    Json array = Json::array();
    for (const auto& k : rows) {
      Json object = StatisticJson(k.statistic);
      object["name"] = k.name;
      object["total_before_ns"] = k.total_before_ns;
      object["total_after_ns"] = k.total_after_ns;
      object["share_before"] = RoundedNumber(k.share_before, 6);
      array.push_back(std::move(object));
    }
    return array;
  };
  json["kernels"] = results(r.kernels);
  json["kernels_omitted"] = r.kernels_omitted;
  json["only_before"] = r.only_before;
  json["only_after"] = r.only_after;
  json["operators"] = results(r.operators);
  json["operators_omitted"] = r.operators_omitted;
  json["only_before_operators"] = r.only_before_operators;
  json["only_after_operators"] = r.only_after_operators;
  auto changes = [](const std::vector<compare::GroupChange>& rows) {
    Json array = Json::array();
    for (const auto& c : rows)
      array.push_back(Json{{"name", c.name},
                           {"before_ns", c.before_ns},
                           {"after_ns", c.after_ns},
                           {"ratio", c.ratio ? RoundedNumber(*c.ratio, 6) : Json(nullptr)},
                           {"relative_change", OrNull(c.relative_change, 6)}});
    return array;
  };
  json["categories"] = changes(r.categories);
  json["modules"] = changes(r.modules);
  Json audit = Json::array();
  for (const auto& a : r.audit)
    audit.push_back(Json{{"metric", a.metric},
                         {"before", Optional(a.before)},
                         {"after", Optional(a.after)},
                         {"unit", a.unit},
                         {"relative_change", OrNull(a.relative_change, 6)}});
  json["audit"] = std::move(audit);
  Json reconciliation = Json::array();
  for (const auto& c : r.reconciliation)
    reconciliation.push_back(
        Json{{"kernel", c.kernel},
             {"kernel_speedup", RoundedNumber(c.kernel_speedup, 6)},
             {"fraction_before", RoundedNumber(c.fraction_before, 6)},
             {"predicted_end_to_end_speedup", RoundedNumber(c.predicted_end_to_end_speedup, 6)},
             {"measured_end_to_end_speedup",
              c.measured_end_to_end_speedup ? RoundedNumber(*c.measured_end_to_end_speedup, 6)
                                            : Json(nullptr)},
             {"flag", c.flag}});
  json["reconciliation"] = std::move(reconciliation);
  json["limitations"] = r.limitations;
  return json;
}

}  // namespace gpuperf::report
