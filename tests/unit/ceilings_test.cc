// The datasheet table: lookup by the device names traces write, and the figures' conventions.
#include "model/ceilings.h"

#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "analysis/kernel/device_roofs.h"

namespace {

using gpuperf::model::AllCeilings;
using gpuperf::model::CeilingsForComputeCapability;
using gpuperf::model::FindCeilings;
using gpuperf::model::MathUnit;
using gpuperf::model::Precision;

std::string KeyOf(std::string_view name, int major = 0, int minor = 0) {
  auto match = FindCeilings(name, major, minor);
  return match.entry ? std::string(match.entry->key) : "none: " + match.reason;
}

TEST_CASE("ceilings: device names as traces write them", "[ceilings]") {
  CHECK(KeyOf("NVIDIA H100 80GB HBM3", 9, 0) == "H100 SXM5 80GB");
  CHECK(KeyOf("NVIDIA H100 PCIe", 9, 0) == "H100 PCIe");
  CHECK(KeyOf("NVIDIA A100-SXM4-40GB", 8, 0) == "A100 SXM4 40GB");
  // Meta's HGX board name (kineto/hta/cupti_profiler: 42.5 GB, 108 SMs).
  CHECK(KeyOf("NVIDIA A100-PG509-200", 8, 0) == "A100 SXM4 40GB");
  CHECK(KeyOf("NVIDIA A100-SXM4-80GB") == "A100 SXM4 80GB");
  CHECK(KeyOf("NVIDIA A100-PCIE-40GB", 8, 0) == "A100 PCIe 40GB");
  CHECK(KeyOf("NVIDIA A100 80GB PCIe") == "A100 PCIe 80GB");
  CHECK(KeyOf("NVIDIA H200") == "H200 SXM");
  CHECK(KeyOf("NVIDIA H800") == "H800 SXM5");
  CHECK(KeyOf("NVIDIA B200", 10, 0) == "B200");
  CHECK(KeyOf("NVIDIA L4") == "L4");
  CHECK(KeyOf("NVIDIA L40S") == "L40S");
  CHECK(KeyOf("NVIDIA GeForce RTX 3090") == "GeForce RTX 3090");
  CHECK(KeyOf("NVIDIA GeForce RTX 4090") == "GeForce RTX 4090");
  CHECK(KeyOf("NVIDIA GeForce RTX 5090", 12, 0) == "GeForce RTX 5090");
  CHECK(KeyOf("Tesla V100-SXM2-16GB", 7, 0) == "V100 SXM2");
  CHECK(KeyOf("Tesla V100-SXM2-32GB") == "V100 SXM2");
  CHECK(KeyOf("Tesla V100-PCIE-32GB") == "V100 PCIe");
  // DGX Station's NVLink V100s: SXM2 parts at the same clocks (500 TFLOPS for four).
  CHECK(KeyOf("Tesla V100-DGXS-32GB") == "V100 SXM2");
  CHECK(KeyOf("AMD Instinct MI300X") == "Instinct MI300X");
  CHECK(KeyOf("AMD Instinct MI250") == "Instinct MI250 (one GCD)");
  CHECK(KeyOf("nvidia h100 80gb hbm3") == "H100 SXM5 80GB");  // case-insensitive
}

TEST_CASE("ceilings: near misses select nothing rather than a wrong part", "[ceilings]") {
  for (const char* name : {"NVIDIA H100 NVL",
                           "NVIDIA H200 NVL",
                           "NVIDIA GB200",
                           "NVIDIA L40",
                           "NVIDIA GeForce RTX 3090 Ti",
                           "NVIDIA GeForce RTX 4090 D",
                           "NVIDIA GeForce RTX 4090 Laptop GPU",
                           "NVIDIA GeForce RTX 5060 Ti",
                           "Tesla V100S-PCIE-32GB",
                           "AMD Instinct MI250X / MI250",
                           "AMD Instinct MI210",
                           "Quadro GP100"}) {
    INFO(name);
    auto match = FindCeilings(name);
    CHECK(match.entry == nullptr);
    CHECK_FALSE(match.reason.empty());
  }
  CHECK(FindCeilings("").reason == "the trace does not name the GPU");
}

TEST_CASE("ceilings: a compute capability that contradicts the name rejects it", "[ceilings]") {
  auto match = FindCeilings("NVIDIA A100-SXM4-40GB", 9, 0);
  CHECK(match.entry == nullptr);
  CHECK(match.reason.find("compute capability 9.0") != std::string::npos);
  CHECK(FindCeilings("AMD Instinct MI300X", 9, 4).entry != nullptr);  // AMD: no NVIDIA cc
}

TEST_CASE("ceilings: a compute capability alone lists candidates, never picks", "[ceilings]") {
  auto a100 = CeilingsForComputeCapability(8, 0);
  CHECK(a100.size() == 4);
  auto hopper = CeilingsForComputeCapability(9, 0);
  CHECK(hopper.size() == 4);  // H100 SXM, H100 PCIe, H200, H800
  CHECK(CeilingsForComputeCapability(12, 0).size() == 1);
  CHECK(CeilingsForComputeCapability(0, 0).empty());
}

TEST_CASE("ceilings: datasheet figures, dense, with sources", "[ceilings]") {
  const auto* a100 = FindCeilings("NVIDIA A100-SXM4-40GB").entry;
  REQUIRE(a100 != nullptr);
  CHECK(*a100->dram_bytes_per_s == Approx(1555e9));
  CHECK(*a100->Peak(Precision::kFp32, MathUnit::kVector) == Approx(19.5e12));
  CHECK(*a100->Peak(Precision::kFp16, MathUnit::kTensor) == Approx(312e12));  // not 624 sparse
  CHECK(*a100->Peak(Precision::kFp64, MathUnit::kTensor) == Approx(19.5e12));
  CHECK_FALSE(a100->Peak(Precision::kFp8, MathUnit::kTensor).has_value());  // no FP8 on A100
  CHECK(*a100->l2_bytes == 40 * 1024 * 1024);
  CHECK(*a100->sm_count == 108);

  const auto* h100 = FindCeilings("NVIDIA H100 80GB HBM3").entry;
  REQUIRE(h100 != nullptr);
  CHECK(*h100->dram_bytes_per_s == Approx(3.35e12));
  CHECK(*h100->Peak(Precision::kBf16, MathUnit::kTensor) == Approx(989.5e12));
  CHECK(*h100->Peak(Precision::kFp8, MathUnit::kTensor) == Approx(1979e12));
  CHECK(*FindCeilings("NVIDIA H800").entry->Peak(Precision::kFp64, MathUnit::kVector) ==
        Approx(1e12));
  CHECK(*FindCeilings("NVIDIA A100 80GB PCIe").entry->dram_bytes_per_s == Approx(1935e9));
  CHECK(*FindCeilings("NVIDIA A100-SXM4-80GB").entry->dram_bytes_per_s == Approx(2039e9));

  std::set<std::string> keys;
  for (const auto& entry : AllCeilings()) {
    INFO(entry.key);
    CHECK(keys.insert(std::string(entry.key)).second);  // unique keys
    CHECK_FALSE(entry.source.empty());
    CHECK(entry.evidence == gpuperf::report::CeilingsEvidence::kDatasheet);
    CHECK(entry.dram_bytes_per_s.has_value());
    // A vector FP32 peak, where recorded, matches SMs x clock within 2% for NVIDIA parts with
    // 64 (Volta, GA100) or 128 (GA10x and later) FP32 lanes per SM.
    if (entry.vendor == "NVIDIA" && entry.fp32.vector && entry.sm_count && entry.boost_clock_hz) {
      double per_sm_clock = *entry.fp32.vector / (*entry.sm_count * *entry.boost_clock_hz);
      bool lanes64 = std::abs(per_sm_clock - 128) < 128 * 0.02;
      bool lanes128 = std::abs(per_sm_clock - 256) < 256 * 0.02;
      CHECK((lanes64 || lanes128));
    }
  }
  CHECK(keys.size() == 18);
}

}  // namespace

