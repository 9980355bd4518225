// The roofline of each kernel name from the hardware counters in Trace::counters (Nsight Compute
// metric names, docs/formats.md, "Nsight Compute's roofline") against the datasheet ceilings of its
// device (model/ceilings.h).
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/roofline.h"
#include "gpuperf/trace.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/kernel/device_roofs.h"
#include "model/ceilings.h"

namespace gpuperf::analysis {

using PrecisionUnit = std::pair<model::Precision, model::MathUnit>;

// The FLOPs of one launch by precision and unit, with Nsight Compute's formulas:
//   fp32 vector = fadd + fmul + 2 ffma, fp64 vector = dadd + dmul + 2 dfma,
//   fp16 vector = 2 hadd + 2 hmul + 4 hfma (smsp__sass_thread_inst_executed_op_*_pred_on.sum),
//   tensor = sm__ops_path_tensor_src_<type>*.sum by source type (ncu 2025), else
//   512 x sm(sp)__inst_executed_pipe_tensor.sum as fp16 (ncu 2022.3's fixed factor), only when
//   the fp16 and fp64 vector counters are recorded and zero (GA100's pipe counts them too).
// A vector family counts only when all three of its counters are present; a tensor counter only
// when it is non-zero (a zero tensor count says nothing about the vector units). nullopt when
// nothing counts: FLOPs unknown, not zero.
std::optional<std::map<PrecisionUnit, double>> LaunchFlops(
    const std::map<std::string, double>& metrics);

// dram__bytes_read.sum + dram__bytes_write.sum, else dram__bytes.sum; nullopt when neither.
std::optional<double> LaunchDramBytes(const std::map<std::string, double>& metrics);

// One launch with counters, as the roofline needs it.
struct RooflineInstance {
  std::int64_t duration_ns = 0;  // -1: unknown (a replay span without gpu__time_duration)
  const std::map<std::string, double>* metrics = nullptr;
};

// The roofline of one kernel name over `instances` (at least one). `ceilings` may be null: then
// only flops, bytes, intensity and achieved rates are filled and bound is "unknown".
report::KernelRoofline ComputeRoofline(const std::vector<RooflineInstance>& instances,
                                       const model::DeviceCeilings* ceilings);

// The work of one instance, however it is known (counters or a shape model): FLOPs by precision
// and unit, bytes; nullopt when unknown.
struct InstanceWork {
  std::int64_t duration_ns = 0;  // -1: unknown; then no achieved rates and bound "unknown"
  std::optional<std::map<PrecisionUnit, double>> flops;
  std::optional<double> bytes;
};

// ComputeRoofline on work already counted; evidence is left "measured" for the caller to set.
report::KernelRoofline RooflineFromWork(const std::vector<InstanceWork>& instances,
                                        const model::DeviceCeilings* ceilings);

// "device 0: datasheet H100 SXM5 80GB (source); device 1: no datasheet ceilings (reason)", for
// the notes of the modelled rooflines.
std::string DescribeCeilings(const std::map<std::int32_t, model::CeilingMatch>& matches);

// Fills KernelRow::roofline for every kernel name with counters against its device's `roofs`
// and appends to `notes` which ceilings were used (or why none). Does nothing when the trace has
// no counters.
void AttachRooflines(const model::Trace& trace,
                     const DeviceRoofsTable& roofs,
                     std::vector<report::KernelRow>& kernels,
                     std::vector<std::string>& notes);

}  // namespace gpuperf::analysis
