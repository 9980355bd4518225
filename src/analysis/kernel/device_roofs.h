// The ceilings of each device, resolved once per analysis (analyze.cc) and passed to every pass
// that places work on a roof: counter rooflines, the user model, the shape models, the ceilings
// table of the report, the step table's MFU and the diagnosis (its levers, the pinned-copy
// bound) (docs/metrics.md, "Ceilings and clocks"). A device's measured ceilings win over its
// datasheet entry.
#pragma once

#include "gpuperf/trace.h"

#include <cstdint>
#include <map>
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

// The datasheet (or measured) entry of device `device` of the trace, or why there is none.
model::CeilingMatch DeviceCeilingMatch(const model::Trace& trace, std::int32_t device);

// The roofs of one device: the datasheet match and, when the counters record an SM clock that
// differs from the datasheet's boost clock by more than 2%, the entry scaled to that clock.
struct DeviceRoofs {
  model::CeilingMatch match;
  std::optional<double> counters_clock_hz;
  std::string counters_clock_metric;  // the counter that recorded it
  // False when the counters were joined to another trace's timeline (analyze --counters): the
  // roofline then divides by that trace's durations, whose clock the counters do not tell;
  // unless those durations agree with the counters' own (gpu__time_duration.sum, median within
  // 5% over three launches or more): then they ran at the counters' clock.
  bool durations_from_counters = true;
  std::optional<model::DeviceCeilings> scaled;
  // Every datasheet entry of the device's compute capability (MinWaves' SM count when the trace
  // records none).
  std::vector<const model::DeviceCeilings*> compute_capability_entries;
  // The same when the trace does not name the device and no ceilings matched (a standalone
  // Nsight Compute CSV); empty otherwise.
  std::vector<const model::DeviceCeilings*> unnamed_candidates;

  // The clock compute peaks are scaled to: the counters' clock when the durations are theirs.
  std::optional<double> ScaleClock() const {
    return durations_from_counters ? counters_clock_hz : std::nullopt;
  }

  // The ceilings to use for counters of this device: the scaled entry when there is one.
  const model::DeviceCeilings* ForCounters() const;
};

DeviceRoofs RoofsOf(const model::Trace& trace, std::int32_t device);

// Every device's roofs: those of the trace's devices and of every device an activity ran on.
class DeviceRoofsTable {
 public:
  explicit DeviceRoofsTable(const model::Trace& trace);

  // The roofs of `device`; a device the trace does not know has no ceilings.
  const DeviceRoofs& Of(std::int32_t device) const;
  // In device order.
  const std::map<std::int32_t, DeviceRoofs>& All() const { return roofs_; }

 private:
  std::map<std::int32_t, DeviceRoofs> roofs_;
  DeviceRoofs unknown_;
};

// For a device with measured ceilings (Device::measured_ceilings): "; measured ceilings hold
// ... only ..., matched by ..." for a report note; "" otherwise.
std::string MeasuredScope(const model::Trace& trace, std::int32_t device);

}  // namespace gpuperf::analysis
