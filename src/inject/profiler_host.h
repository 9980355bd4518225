// The host side of CUPTI's range profiler (cupti_profiler_host.h, CUDA 13): turns metric names
// into a config image for one chip, counts the replay passes it needs, and evaluates decoded
// counter data into metric values. It needs no GPU: given a chip name ("GH100") it works offline,
// which is how the metric sets are checked in CI (docs/recorder.md "Counter pass").
#pragma once

#include <cupti_profiler_host.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gpuperf::inject {

class ProfilerHost {
 public:
  ~ProfilerHost();
  ProfilerHost(const ProfilerHost&) = delete;
  ProfilerHost& operator=(const ProfilerHost&) = delete;

  struct Created;
  // A host object for `chip` with `metrics` in its config image. `availability` is the device's
  // counter-availability image (empty offline). On failure, `error` names the CUPTI call, the
  // result and, for a metric CUPTI rejects, the metric.
  static Created Create(const std::string& chip,
                        const std::vector<std::uint8_t>& availability,
                        const std::vector<std::string>& metrics);
  // Create, but metrics the chip rejects are left out (listed in dropped()) instead of failing
  // the whole set; fails only when none is left.
  static Created CreateForChip(const std::string& chip,
                               const std::vector<std::uint8_t>& availability,
                               const std::vector<std::string>& metrics);

  const std::vector<std::uint8_t>& config_image() const { return config_image_; }
  std::size_t passes() const { return passes_; }
  const std::vector<std::string>& metrics() const { return metrics_; }
  // Metrics CreateForChip left out because this chip does not have them.
  const std::vector<std::string>& dropped() const { return dropped_; }

  // The metric values of range `range` of a decoded counter-data image, in metrics() order; an
  // error text instead when CUPTI cannot evaluate it.
  bool Evaluate(const std::vector<std::uint8_t>& counter_data,
                std::size_t range,
                std::vector<double>& values,
                std::string& error) const;

 private:
  ProfilerHost() = default;
  CUpti_Profiler_Host_Object* object_ = nullptr;
  std::vector<std::string> metrics_;
  std::vector<std::string> dropped_;
  std::vector<std::uint8_t> config_image_;
  std::size_t passes_ = 0;
};

struct ProfilerHost::Created {
  std::unique_ptr<ProfilerHost> host;  // null on failure
  std::string error;
};

// "CUPTI_ERROR_INVALID_METRIC_NAME" for a result code.
std::string CuptiResultText(CUptiResult result);

}  // namespace gpuperf::inject
