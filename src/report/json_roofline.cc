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
  object["bound"] = r.bound;
  object["evidence"] = r.evidence;
  if (!r.ceiling_source.empty())
    object["ceiling_source"] = r.ceiling_source;
  Put(object, "peak_flops_per_s", r.peak_flops_per_s, Significant);
  Put(object, "peak_bytes_per_s", r.peak_bytes_per_s, Significant);
  Put(object, "l2_bytes", r.l2_bytes, Whole);
  Put(object, "l1_bytes", r.l1_bytes, Whole);
  Put(object, "l2_arithmetic_intensity", r.l2_arithmetic_intensity, Significant);
  Put(object, "l1_arithmetic_intensity", r.l1_arithmetic_intensity, Significant);
  return object;
}

}  // namespace gpuperf::report
