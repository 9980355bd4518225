// The datasheet table. Every figure is the vendor's dense peak; see ceilings.h for conventions.
#include "model/ceilings.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace gpuperf::model {
namespace {

constexpr double kT = 1e12;
constexpr double kG = 1e9;
constexpr std::int64_t kMiB = 1024 * 1024;
constexpr std::int64_t kGiB = 1024 * kMiB;

// The four A100 variants share every rate; only the DRAM bandwidth differs.
DeviceCeilings A100(std::string_view key,
                    std::vector<std::string_view> aliases,
                    double dram_bytes_per_s) {
  return {.key = key,
          .vendor = "NVIDIA",
          .aliases = std::move(aliases),
          .exclude = {},
          .compute_major = 8,
          .compute_minor = 0,
          .dram_bytes_per_s = dram_bytes_per_s,
          .l2_bytes = 40 * kMiB,
          .sm_count = 108,
          .boost_clock_hz = 1410e6,
          .fp64 = {9.7 * kT, 19.5 * kT},
          .fp32 = {19.5 * kT, {}},
          .fp16 = {78 * kT, 312 * kT},
          .bf16 = {39 * kT, 312 * kT},
          .tf32 = {{}, 156 * kT},
          .fp8 = {},
          .int8 = {{}, 624 * kT},
          .source =
              "NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020), table 1; NVIDIA "
              "A100 Tensor Core GPU datasheet (bandwidth per variant)",
          .host_link_bytes_per_s = 32 * kG,
          .host_link = "A100 datasheet: PCIe Gen4, 64 GB/s both ways"};
}

// Hopper SXM5 tensor rates (H100 SXM, H200, H800): the datasheets' sparsity figures halved.
DeviceCeilings HopperSxm(std::string_view key,
                         std::vector<std::string_view> aliases,
                         std::vector<std::string_view> exclude,
                         double dram_bytes_per_s,
                         PeakRate fp64,
                         std::string_view source) {
  return {.key = key,
          .vendor = "NVIDIA",
          .aliases = std::move(aliases),
          .exclude = std::move(exclude),
          .compute_major = 9,
          .compute_minor = 0,
          .dram_bytes_per_s = dram_bytes_per_s,
          .l2_bytes = {},
          .sm_count = 132,
          .boost_clock_hz = 1980e6,
          .tensor_clock_hz = 1830e6,  // 989.5e12 / (132 SMs x 4096 dense BF16 FLOP/clk)
          .fp64 = fp64,
          .fp32 = {67 * kT, {}},
          .fp16 = {{}, 989.5 * kT},
          .bf16 = {{}, 989.5 * kT},
          .tf32 = {{}, 494.5 * kT},
          .fp8 = {{}, 1979 * kT},
          .int8 = {{}, 1979 * kT},
          .source = source};
}

std::vector<DeviceCeilings> BuildTable() {
  std::vector<DeviceCeilings> table;
  table.push_back({.key = "V100 SXM2",
                   .vendor = "NVIDIA",
                   // DGX Station's V100s are SXM2 parts (its white paper WP-V01: four NVLink
                   // V100s, 500 TFLOPS mixed precision, 125 each).
                   .aliases = {"V100 SXM2", "V100 DGXS"},
                   .exclude = {"V100S"},
                   .compute_major = 7,
                   .compute_minor = 0,
                   .dram_bytes_per_s = 900 * kG,
                   .l2_bytes = 6 * kMiB,
                   .sm_count = 80,
                   .boost_clock_hz = 1530e6,
                   .fp64 = {7.8 * kT, {}},
                   .fp32 = {15.7 * kT, {}},
                   .fp16 = {31.4 * kT, 125 * kT},
                   .bf16 = {},
                   .tf32 = {},
                   .fp8 = {},
                   .int8 = {},
                   .source = "NVIDIA Tesla V100 GPU Architecture whitepaper (WP-08608-001 v1.1); "
                             "NVIDIA V100 Tensor Core GPU datasheet (SXM2); NVIDIA DGX Station "
                             "white paper (WP-V01) for the DGXS parts"});
  table.push_back({.key = "V100 PCIe",
                   .vendor = "NVIDIA",
                   .aliases = {"V100 PCIE"},
                   .exclude = {"V100S"},
                   .compute_major = 7,
                   .compute_minor = 0,
                   .dram_bytes_per_s = 900 * kG,
                   .l2_bytes = 6 * kMiB,
                   .sm_count = 80,
                   .boost_clock_hz = 1380e6,
                   .fp64 = {7 * kT, {}},
                   .fp32 = {14 * kT, {}},
                   .fp16 = {28 * kT, 112 * kT},
                   .bf16 = {},
                   .tf32 = {},
                   .fp8 = {},
                   .int8 = {},
                   .source = "NVIDIA V100 Tensor Core GPU datasheet (PCIe)",
                   .host_link_bytes_per_s = 16 * kG,
                   .host_link = "V100 datasheet: PCIe Gen3, 32 GB/s both ways"});
  // "A100-PG509-200" is how Meta's HGX A100 boards name themselves (PG509 is the SXM4 board;
  // the HTA cupti_profiler trace records 42.5 GB and 108 SMs for it): the 40 GB SXM4 part.
  table.push_back(A100("A100 SXM4 40GB", {"A100 SXM4 40GB", "A100 PG509 200"}, 1555 * kG));
  table.push_back(A100("A100 SXM4 80GB", {"A100 SXM4 80GB", "A100 SXM 80GB"}, 2039 * kG));
  table.push_back(A100("A100 PCIe 40GB", {"A100 PCIE 40GB"}, 1555 * kG));
  table.push_back(A100("A100 PCIe 80GB", {"A100 80GB PCIE", "A100 PCIE 80GB"}, 1935 * kG));
  DeviceCeilings h100 = HopperSxm("H100 SXM5 80GB",
                                  {"H100 80GB HBM3", "H100 SXM5 80GB"},
                                  {"NVL", "PCIE"},
                                  3.35 * kT,
                                  {34 * kT, 67 * kT},
                                  "NVIDIA H100 Tensor Core GPU datasheet (SXM; dense = sparsity "
                                  "figures / 2)");
  h100.l2_bytes = 50 * kMiB;
  h100.host_link_bytes_per_s = 64 * kG;
  h100.host_link = "H100 datasheet: PCIe Gen5, 128 GB/s both ways";
  table.push_back(std::move(h100));
  table.push_back({.key = "H100 PCIe",
                   .vendor = "NVIDIA",
                   .aliases = {"H100 PCIE"},
                   .exclude = {"NVL"},
                   .compute_major = 9,
                   .compute_minor = 0,
                   .dram_bytes_per_s = 2.0 * kT,
                   .l2_bytes = 50 * kMiB,
                   .sm_count = 114,
                   .boost_clock_hz = 1755e6,
                   .tensor_clock_hz = 1620e6,  // 756.5e12 / (114 SMs x 4096 BF16 FLOP/clk)
                   .fp64 = {26 * kT, 51 * kT},
                   .fp32 = {51 * kT, {}},
                   .fp16 = {{}, 756.5 * kT},
                   .bf16 = {{}, 756.5 * kT},
                   .tf32 = {{}, 378 * kT},
                   .fp8 = {{}, 1513 * kT},
                   .int8 = {{}, 1513 * kT},
                   .source = "NVIDIA H100 Tensor Core GPU datasheet (PCIe; dense = sparsity "
                             "figures / 2)",
                   .host_link_bytes_per_s = 64 * kG,
                   .host_link = "H100 datasheet: PCIe Gen5, 128 GB/s both ways"});
  DeviceCeilings h200 = HopperSxm("H200 SXM",
                                  {"H200"},
                                  {"NVL"},
                                  4.8 * kT,
                                  {34 * kT, 67 * kT},
                                  "NVIDIA H200 Tensor Core GPU datasheet (SXM; dense = sparsity "
                                  "figures / 2)");
  h200.host_link_bytes_per_s = 64 * kG;
  h200.host_link = "H200 datasheet: PCIe Gen5, 128 GB/s both ways";
  table.push_back(std::move(h200));
  table.push_back(HopperSxm("H800 SXM5",
                            {"H800"},
                            {"NVL", "PCIE"},
                            3.35 * kT,
                            {1 * kT, 1 * kT},
                            "NVIDIA H800 Tensor Core GPU datasheet (SXM; dense = sparsity "
                            "figures / 2)"));
  table.push_back({.key = "B200",
                   .vendor = "NVIDIA",
                   .aliases = {"B200"},
                   .exclude = {},
                   .compute_major = 10,
                   .compute_minor = 0,
                   .dram_bytes_per_s = 8 * kT,
                   .l2_bytes = {},
                   .sm_count = {},
                   .boost_clock_hz = {},
                   .fp64 = {37 * kT, 37 * kT},
                   .fp32 = {},
                   .fp16 = {{}, 2250 * kT},
                   .bf16 = {{}, 2250 * kT},
                   .tf32 = {{}, 1125 * kT},
                   .fp8 = {{}, 4500 * kT},
                   .int8 = {{}, 4500 * kT},
                   .source = "NVIDIA HGX B200 datasheet (per GPU = 8-GPU figures / 8; dense = "
                             "sparsity figures / 2)"});
  table.push_back({.key = "L4",
                   .vendor = "NVIDIA",
                   .aliases = {"L4"},
                   .exclude = {},
                   .compute_major = 8,
                   .compute_minor = 9,
                   .dram_bytes_per_s = 300 * kG,
                   .l2_bytes = 48 * kMiB,
                   .sm_count = 58,
                   .boost_clock_hz = 2040e6,
                   .fp64 = {},
                   .fp32 = {30.3 * kT, {}},
                   .fp16 = {{}, 121 * kT},
                   .bf16 = {{}, 121 * kT},
                   .tf32 = {{}, 60 * kT},
                   .fp8 = {{}, 242.5 * kT},
                   .int8 = {{}, 242.5 * kT},
                   .source = "NVIDIA L4 Tensor Core GPU datasheet (dense = sparsity figures / 2)"});
  table.push_back({.key = "L40S",
                   .vendor = "NVIDIA",
                   .aliases = {"L40S"},
                   .exclude = {},
                   .compute_major = 8,
                   .compute_minor = 9,
                   .dram_bytes_per_s = 864 * kG,
                   .l2_bytes = 96 * kMiB,
                   .sm_count = 142,
                   .boost_clock_hz = 2520e6,
                   .fp64 = {},
                   .fp32 = {91.6 * kT, {}},
                   .fp16 = {{}, 362.05 * kT},
                   .bf16 = {{}, 362.05 * kT},
                   .tf32 = {{}, 183 * kT},
                   .fp8 = {{}, 733 * kT},
                   .int8 = {{}, 733 * kT},
                   .source = "NVIDIA L40S GPU datasheet (dense figures)"});
  table.push_back({.key = "GeForce RTX 3090",
                   .vendor = "NVIDIA",
                   .aliases = {"RTX 3090"},
                   .exclude = {"TI"},
                   .compute_major = 8,
                   .compute_minor = 6,
                   .dram_bytes_per_s = 936 * kG,
                   .l2_bytes = 6 * kMiB,
                   .sm_count = 82,
                   .boost_clock_hz = 1695e6,
                   .fp64 = {},
                   .fp32 = {35.6 * kT, {}},
                   .fp16 = {35.6 * kT, 71 * kT},
                   .bf16 = {{}, 71 * kT},
                   .tf32 = {{}, 35.6 * kT},
                   .fp8 = {},
                   .int8 = {{}, 284 * kT},
                   .source = "NVIDIA Ampere GA102 GPU Architecture whitepaper, RTX 3090 column "
                             "(FP16/BF16 tensor with FP32 accumulate)"});
  table.push_back({.key = "GeForce RTX 4090",
                   .vendor = "NVIDIA",
                   .aliases = {"RTX 4090"},
                   .exclude = {"D", "LAPTOP"},
                   .compute_major = 8,
                   .compute_minor = 9,
                   .dram_bytes_per_s = 1008 * kG,
                   .l2_bytes = 72 * kMiB,
                   .sm_count = 128,
                   .boost_clock_hz = 2520e6,
                   .fp64 = {},
                   .fp32 = {82.6 * kT, {}},
                   .fp16 = {82.6 * kT, 165.2 * kT},
                   .bf16 = {{}, 165.2 * kT},
                   .tf32 = {{}, 82.6 * kT},
                   .fp8 = {{}, 330.3 * kT},
                   .int8 = {{}, 660.6 * kT},
                   .source = "NVIDIA Ada GPU Architecture whitepaper, RTX 4090 column (FP16/BF16/"
                             "FP8 tensor with FP32 accumulate)"});
  table.push_back({.key = "GeForce RTX 5090",
                   .vendor = "NVIDIA",
                   .aliases = {"RTX 5090"},
                   .exclude = {"D", "LAPTOP"},
                   .compute_major = 12,
                   .compute_minor = 0,
                   .dram_bytes_per_s = 1792 * kG,
                   .l2_bytes = 96 * kMiB,
                   .sm_count = 170,
                   .boost_clock_hz = 2407e6,
                   .fp64 = {},
                   .fp32 = {104.8 * kT, {}},
                   .fp16 = {},
                   .bf16 = {},
                   .tf32 = {},
                   .fp8 = {},
                   .int8 = {},
                   .source = "NVIDIA RTX Blackwell GPU Architecture whitepaper, RTX 5090 column "
                             "(tensor rates not recorded here)"});
  table.push_back({.key = "Instinct MI250 (one GCD)",
                   .vendor = "AMD",
                   .aliases = {"MI250"},
                   .exclude = {"MI250X"},
                   .compute_major = 0,
                   .compute_minor = 0,
                   .dram_bytes_per_s = 1638.4 * kG,
                   .l2_bytes = 8 * kMiB,
                   .sm_count = 104,
                   .boost_clock_hz = 1700e6,
                   .fp64 = {22.65 * kT, 45.25 * kT},
                   .fp32 = {22.65 * kT, 45.25 * kT},
                   .fp16 = {{}, 181.05 * kT},
                   .bf16 = {{}, 181.05 * kT},
                   .tf32 = {},
                   .fp8 = {},
                   .int8 = {{}, 181.05 * kT},
                   .source = "AMD Instinct MI250 accelerator datasheet (per module, halved: ROCm "
                             "shows each of the two GCDs as one device)"});
  table.push_back({.key = "Instinct MI300X",
                   .vendor = "AMD",
                   .aliases = {"MI300X"},
                   .exclude = {},
                   .compute_major = 0,
                   .compute_minor = 0,
                   .dram_bytes_per_s = 5.3 * kT,
                   .l2_bytes = {},
                   .sm_count = 304,
                   .boost_clock_hz = 2100e6,
                   .fp64 = {81.7 * kT, 163.4 * kT},
                   .fp32 = {163.4 * kT, 163.4 * kT},
                   .fp16 = {{}, 1307.4 * kT},
                   .bf16 = {{}, 1307.4 * kT},
                   .tf32 = {{}, 653.7 * kT},
                   .fp8 = {{}, 2614.9 * kT},
                   .int8 = {{}, 2614.9 * kT},
                   .source = "AMD Instinct MI300X accelerator datasheet (dense figures)",
                   // gfx942 with 304 CUs and 192 GiB: MI325X has the same CUs and 256 GiB,
                   // MI300A 228 CUs. HIP reports 206141652992 bytes (vllm_hip_graphs).
                   .identity = UnnamedIdentity{.compute_major = 9,
                                               .compute_minor = 4,
                                               .sm_count = 304,
                                               .memory_min_bytes = 180 * kGiB,
                                               .memory_max_bytes = 200 * kGiB}});
  return table;
}

// Upper-case alphanumeric tokens: "NVIDIA A100-SXM4-40GB" -> {NVIDIA, A100, SXM4, 40GB}.
std::vector<std::string> Tokens(std::string_view text) {
  std::vector<std::string> tokens;
  std::string current;
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) {
      current += static_cast<char>(std::toupper(u));
    } else if (!current.empty()) {
      tokens.push_back(std::move(current));
      current.clear();
    }
  }
  if (!current.empty())
    tokens.push_back(std::move(current));
  return tokens;
}

