// Which ceilings a report places kernels against, per device, and at what clocks
// (report.json `ceilings[]`; docs/metrics.md, "Ceilings and clocks").
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/ceilings.h"

namespace gpuperf::analysis {

// The SM clock the hardware counters of `device` were taken at: the median over its launches of
// gpc__cycles_elapsed.avg.per_second (else sm__, else smsp__cycles_elapsed.avg.per_second), in
// Hz, and the counter it came from (the first launch's); nullopt when no counter records it.
struct CountersClock {
  double hz = 0;
  std::string metric;
};
std::optional<CountersClock> CountersSmClock(const model::Trace& trace, std::int32_t device);
std::optional<double> CountersSmClockHz(const model::Trace& trace, std::int32_t device);

// The roofs of one device: the datasheet match and, when the counters record an SM clock that
// differs from the datasheet's boost clock by more than 2%, the entry scaled to that clock.
struct DeviceRoofs {
  model::CeilingMatch match;
  std::optional<double> counters_clock_hz;
  std::string counters_clock_metric;  // the counter that recorded it
  // False when the counters were joined to another trace's timeline (analyze --counters): the
  // roofline then divides by that trace's durations, whose clock the counters do not tell.
  bool durations_from_counters = true;
  std::optional<model::DeviceCeilings> scaled;

  // The clock compute peaks are scaled to: the counters' clock when the durations are theirs.
  std::optional<double> ScaleClock() const {
    return durations_from_counters ? counters_clock_hz : std::nullopt;
  }

  // The ceilings to use for counters of this device: the scaled entry when there is one.
  const model::DeviceCeilings* ForCounters() const;
};

DeviceRoofs RoofsOf(const model::Trace& trace, std::int32_t device);

// For a device with measured ceilings (Device::measured_ceilings): "; measured ceilings hold
// ... only ..., matched by ..." for a report note; "" otherwise.
std::string MeasuredScope(const model::Trace& trace, std::int32_t device);

// One entry per device that runs a kernel with a roofline, in device order.
std::vector<report::CeilingsUsed> CeilingsUsed(const model::Trace& trace,
                                               const std::vector<report::KernelRow>& kernels);

}  // namespace gpuperf::analysis
