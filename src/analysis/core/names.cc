#include "analysis/core/names.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <iterator>

namespace gpuperf::analysis {
namespace {

// ASCII folding: names are ASCII identifiers, and std::tolower's locale lookup per character
// was a visible share of the analysis.
char Lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool StartsWithAny(std::string_view name, std::initializer_list<std::string_view> prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(), [&](std::string_view p) {
    return StartsWithNoCase(name, p);
  });
}

bool IsHostMemoryApi(std::string_view name) {
  return ContainsNoCase(name, "Host") || ContainsNoCase(name, "Array") ||
         ContainsNoCase(name, "Mipmapped");
}

}  // namespace

std::string AsciiLower(std::string_view text) {
  std::string folded(text);
  for (char& c : folded)
    c = Lower(c);
  return folded;
}

bool ContainsNoCase(std::string_view text, std::string_view needle) {
  if (needle.empty())
    return true;
  char first = Lower(needle.front());
  for (std::size_t i = 0; i + needle.size() <= text.size(); ++i) {
    if (Lower(text[i]) != first)
      continue;
    std::size_t k = 1;
    while (k < needle.size() && Lower(text[i + k]) == Lower(needle[k]))
      ++k;
    if (k == needle.size())
      return true;
  }
  return false;
}

bool StartsWithNoCase(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && ContainsNoCase(text.substr(0, prefix.size()), prefix);
}

bool IsMatrixShapedKernel(std::string_view name) {
  for (std::string_view token : {"gemm", "matmul", "conv", "attention", "attn", "mma", "flash"}) {
    if (ContainsNoCase(name, token))
      return true;
  }
  return false;
}

std::string WithoutAddresses(std::string_view name) {
  static constexpr std::string_view kAt = " at 0x";
  std::string out;
  std::size_t from = 0;
  for (std::size_t at = name.find(kAt); at != std::string_view::npos; at = name.find(kAt, from)) {
    std::size_t end = at + kAt.size();
    while (end < name.size() && std::isxdigit(static_cast<unsigned char>(name[end])))
      ++end;
    if (end == at + kAt.size()) {  // " at 0x" with no digits: kept
      out.append(name.substr(from, end - from));
    } else {
      out.append(name.substr(from, at - from));
    }
    from = end;
  }
  out.append(name.substr(from));
  return out;
}

