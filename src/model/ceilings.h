// Datasheet ceilings: the peak DRAM bandwidth and dense arithmetic rates of the GPUs gpuperf
// knows, each with the vendor document it comes from. These are marketing peaks at boost clock
// (evidence tier "datasheet"), not measured ceilings: a kernel rarely sustains more than 80-90%
// of them. Figures we are not sure of are left unset rather than guessed.
//
// Conventions:
//  - Rates are dense (no 2:4 sparsity), in FLOP/s (INT8: op/s); bandwidth in bytes/s (1e9, not
//    2^30); L2 in bytes.
//  - "vector" is the CUDA-core / SIMD path, "tensor" the matrix units (Tensor Cores, AMD Matrix
//    Cores). Tensor FP16/BF16/FP8 rates are with FP32 accumulate, what frameworks use; GeForce
//    parts run FP16 accumulate at twice that rate.
//  - AMD MI250 figures are per GCD: ROCm shows each of the module's two dies as one device.
#pragma once

#include "gpuperf/report_vocabulary.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuperf::model {

enum class Precision : std::uint8_t { kFp64, kFp32, kFp16, kBf16, kTf32, kFp8, kInt8 };
enum class MathUnit : std::uint8_t { kVector, kTensor };

// "fp64", "fp32", "fp16", "bf16", "tf32", "fp8", "int8"; "vector", "tensor".
std::string_view ToString(Precision precision);
std::string_view ToString(MathUnit unit);

struct PeakRate {
  std::optional<double> vector;  // per second
  std::optional<double> tensor;  // per second
};

// What an unnamed device must report to be this part: its compute capability as the runtime
// reports it (HIP reports gfx942 as 9.4), its SM or compute-unit count, and its memory size in a
// range (MI300X 192 GiB against MI325X 256 GiB: same compute units, other HBM).
struct UnnamedIdentity {
  std::int32_t compute_major = 0;
  std::int32_t compute_minor = 0;
  std::int32_t sm_count = 0;
  std::int64_t memory_min_bytes = 0;
  std::int64_t memory_max_bytes = 0;
};

struct DeviceCeilings {
  std::string_view key;     // stable entry name: "H100 SXM5 80GB"
  std::string_view vendor;  // "NVIDIA", "AMD"
  // How device names select this entry: each alias is a space-separated list of tokens that must
  // all occur in the name (tokens split at non-alphanumerics, case-insensitive), e.g. "A100 SXM4
  // 40GB" matches "NVIDIA A100-SXM4-40GB". `exclude` tokens veto a match ("V100S", "NVL").
  std::vector<std::string_view> aliases;
  std::vector<std::string_view> exclude;
  std::int32_t compute_major = 0;  // 0 when not an NVIDIA compute capability (AMD)
  std::int32_t compute_minor = 0;
  std::optional<double> dram_bytes_per_s;
  std::optional<std::int64_t> l2_bytes;
  std::optional<std::int32_t> sm_count;  // SMs (NVIDIA) or compute units (AMD)
  std::optional<double> boost_clock_hz;
  // The SM clock the datasheet's tensor-core peaks hold at, when it is below boost_clock_hz:
  // Hopper's dense BF16 figure is 132 SMs x 4096 FLOP/clk x 1.83 GHz (989.5 TFLOP/s on an SXM5
  // part), while its FP32 figure is 132 x 256 x 1.98 GHz (67 TFLOP/s). AtSmClock scales the
  // non-FP64 tensor peaks against it (FP64 DMMA holds at boost: 67 TFLOP/s = 132 x 256 x 1.98).
  std::optional<double> tensor_clock_hz{};
  PeakRate fp64, fp32, fp16, bf16, tf32, fp8, int8;
  std::string_view source;  // the vendor document
  // evidence tier of every figure here
  report::CeilingsEvidence evidence = report::CeilingsEvidence::kDatasheet;
  // For a device the trace records without a name (ROCm's Kineto leaves deviceProperties' name
  // empty): the attributes that identify this part alone among the parts the table or the
  // vendor's line holds, or none when its attributes are shared with a part of other ceilings.
  std::optional<UnnamedIdentity> identity{};
  // The link to the host as the datasheet states it, and its peak per direction (half the
  // datasheet's both-ways figure): the ceiling of a copy between host memory and this GPU. Unset
  // where the datasheet does not state it (an SXM2 V100 reaches the host over NVLink on POWER9).
  std::optional<double> host_link_bytes_per_s{};
  std::string_view host_link{};

  std::optional<double> Peak(Precision precision, MathUnit unit) const;
};

// A copy of `entry` with every compute peak scaled by clock_hz / boost_clock_hz (tensor peaks by
// clock_hz / tensor_clock_hz when the entry has one, never above the datasheet). Datasheet rates
// hold at the boost clock, and Nsight Compute locks the SM clock to base by default, so counters
// must be compared with the roof at the clock they ran at. DRAM bandwidth is kept: the memory
// clock is not the SM clock. Without a boost clock (or a positive clock_hz) the copy is unscaled.
DeviceCeilings AtSmClock(const DeviceCeilings& entry, double clock_hz);

// Every entry, in a fixed order.
std::span<const DeviceCeilings> AllCeilings();

struct CeilingMatch {
  // A constructor rather than an aggregate, so that {entry, reason} stays complete.
  CeilingMatch(const DeviceCeilings* entry_in = nullptr,  // NOLINT(google-explicit-constructor)
               std::string reason_in = {},
               std::shared_ptr<const DeviceCeilings> owned_in = nullptr)
      : entry(entry_in), reason(std::move(reason_in)), owned(std::move(owned_in)) {}

  const DeviceCeilings* entry = nullptr;  // null when no entry fits
  std::string reason;                     // why not, for a report note; empty on a match
  // On a match by attributes (IdentifyUnnamed): which ones, for the report; "" on a name match.
  std::string identified_by{};
  // Keeps an entry that is not in the static table alive (measured ceilings,
  // model/measured_ceilings.h): `entry` then points into it. Null for datasheet entries.
  std::shared_ptr<const DeviceCeilings> owned;
};

// Finds the entry for a device name as traces write it ("NVIDIA H100 80GB HBM3", "NVIDIA
// A100-SXM4-40GB", "AMD Instinct MI300X"). When `compute_major` > 0 it must agree with the
// entry's compute capability. A name that fits no entry or several entries gives no match: a
// roofline against the wrong part is worse than none.
CeilingMatch FindCeilings(std::string_view device_name,
                          std::int32_t compute_major = 0,
                          std::int32_t compute_minor = 0);

// For a device the trace records without a name: the one entry whose UnnamedIdentity its
// compute capability, SM count and memory size fit, with `identified_by` saying so; no match
// (and the reason) when none or several fit.
CeilingMatch IdentifyUnnamed(std::int32_t compute_major,
                             std::int32_t compute_minor,
                             std::int32_t sm_count,
                             std::int64_t memory_bytes);

// The entries with this compute capability (several for most: 8.0 is every A100 variant). For
// messages; a compute capability alone never selects ceilings.
std::vector<const DeviceCeilings*> CeilingsForComputeCapability(std::int32_t major,
                                                                std::int32_t minor);

}  // namespace gpuperf::model
