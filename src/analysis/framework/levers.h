// The lever of a GPU-bound window, chosen from the operator / category / module view rather than
// from the single hottest kernel (docs/method.md, "Levers"): fuse an elementwise chain, use SDPA
// for eager attention, channels_last for layout kernels, TF32/AMP for FP32 GEMMs on tensor-core
// GPUs. Each lever carries the GPU time it addresses and its Amdahl bound at the roof the change
// would reach; the diagnosis takes the one with the largest bound.
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/kernel/device_roofs.h"
#include "util/intervals.h"

namespace gpuperf::analysis::framework {

struct Lever {
  report::LeverKind kind = report::LeverKind::kNone;  // report_vocabulary.h
  std::string subject;  // the operators, module or category it acts on, for the sentences
  // The bottleneck class it treats: kMemoryBound (intermediates written and read back:
  // elementwise chains, eager attention's score matrix, layout conversions) or
  // kTensorCoresUnused (FP32 GEMMs on a tensor-core GPU); a class of its kernels' bounds when
  // most of their time has one (LeverFinder::ClassFromKernels).
  report::Bottleneck bottleneck = report::Bottleneck::kNone;
  std::string missing_evidence;  // the counters that would turn the hypothesis into a finding
  std::int64_t time_ns = 0;      // GPU time of the work it acts on
  std::int64_t saved_ns = 0;     // at most this much comes back (the bound's numerator)
  // Of saved_ns: the part that rests on an assumption (work without a model counted as free),
  // said beside the bound so that a reader sees how much of it is modelled.
  std::int64_t assumed_ns = 0;
  double fraction = 0;       // saved_ns / wall
  double bound_speedup = 1;  // Amdahl: 1 / (1 - fraction)
  std::string basis;         // how saved_ns was bounded, with its evidence tier
  // Set when saved_ns is the work made this many times faster (an assumption), not a roof.
  std::optional<double> assumed_local_speedup;
  // Set when saved_ns rests on an assumed efficiency at the new roof (the FP32 GEMMs at the
  // fraction of peak they reach now): what would come back at the roof itself, the ceiling,
  // which no kernel reaches. saved_ns is then an estimate, not a bound.
  std::optional<std::int64_t> ceiling_saved_ns;
  std::string experiment;    // the change to try
  std::string falsified_by;  // the measurement that would reject it
};

// Every lever that applies to the report's framework view, largest bound first. `wall_ns` is
// Amdahl's denominator (predictions.wall_ns).
// `wall_ns`: the window the bounds are over (the diagnosis' steady-state window); 0: the report's
// recorded window. `window`: its span, for levers measured on the trace's activities (empty:
// all of them). `roofs`: the devices' ceilings analyze.cc resolved.
std::vector<Lever> FindLevers(const model::Trace& trace,
                              const DeviceRoofsTable& roofs,
                              const report::AnalysisReport& report,
                              std::int64_t wall_ns = 0,
                              util::Interval window = {});

}  // namespace gpuperf::analysis::framework