TEST_CASE("ceilings: an unnamed device is identified only by attributes one entry declares",
          "[ceilings]") {
  // ROCm's Kineto: name "", computeMajor 9, computeMinor 4, numSms 304, 206141652992 bytes.
  auto mi300x = gpuperf::model::IdentifyUnnamed(9, 4, 304, 206141652992);
  REQUIRE(mi300x.entry != nullptr);
  CHECK(mi300x.entry->key == "Instinct MI300X");
  CHECK(mi300x.identified_by.find("identified as Instinct MI300X by its attributes") !=
        std::string::npos);
  // MI325X: the same compute units with 256 GiB; MI300A: 228 CUs; an H100 by cc and SMs.
  CHECK(gpuperf::model::IdentifyUnnamed(9, 4, 304, 256LL << 30).entry == nullptr);
  CHECK(gpuperf::model::IdentifyUnnamed(9, 4, 228, 128LL << 30).entry == nullptr);
  CHECK(gpuperf::model::IdentifyUnnamed(9, 0, 132, 80LL << 30).entry == nullptr);
  // A name match says nothing about attributes.
  CHECK(FindCeilings("AMD Instinct MI300X VF").identified_by.empty());
}

TEST_CASE("ceilings: a trace's unnamed MI300X gets its ceilings, and says how", "[ceilings]") {
  gpuperf::model::Trace trace;
  gpuperf::model::Device d;
  d.id = 2;
  d.compute_major = 9;
  d.compute_minor = 4;
  d.sm_count = 304;
  d.memory_bytes = 206141652992;
  trace.devices.push_back(d);
  gpuperf::model::CeilingMatch match = gpuperf::analysis::DeviceCeilingMatch(trace, 2);
  REQUIRE(match.entry != nullptr);
  CHECK(match.entry->key == "Instinct MI300X");
  CHECK_FALSE(match.identified_by.empty());
  // 256 GiB is an MI325X: no entry, and the reason stays.
  trace.devices[0].memory_bytes = 256LL << 30;
  CHECK(gpuperf::analysis::DeviceCeilingMatch(trace, 2).entry == nullptr);
}