bool HasAll(const std::vector<std::string>& tokens, std::string_view pattern) {
  for (const std::string& wanted : Tokens(pattern)) {
    if (std::find(tokens.begin(), tokens.end(), wanted) == tokens.end())
      return false;
  }
  return true;
}

bool Matches(const DeviceCeilings& entry, const std::vector<std::string>& tokens) {
  for (std::string_view veto : entry.exclude) {
    if (HasAll(tokens, veto))
      return false;
  }
  return std::any_of(entry.aliases.begin(), entry.aliases.end(), [&](std::string_view alias) {
    return HasAll(tokens, alias);
  });
}

}  // namespace

std::string_view ToString(Precision precision) {
  switch (precision) {
    case Precision::kFp64:
      return "fp64";
    case Precision::kFp32:
      return "fp32";
    case Precision::kFp16:
      return "fp16";
    case Precision::kBf16:
      return "bf16";
    case Precision::kTf32:
      return "tf32";
    case Precision::kFp8:
      return "fp8";
    case Precision::kInt8:
      return "int8";
  }
  return "unknown";
}

std::string_view ToString(MathUnit unit) {
  return unit == MathUnit::kTensor ? "tensor" : "vector";
}

std::optional<double> DeviceCeilings::Peak(Precision precision, MathUnit unit) const {
  const PeakRate* rate = nullptr;
  switch (precision) {
    case Precision::kFp64:
      rate = &fp64;
      break;
    case Precision::kFp32:
      rate = &fp32;
      break;
    case Precision::kFp16:
      rate = &fp16;
      break;
    case Precision::kBf16:
      rate = &bf16;
      break;
    case Precision::kTf32:
      rate = &tf32;
      break;
    case Precision::kFp8:
      rate = &fp8;
      break;
    case Precision::kInt8:
      rate = &int8;
      break;
  }
  if (rate == nullptr)
    return std::nullopt;
  return unit == MathUnit::kTensor ? rate->tensor : rate->vector;
}