std::string_view StripVersionSuffix(std::string_view name) {
  constexpr std::size_t kSuffix = 6;  // "_v" + 4 digits, as nsys' substr(value, -6, 2) = '_v'
  if (name.size() <= kSuffix)
    return name;
  std::string_view tail = name.substr(name.size() - kSuffix);
  if (tail[0] != '_' || tail[1] != 'v')
    return name;
  bool digits = std::all_of(tail.begin() + 2, tail.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
  return digits ? name.substr(0, name.size() - kSuffix) : name;
}

bool IsCommunicationKernel(std::string_view name) {
  static constexpr std::string_view kCollectives[] = {"nccl",
                                                      "rccl",
                                                      "c10d",
                                                      "all_reduce",
                                                      "allreduce",
                                                      "all_gather",
                                                      "allgather",
                                                      "reduce_scatter",
                                                      "reducescatter",
                                                      "all_to_all",
                                                      "alltoall",
                                                      "multimem",
                                                      "symm_mem",
                                                      "deep_ep",
                                                      "record_param_comms",
                                                      "cross_device_reduce"};
  std::string lower = AsciiLower(name);
  return std::any_of(std::begin(kCollectives), std::end(kCollectives), [&](std::string_view c) {
    return lower.find(c) != std::string::npos;
  });
}

bool IsNcclKernel(std::string_view name) {
  return ContainsNoCase(name, "nccl") || ContainsNoCase(name, "rccl");
}

bool IsLaunchApi(std::string_view name) {
  name = StripVersionSuffix(name);
  return StartsWithAny(name,
                       {"cudaLaunch",
                        "cuLaunch",
                        "hipLaunch",
                        "hipExtLaunch",
                        "hipModuleLaunch",
                        "hipExtModuleLaunch",
                        "hipGraphLaunch"}) ||
         IsGraphLaunchApi(name);
}

bool IsGraphLaunchApi(std::string_view name) {
  name = StripVersionSuffix(name);
  return StartsWithAny(name, {"cudaGraphLaunch", "cuGraphLaunch", "hipGraphLaunch"});
}

bool IsBlockingSyncApi(std::string_view name) {
  name = StripVersionSuffix(name);
  return IsDeviceOrStreamSyncApi(name) || StartsWithAny(name,
                                                        {"cudaEventSynchronize",
                                                         "cuEventSynchronize",
                                                         "hipEventSynchronize",
                                                         "cudaThreadSynchronize",
                                                         "cuCtxSynchronize",
                                                         "cuStreamSynchronize"});
}

bool IsDeviceOrStreamSyncApi(std::string_view name) {
  return StartsWithAny(name,
                       {"cudaDeviceSynchronize",
                        "cudaStreamSynchronize",
                        "hipDeviceSynchronize",
                        "hipStreamSynchronize"});
}

bool IsSyncMemcpyApi(std::string_view name) {
  return StartsWithAny(name, {"cudaMemcpy", "hipMemcpy"}) && !ContainsNoCase(name, "Async");
}

bool IsAsyncMemcpyApi(std::string_view name) {
  return StartsWithAny(name, {"cudaMemcpy", "hipMemcpy"}) && ContainsNoCase(name, "Async");
}

bool IsSyncMemsetApi(std::string_view name) {
  return StartsWithAny(name, {"cudaMemset", "hipMemset"}) && !ContainsNoCase(name, "async");
}

bool IsVllmSplittingOp(std::string_view name) {
  if (!name.starts_with("vllm::"))
    return false;
  return ContainsNoCase(name, "attention") || ContainsNoCase(name, "attn") ||
         ContainsNoCase(name, "mamba") || ContainsNoCase(name, "mixer") ||
         ContainsNoCase(name, "short_conv");
}

bool IsBlockingMpiCall(std::string_view name) {
  return StartsWithAny(name,
                       {"MPI_Send",
                        "MPI_Recv",
                        "MPI_Ssend",
                        "MPI_Bsend",
                        "MPI_Rsend",
                        "MPI_Wait",
                        "MPI_Barrier",
                        "MPI_Bcast",
                        "MPI_Reduce",
                        "MPI_Allreduce",
                        "MPI_Gather",
                        "MPI_Allgather",
                        "MPI_Scatter",
                        "MPI_Alltoall",
                        "MPI_Probe",
                        "MPI_Scan",
                        "MPI_Exscan",
                        "MPI_Mprobe",
                        "MPI_Neighbor_"});
}

bool IsProfilerStepName(std::string_view name) {
  return name.starts_with("ProfilerStep#");
}

bool IsDataLoaderFetch(std::string_view name) {
  return name.starts_with("enumerate(DataLoader)") ||
         (name.find("DataLoaderIter") != std::string_view::npos &&
          name.find("__next__") != std::string_view::npos);
}

bool IsHostWaitApi(std::string_view name) {
  name = StripVersionSuffix(name);
  return IsBlockingSyncApi(name) || IsSyncMemcpyApi(name) || IsSyncMemsetApi(name) ||
         IsAsyncMemcpyApi(name);
}

bool IsDeviceAllocApi(std::string_view name) {
  return StartsWithAny(name, {"cudaMalloc", "cuMemAlloc", "hipMalloc"}) && !IsHostMemoryApi(name);
}

bool IsDeviceFreeApi(std::string_view name) {
  return StartsWithAny(name, {"cudaFree", "cuMemFree", "hipFree"}) && !IsHostMemoryApi(name);
}

std::string MemoryOpLabel(const model::GpuActivity& activity) {
  if (activity.kind == model::ActivityKind::kMemset)
    return "[CUDA memset]";
  return fmt::format("[CUDA memcpy {}]", model::ToString(activity.copy_kind));
}

std::string DeviceText(const model::Device& d, std::string_view unnamed) {
  return fmt::format(
      "{}: {} ({}, {})",
      d.id,
      d.name.empty() ? unnamed : std::string_view(d.name),
      d.compute_major > 0 ? fmt::format("cc {}.{}", d.compute_major, d.compute_minor)
                          : std::string("cc unknown"),
      d.sm_count > 0 ? fmt::format("{} SMs", d.sm_count) : std::string("SM count unknown"));
}

std::string GeometryString(const model::Dim3& dim) {
  if (dim.x == 0 && dim.y == 0 && dim.z == 0)
    return "";
  return fmt::format("{}x{}x{}", dim.x, dim.y, dim.z);
}

std::string IdCell(std::int64_t id) {
  return id == model::kNoId ? "-" : std::to_string(id);
}

}  // namespace gpuperf::analysis
