#include "report/json_roofline.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace gpuperf::report {
namespace {

using Json = nlohmann::ordered_json;

// Counts (FLOPs, bytes) are whole numbers; rates and ratios keep 6 significant digits, which is
// far below counter noise and keeps golden files stable across platforms.
double Whole(double value) {
  return std::round(value);
}

double Significant(double value) {
  if (value == 0 || !std::isfinite(value))
    return 0.0;
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);  // the nearest double to 6 digits
  return std::strtod(text, nullptr);
}

void Put(Json& object,
         const char* key,
         const std::optional<double>& value,
         double (*round)(double)) {
  if (value && std::isfinite(*value))
    object[key] = round(*value);
}

}  // namespace

Json RooflineJson(const KernelRoofline& r) {
  Json object = Json::object();
  object["instances"] = r.instances;
  if (!r.precision.empty())
    object["precision"] = r.precision;
  if (!r.unit.empty())
    object["unit"] = r.unit;
  Put(object, "flops", r.flops, Whole);
  Put(object, "dram_bytes", r.dram_bytes, Whole);
  Put(object, "arithmetic_intensity", r.arithmetic_intensity, Significant);
  Put(object, "achieved_flops_per_s", r.achieved_flops_per_s, Significant);
  Put(object, "achieved_bytes_per_s", r.achieved_bytes_per_s, Significant);
  Put(object, "roof_fraction", r.roof_fraction, Significant);
  if (r.floor_ns)
    object["floor_ns"] = *r.floor_ns;
  object["bound"] = std::string(ToString(r.bound));
  object["evidence"] = std::string(ToString(r.evidence));
  if (!r.ceiling_source.empty())
    object["ceiling_source"] = r.ceiling_source;
  Put(object, "sm_clock_hz", r.sm_clock_hz, Significant);
  Put(object, "peak_flops_per_s", r.peak_flops_per_s, Significant);
  Put(object, "peak_bytes_per_s", r.peak_bytes_per_s, Significant);
  Put(object, "l2_bytes", r.l2_bytes, Whole);
  Put(object, "l1_bytes", r.l1_bytes, Whole);
  Put(object, "l2_arithmetic_intensity", r.l2_arithmetic_intensity, Significant);
  Put(object, "l1_arithmetic_intensity", r.l1_arithmetic_intensity, Significant);
  Put(object, "l2_over_dram_bytes", r.l2_over_dram_bytes, Significant);  // since 1.21.0
  if (!r.ceiling_candidates.empty())
    object["ceiling_candidates"] = r.ceiling_candidates;
  for (const auto& [key, range] : {std::pair{"compute_fraction_range", &r.compute_fraction_range},
                                   std::pair{"memory_fraction_range", &r.memory_fraction_range}}) {
    if (*range)
      object[key] = Json::array({Significant((*range)->first), Significant((*range)->second)});
  }
  return object;
}

Json SpeedOfLightJson(const SpeedOfLight& sol) {
  Json object = Json::object();
  Put(object, "compute", sol.compute, Significant);
  Put(object, "memory", sol.memory, Significant);
  Put(object, "dram", sol.dram, Significant);
  Put(object, "l1", sol.l1, Significant);
  Put(object, "l2", sol.l2, Significant);
  object["instances"] = sol.instances;
  object["evidence"] = std::string(ToString(EvidenceTier::kMeasured));
  return object;
}

Json NcuRulesJson(const std::vector<NcuRule>& rules) {
  Json array = Json::array();
  for (const NcuRule& rule : rules) {
    Json object{{"section", rule.section}, {"name", rule.name}, {"type", rule.type}};
    object["speedup_type"] = rule.speedup_type;
    object["estimated_speedup_percent"] = rule.estimated_speedup_percent
                                              ? Json(Significant(*rule.estimated_speedup_percent))
                                              : Json(nullptr);
    object["description"] = rule.description;
    object["instances"] = rule.instances;
    array.push_back(std::move(object));
  }
  return array;
}

}  // namespace gpuperf::report