std::span<const DeviceCeilings> AllCeilings() {
  static const std::vector<DeviceCeilings> table = BuildTable();
  return table;
}

CeilingMatch FindCeilings(std::string_view device_name,
                          std::int32_t compute_major,
                          std::int32_t compute_minor) {
  std::vector<std::string> tokens = Tokens(device_name);
  if (tokens.empty())
    return {nullptr, "the trace does not name the GPU"};
  std::vector<const DeviceCeilings*> found;
  for (const DeviceCeilings& entry : AllCeilings()) {
    if (Matches(entry, tokens))
      found.push_back(&entry);
  }
  std::string quoted = "\"" + std::string(device_name) + "\"";
  if (found.empty())
    return {nullptr, "no datasheet entry for " + quoted};
  if (found.size() > 1) {
    return {nullptr,
            quoted + " fits " + std::to_string(found.size()) + " datasheet entries (" +
                std::string(found[0]->key) + ", " + std::string(found[1]->key) + ")"};
  }
  const DeviceCeilings* entry = found.front();
  if (compute_major > 0 && entry->compute_major > 0 &&
      (compute_major != entry->compute_major || compute_minor != entry->compute_minor)) {
    auto cc = [](std::int32_t major, std::int32_t minor) {
      return std::to_string(major) + "." + std::to_string(minor);
    };
    return {nullptr,
            quoted + " reports compute capability " + cc(compute_major, compute_minor) + ", the " +
                std::string(entry->key) + " entry has " +
                cc(entry->compute_major, entry->compute_minor)};
  }
  return {entry, ""};
}

