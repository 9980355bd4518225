#include "report/predict_writer.h"

#include <fmt/printf.h>

#include <algorithm>

#include "report/json_predictions.h"
#include "report/markdown_escape.h"
#include "report/plain_text.h"
#include "util/units_format.h"

namespace gpuperf::report {

nlohmann::ordered_json PredictJson(const predict::Prediction& p) {
  nlohmann::ordered_json j;
  j["kernel_regex"] = p.kernel_regex;
  j["kernels_matched"] = p.kernels_matched;
  j["fraction"] = RoundedNumber(p.fraction, 6);
  j["local_speedup"] = p.local_speedup;
  j["bound_speedup"] = RoundedNumber(p.bound_speedup, 6);
  j["bound_speedup_percent"] = RoundedNumber(p.bound_speedup_percent, 4);
  j["time_saved_ns"] = p.time_saved_ns;
  j["limit_speedup"] = RoundedNumber(p.limit_speedup, 6);
  j["critical_ns"] = p.critical_ns;
  j["total_ns"] = p.total_ns;
  j["wall_ns"] = p.wall_ns;
  j["device_groups"] = p.device_groups;
  j["roof_max_local_speedup"] = p.roof_max_local_speedup
                                    ? RoundedNumber(*p.roof_max_local_speedup, 6)
                                    : nlohmann::ordered_json(nullptr);
  j["rests_on"] = p.rests_on;
  j["method"] = p.method;
  return j;
}

std::string PredictText(const predict::Prediction& p) {
  std::string out = fmt::sprintf("kernels matched: %zu\n", p.kernels_matched.size());
  for (std::size_t i = 0; i < std::min<std::size_t>(p.kernels_matched.size(), 5); ++i)
    out += fmt::sprintf("  %s\n", SanitizeForTerminal(p.kernels_matched[i]));
  out += fmt::sprintf("f (share of critical time): %.4f  (%s critical of %s wall x %lld)\n",
                      p.fraction,
                      util::FormatDuration(static_cast<double>(p.critical_ns)),
                      util::FormatDuration(static_cast<double>(p.wall_ns)),
                      static_cast<long long>(p.device_groups));
  out += fmt::sprintf("local speedup s: %.4g\n", p.local_speedup);
  out += fmt::sprintf("bound on the program's speedup: %.4fx (%+.2f%%) = 1 / ((1 - f) + f / s)\n",
                      p.bound_speedup,
                      p.bound_speedup_percent);
  out += fmt::sprintf("time saved at most: %s per trace window\n",
                      util::FormatDuration(static_cast<double>(p.time_saved_ns)));
  out += fmt::sprintf("limit for an infinitely fast kernel: %.4fx\n", p.limit_speedup);
  for (const std::string& r : p.rests_on)
    out += fmt::sprintf("rests on: %s\n", PlainText(r));
  return out;
}

}  // namespace gpuperf::report
