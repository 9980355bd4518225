// One-time work known by its name (JIT compilation, autotuning, module loads, a communication
// library's set-up and teardown) and CUDA graph capture. Part of DetectInitialization
// (initialization.cc).
#include <fmt/format.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/core/names.h"
#include "analysis/diagnosis/initialization.h"
#include "analysis/diagnosis/initialization_parts.h"
#include "analysis/findings/findings.h"

namespace gpuperf::analysis::one_time {

namespace {

bool IsJitName(std::string_view name) {
  return ContainsNoCase(name, "nvrtc") || ContainsNoCase(name, "cuLink") ||
         (ContainsNoCase(name, "compil") && !ContainsNoCase(name, "compiled"));
}

bool IsAutotuneName(std::string_view name) {
  return ContainsNoCase(name, "autotun") || ContainsNoCase(name, "cudnnFind");
}

}  // namespace

bool IsModuleLoadApi(std::string_view name) {
  return StartsWithNoCase(name, "cuModuleLoad") || StartsWithNoCase(name, "cuLibraryLoad") ||
         StartsWithNoCase(name, "hipModuleLoad");
}

namespace {

bool IsTeardownApi(std::string_view name) {
  return ContainsNoCase(name, "ModuleUnload") || ContainsNoCase(name, "LibraryUnload") ||
         ContainsNoCase(name, "CtxDestroy") || ContainsNoCase(name, "DeviceReset");
}

// Communication libraries' set-up and shut-down (MPI, NCCL/RCCL communicators, NVSHMEM): once per
// process, however long, and never the steady state.
bool IsLibraryInit(std::string_view name) {
  return name == "MPI_Init" || name == "MPI_Init_thread" ||
         StartsWithNoCase(name, "ncclCommInit") || StartsWithNoCase(name, "rcclCommInit") ||
         StartsWithNoCase(name, "nvshmem_init") || StartsWithNoCase(name, "nvshmemx_init");
}
bool IsLibraryFinalize(std::string_view name) {
  return name == "MPI_Finalize" || StartsWithNoCase(name, "ncclCommDestroy") ||
         StartsWithNoCase(name, "ncclCommFinalize") || StartsWithNoCase(name, "nvshmem_finalize");
}

}  // namespace

// The kind a name alone gives, or nullopt when the name says nothing.
std::optional<InitializationKind> KindByName(std::string_view name) {
  if (IsLibraryInit(name))
    return InitializationKind::kSetup;
  if (IsLibraryFinalize(name))
    return InitializationKind::kTeardown;
  if (IsJitName(name))
    return InitializationKind::kJitCompile;
  if (IsAutotuneName(name))
    return InitializationKind::kAutotune;
  if (IsModuleLoadApi(name))
    return InitializationKind::kLazyLoading;
  if (IsTeardownApi(name))
    return InitializationKind::kTeardown;
  return std::nullopt;
}

// Ranges, host ops and API calls whose name says compile, autotune, load, a communication
// library's set-up or teardown.
void NamedWork(const model::Trace& trace, std::vector<Candidate>& out) {
  // Each name's kind decided once: a trace holds 10^5 records of a few thousand names, and module
  // loads count at any length, so every record is looked at.
  constexpr std::int8_t kUnset = -2, kNone = -1;
  std::vector<std::int8_t> kind_of(trace.strings.size(), kUnset);
  auto kind_by_id = [&](model::NameId id) -> std::optional<InitializationKind> {
    if (id >= kind_of.size())
      return KindByName(trace.Name(id));
    if (kind_of[id] == kUnset) {
      std::optional<InitializationKind> kind = KindByName(trace.Name(id));
      kind_of[id] = kind ? static_cast<std::int8_t>(*kind) : kNone;
    }
    return kind_of[id] == kNone ? std::nullopt
                                : std::optional(static_cast<InitializationKind>(kind_of[id]));
  };
  // A module load (an API call) is one-time work however short: each loads a module once
  // (nvfuser: 16 loads from 20.9 us to 2.64 ms, 18.2 ms; the 7 over a millisecond held 14.3 ms).
  // Other records count from kOneTimeMinNs, tested first: most are shorter; API calls under
  // kModuleLoadMinNs (launches, queries) are no module load and skip the name lookup.
  constexpr std::int64_t kModuleLoadMinNs = 10'000;
  auto add =
      [&](model::NameId id, std::int64_t start, std::int64_t end, const char* what, bool api_call) {
        if (end - start < (api_call ? kModuleLoadMinNs : kOneTimeMinNs))
          return;
        std::optional<InitializationKind> kind = kind_by_id(id);
        if (!kind || (end - start < kOneTimeMinNs && *kind != InitializationKind::kLazyLoading))
          return;
        std::string_view name = trace.Name(id);
        out.push_back(
            {*kind,
             std::string(StripVersionSuffix(name)),
             start,
             end,
             fmt::format("{} {} by its name, {} (trace)", what, ToString(*kind), Ms(end - start)),
             false,
             true});
      };
  for (const model::Range& r : trace.ranges) {
    if (r.device == model::kNoId)
      add(r.name, r.start_ns, r.end_ns, "a host range,", false);
  }
  for (const model::HostOp& op : trace.host_ops)
    add(op.name, op.start_ns, op.end_ns, "a host op,", false);
  for (const model::ApiCall& c : trace.api_calls)
    add(c.name, c.start_ns, c.end_ns, "an API call,", true);
}

namespace {

// BeginCapture .. EndCapture per thread, and graph instantiation: work recorded into a graph,
// not run.
bool IsBeginCapture(std::string_view name) {
  return ContainsNoCase(name, "BeginCapture");
}
bool IsEndCapture(std::string_view name) {
  return ContainsNoCase(name, "EndCapture");
}
bool IsGraphInstantiate(std::string_view name) {
  return ContainsNoCase(name, "GraphInstantiate");
}

}  // namespace

void GraphCapture(const model::Trace& trace, std::vector<Candidate>& out) {
  std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> open;
  // Names decided once each: a trace has 10^5 calls of a few dozen names.
  CachedNamePredicate begin(trace, IsBeginCapture);
  CachedNamePredicate end(trace, IsEndCapture);
  CachedNamePredicate instantiate(trace, IsGraphInstantiate);
  for (const model::ApiCall& c : trace.api_calls) {
    std::pair thread{c.pid, c.tid};
    if (begin(c.name)) {
      open.try_emplace(thread, c.start_ns);
    } else if (end(c.name)) {
      if (auto it = open.find(thread); it != open.end()) {
        out.push_back({InitializationKind::kGraphCapture,
                       "CUDA graph capture",
                       it->second,
                       c.end_ns,
                       fmt::format("stream capture from BeginCapture to EndCapture, {}: launches "
                                   "record work into a graph, nothing runs (trace)",
                                   Ms(c.end_ns - it->second))});
        open.erase(it);
      }
    } else if (c.duration_ns() >= kOneTimeMinNs && instantiate(c.name)) {
      out.push_back({InitializationKind::kGraphCapture,
                     std::string(StripVersionSuffix(trace.Name(c.name))),
                     c.start_ns,
                     c.end_ns,
                     fmt::format("graph instantiation, {} (trace)", Ms(c.duration_ns()))});
    }
  }
}

}  // namespace gpuperf::analysis::one_time
