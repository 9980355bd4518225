// One CUDA context's range profiler for the counter pass (counter_pass.h): set up once when the
// context is created (device support, chip, counter availability, config image, enable, counter
// data image, SetConfig with auto range and kernel replay), then one Start/Stop session per
// profiled launch, the counter data image reset between sessions. The sequence follows NVIDIA's
// CUDA 13 callback_profiling and profiling_injection samples (docs/recorder.md "Counter pass").
#pragma once

#include <cupti.h>
#include <cupti_range_profiler.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "inject/profiler_host.h"
#include "spool/spool_format.h"

namespace gpuperf::inject {

// Writes "counter pass: <message>" to the spool as a status.
void CounterStatus(spool::StatusLevel level, const std::string& message);

// True on CUPTI_SUCCESS; otherwise a counter-pass error status "<what>: <result>".
bool CounterOk(CUptiResult result, const char* what);

class RangeProfilerSession {
 public:
  // Everything up to SetConfig for `context`; null (with error statuses) when the device or the
  // driver cannot profile. Calls cuptiProfilerInitialize the first time (never inside cuInit).
  static std::unique_ptr<RangeProfilerSession> Create(CUcontext context,
                                                      const std::vector<std::string>& metrics);
  ~RangeProfilerSession();
  RangeProfilerSession(const RangeProfilerSession&) = delete;
  RangeProfilerSession& operator=(const RangeProfilerSession&) = delete;

  std::uint32_t device() const { return device_; }
  int cc_major() const { return cc_major_; }
  int cc_minor() const { return cc_minor_; }
  std::size_t passes() const { return host_->passes(); }
  const std::vector<std::string>& metrics() const { return host_->metrics(); }
  bool started() const { return started_; }

  // Start before the launch (its ENTER callback).
  bool Start();
  // After the launch (its EXIT callback): Stop, decode, evaluate range 0 into `values`, reset the
  // counter data image. `ranges` receives how many ranges the session held (1 expected). False
  // with a status when anything failed.
  bool Finish(std::vector<double>& values, std::int64_t& ranges, std::int64_t& dropped);
  // Stops a session still open and disables the profiler; idempotent.
  void Disable();

 private:
  RangeProfilerSession() = default;
  bool ResetImage();

  std::uint32_t device_ = 0;
  int cc_major_ = 0, cc_minor_ = 0;
  std::string chip_;
  std::unique_ptr<ProfilerHost> host_;
  CUpti_RangeProfiler_Object* object_ = nullptr;
  std::vector<std::uint8_t> counter_data_;
  bool started_ = false;
};

}  // namespace gpuperf::inject
