// The predict model: what `gpuperf predict --kernel REGEX --speedup S` computes (analysis,
// analysis/predictions.h) and its writers print (report/predict_writer.h). The JSON keys it is
// written with are a CI contract: never renamed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuperf::predict {

struct Prediction {
  std::string kernel_regex;                  // --kernel, as given
  std::vector<std::string> kernels_matched;  // sorted, each name once
  double fraction = 0;                       // f: the matched kernels' share of critical time
  double local_speedup = 1;                  // s: --speedup
  double bound_speedup = 1;                  // 1 / ((1 - f) + f / s)
  double bound_speedup_percent = 0;          // 100 x (bound_speedup - 1), as the text prints it
  std::int64_t time_saved_ns = 0;            // per trace window, per device group
  double limit_speedup = 1;                  // 1 / (1 - f); +infinity when f = 1
  std::int64_t critical_ns = 0;
  std::int64_t total_ns = 0;
  std::int64_t wall_ns = 0;  // the trace window
  std::int64_t device_groups = 1;
  // The largest local speedup the roofline floors allow (report.json input, every matched
  // kernel with a floor); absent otherwise.
  std::optional<double> roof_max_local_speedup;
  std::vector<std::string> rests_on;  // the assumptions, one sentence each; warnings included
  std::string method;                 // how critical time was attributed
};

}  // namespace gpuperf::predict
