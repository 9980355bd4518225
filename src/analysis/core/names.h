// Name classifiers shared by the analysis: API families, communication kernels, memory-op labels.
// Matching follows the SQL of `nsys stats` / `nsys analyze` (LIKE is ASCII case-insensitive).
#pragma once

#include "gpuperf/trace.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuperf::analysis {

// ASCII lower case: fold a long name once before searching it for many lower-case tokens.
std::string AsciiLower(std::string_view text);
// ASCII case-insensitive substring / prefix tests.
bool ContainsNoCase(std::string_view text, std::string_view needle);
bool StartsWithNoCase(std::string_view text, std::string_view prefix);

// Matrix-shaped work by name (gemm, matmul, conv, attention, attn, mma, flash; any case): where
// tensor cores are the expected unit for half precision and a library kernel the usual lever.
bool IsMatrixShapedKernel(std::string_view name);

// nsys prints API names without their 6-character version suffix: "cudaMemcpy_v3020" ->
// "cudaMemcpy". Only a trailing "_v" + 4 digits is removed ("cuMemAlloc_v2" stays).
std::string_view StripVersionSuffix(std::string_view name);
// A Python frame's name without the object addresses it carries ("<built-in method astype of
// numpy.ndarray object at 0x7cbf780f01b0>" -> "<built-in method astype of numpy.ndarray
// object>"): they differ run to run and say nothing to a reader.
std::string WithoutAddresses(std::string_view name);

// Collectives by name (any case): NCCL/RCCL, torch c10d and functional collectives,
// symmetric-memory and custom all-reduce (vLLM, multimem), DeepEP all-to-all. One list for the
// timeline's communication, the categories and the diagnosis.
bool IsCommunicationKernel(std::string_view name);

// TraceLens' narrower rule, kept for its timeline (report::AnalysisReport::timeline_tracelens):
// "nccl" or "rccl" in the name (any case).
bool IsNcclKernel(std::string_view name);

// API families, by the stripped name. CUDA runtime/driver and HIP spellings are accepted.
bool IsLaunchApi(std::string_view name);        // kernel and graph launches
bool IsGraphLaunchApi(std::string_view name);   // cudaGraphLaunch, cuGraphLaunch, hipGraphLaunch
bool IsBlockingSyncApi(std::string_view name);  // device/stream/event/context synchronize
bool IsDeviceOrStreamSyncApi(std::string_view name);  // nsys cuda_api_sync's two names
bool IsSyncMemcpyApi(std::string_view name);          // cudaMemcpy% and not %Async%
bool IsAsyncMemcpyApi(std::string_view name);         // cudaMemcpy%Async%
bool IsSyncMemsetApi(std::string_view name);          // cudaMemset% and not %async%
// Calls that can block the host on the GPU: synchronizations, copies (async ones when staged
// through pageable memory) and synchronous memsets; the version suffix is stripped first.
bool IsHostWaitApi(std::string_view name);
// A data loader's fetch of the next batch: PyTorch's profiler range
// "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__" (any iterator class).
bool IsDataLoaderFetch(std::string_view name);
// PyTorch's step marker, "ProfilerStep#N" (an annotation, or a 2021-era operator).
bool IsProfilerStepName(std::string_view name);

// A blocking MPI communication call (MPI_Send, MPI_Recv, MPI_Wait*, MPI_Barrier, the blocking
// collectives), as nsys' MPI trace records it: host time spent waiting for another rank, not
// host work a faster host shortens. Not MPI_Init / MPI_Finalize (one-time work) nor the
// non-blocking MPI_I* calls, which return at once.
bool IsBlockingMpiCall(std::string_view name);
// A vLLM operator its piecewise CUDA graph capture splits the forward at, which then runs eagerly
// between the captured pieces: the attention and state-space mixer custom ops
// ("vllm::unified_attention_with_output", "vllm::mamba_mixer2", "vllm::short_conv").
bool IsVllmSplittingOp(std::string_view name);
bool IsDeviceAllocApi(std::string_view name);  // cudaMalloc*, cuMemAlloc*, hipMalloc* (not host)
bool IsDeviceFreeApi(std::string_view name);   // cudaFree*, cuMemFree*, hipFree* (not host)

// Memoises a name predicate per interned NameId: the same few thousand names recur on millions
// of records, and the predicates scan long C++ template names.
class CachedNamePredicate {
 public:
  CachedNamePredicate(const model::Trace& trace, bool (*predicate)(std::string_view))
      : trace_(trace), predicate_(predicate), cache_(trace.strings.size(), kUnset) {}
  bool operator()(model::NameId id) {
    if (id >= cache_.size())
      return predicate_(trace_.Name(id));
    if (cache_[id] == kUnset)
      cache_[id] = predicate_(trace_.Name(id)) ? 1 : 0;
    return cache_[id] == 1;
  }

 private:
  static constexpr std::int8_t kUnset = -1;
  const model::Trace& trace_;
  bool (*predicate_)(std::string_view);
  std::vector<std::int8_t> cache_;
};

// Per-name accumulators for passes over every activity or call: one dense slot per name seen,
// found with one load (a std::map lookup per record was a visible share of the rules). The
// entries keep first-seen order; callers that report them sort.
template <class T>
class PerName {
 public:
  explicit PerName(const model::Trace& trace) : slot_(trace.strings.size(), kNoSlot) {}
  // The name's entry; `fresh`, when given, says whether it was created by this call.
  T& At(model::NameId id, bool* fresh = nullptr) {
    if (id >= slot_.size())
      slot_.resize(static_cast<std::size_t>(id) + 1, kNoSlot);
    bool created = slot_[id] == kNoSlot;
    if (created) {
      slot_[id] = static_cast<std::uint32_t>(entries_.size());
      entries_.emplace_back(id, T{});
    }
    if (fresh)
      *fresh = created;
    return entries_[slot_[id]].second;
  }
  const std::vector<std::pair<model::NameId, T>>& Entries() const { return entries_; }

 private:
  static constexpr std::uint32_t kNoSlot = UINT32_MAX;
  std::vector<std::uint32_t> slot_;
  std::vector<std::pair<model::NameId, T>> entries_;
};

// nsys' label of a memory operation: "[CUDA memcpy HtoD]", "[CUDA memset]".
std::string MemoryOpLabel(const model::GpuActivity& activity);

// "2x1x1"; empty when the source did not record the geometry (all zero).
std::string GeometryString(const model::Dim3& dim);

// "0: NVIDIA H100 80GB HBM3 (cc 9.0, 132 SMs)": `unnamed` stands for an empty name; an SM count
// or compute capability the source does not record reads "unknown", never 0.
std::string DeviceText(const model::Device& device, std::string_view unnamed);

// A pid or id for a finding cell: "-" when not recorded.
std::string IdCell(std::int64_t id);

}  // namespace gpuperf::analysis
