// Ceilings at a clock other than the datasheet's boost clock (model/ceilings.h, AtSmClock).
#include "model/ceilings.h"

namespace gpuperf::model {
namespace {

void Scale(PeakRate& rate, double factor) {
  if (rate.vector)
    *rate.vector *= factor;
  if (rate.tensor)
    *rate.tensor *= factor;
}

}  // namespace

DeviceCeilings AtSmClock(const DeviceCeilings& entry, double clock_hz) {
  DeviceCeilings scaled = entry;
  if (!entry.boost_clock_hz || *entry.boost_clock_hz <= 0 || clock_hz <= 0)
    return scaled;
  double factor = clock_hz / *entry.boost_clock_hz;
  for (PeakRate* rate : {&scaled.fp64,
                         &scaled.fp32,
                         &scaled.fp16,
                         &scaled.bf16,
                         &scaled.tf32,
                         &scaled.fp8,
                         &scaled.int8})
    Scale(*rate, factor);
  return scaled;
}

}  // namespace gpuperf::model