CeilingMatch IdentifyUnnamed(std::int32_t compute_major,
                             std::int32_t compute_minor,
                             std::int32_t sm_count,
                             std::int64_t memory_bytes) {
  std::vector<const DeviceCeilings*> found;
  for (const DeviceCeilings& entry : AllCeilings()) {
    const std::optional<UnnamedIdentity>& id = entry.identity;
    if (id && id->compute_major == compute_major && id->compute_minor == compute_minor &&
        id->sm_count == sm_count && id->memory_min_bytes <= memory_bytes &&
        memory_bytes <= id->memory_max_bytes)
      found.push_back(&entry);
  }
  if (found.size() != 1)
    return {nullptr, "the trace does not name the GPU"};
  CeilingMatch match{found.front(), ""};
  match.identified_by = "the trace names no GPU; identified as " + std::string(found.front()->key) +
                        " by its attributes (compute capability " + std::to_string(compute_major) +
                        "." + std::to_string(compute_minor) + ", " + std::to_string(sm_count) +
                        " SMs or compute units, " + std::to_string(memory_bytes / kGiB) + " GiB)";
  return match;
}

std::vector<const DeviceCeilings*> CeilingsForComputeCapability(std::int32_t major,
                                                                std::int32_t minor) {
  std::vector<const DeviceCeilings*> entries;
  for (const DeviceCeilings& entry : AllCeilings()) {
    if (major > 0 && entry.compute_major == major && entry.compute_minor == minor)
      entries.push_back(&entry);
  }
  return entries;
}

}  // namespace gpuperf::model
