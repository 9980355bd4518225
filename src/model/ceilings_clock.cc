// Ceilings at a clock other than the datasheet's boost clock (model/ceilings.h, AtSmClock).
#include <algorithm>

#include "model/ceilings.h"

namespace gpuperf::model {
namespace {

void Scale(PeakRate& rate, double vector_factor, double tensor_factor) {
  if (rate.vector)
    *rate.vector *= vector_factor;
  if (rate.tensor)
    *rate.tensor *= tensor_factor;
}

}  // namespace

DeviceCeilings AtSmClock(const DeviceCeilings& entry, double clock_hz) {
  DeviceCeilings scaled = entry;
  if (!entry.boost_clock_hz || *entry.boost_clock_hz <= 0 || clock_hz <= 0)
    return scaled;
  double factor = clock_hz / *entry.boost_clock_hz;
  // Tensor peaks hold at their own clock where the datasheet quotes them so: a clock above it
  // does not raise them past the datasheet.
  double tensor_factor = entry.tensor_clock_hz && *entry.tensor_clock_hz > 0
                             ? std::min(1.0, clock_hz / *entry.tensor_clock_hz)
                             : factor;
  // FP64 tensor (DMMA) peaks hold at the boost clock (Hopper: 67 TFLOP/s = 132 x 256 x 1.98 GHz).
  Scale(scaled.fp64, factor, factor);
  for (PeakRate* rate :
       {&scaled.fp32, &scaled.fp16, &scaled.bf16, &scaled.tf32, &scaled.fp8, &scaled.int8})
    Scale(*rate, factor, tensor_factor);
  return scaled;
}

}  // namespace gpuperf::model
