// Parts of the one-time work detection shared by its files: the candidates every pass adds to,
// the groups their outlier tests run over, and the passes DetectInitialization assembles
// (initialization.cc). Internal to src/analysis/diagnosis.
#pragma once

#include "gpuperf/report_vocabulary.h"
#include "gpuperf/trace.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/core/correlation.h"
#include "util/intervals.h"

namespace gpuperf::analysis::one_time {

using report::InitializationKind;

struct Candidate {
  InitializationKind kind = InitializationKind::kFirstCall;
  std::string name;
  std::int64_t start = 0, end = 0;
  std::string evidence;
  bool from_host_op = false;
  bool by_name = false;  // found by its name (NamedWork)
};

// The kind a name alone gives, or nullopt when the name says nothing (initialization_named.cc).
std::optional<InitializationKind> KindByName(std::string_view name);
// Module loads (cuModuleLoad*, cuLibraryLoad*, hipModuleLoad*) (initialization_named.cc).
bool IsModuleLoadApi(std::string_view name);

// First instances of a group (by key) that are outliers against the rest of the group.
struct Group {
  std::size_t first = 0;
  std::int64_t first_start = std::numeric_limits<std::int64_t>::max();
  std::vector<std::int64_t> durations;
};

// (pid, name, kernel + 1 or 0): hashed, since every API call and host op is grouped once.
using GroupKey = std::array<std::int64_t, 3>;
struct GroupKeyHash {
  std::size_t operator()(const GroupKey& k) const {
    std::size_t h = std::hash<std::int64_t>()(k[0]);
    h = h * 1'000'003 ^ std::hash<std::int64_t>()(k[1]);
    return h * 1'000'003 ^ std::hash<std::int64_t>()(k[2]);
  }
};
using Groups = std::unordered_map<GroupKey, Group, GroupKeyHash>;

// Adds record `i` to the group of `key` (initialization.cc).
void AddToGroup(Groups& groups,
                const GroupKey& key,
                std::size_t i,
                std::int64_t start,
                std::optional<std::int64_t> duration);
// Whether `duration` is an outlier of `g`, setting `median` (initialization.cc).
bool Outlier(Group& g, std::int64_t duration, std::int64_t& median, bool lone_counts);

// kNoKernel: a launch call that launched no kernel (LaunchedKernel, initialization_lazy.cc).
constexpr model::NameId kNoKernel = std::numeric_limits<model::NameId>::max();

// What both the API outliers and the lazy-loading pass need, computed once: each is a pass over
// millions of records on an export.
struct LaunchFacts {
  std::vector<model::NameId> kernel_of;                         // LaunchedKernel
  std::unordered_map<std::int64_t, std::size_t> process_first;  // ProcessFirstCalls
};

// The facts' two passes (initialization_lazy.cc).
std::vector<model::NameId> LaunchedKernel(const model::Trace& trace, const CorrelationIndex& index);
std::unordered_map<std::int64_t, std::size_t> ProcessFirstCalls(const model::Trace& trace,
                                                                const CorrelationIndex& index);

// The host-blocking waits of each thread, merged (initialization_host.cc).
using ThreadWaits = std::map<std::pair<std::int64_t, std::int64_t>, std::vector<util::Interval>>;
ThreadWaits WaitsByThread(const model::Trace& trace);

// The passes, each adding its candidates to `out`, in the order DetectInitialization runs them.
// First calls of API names and the process's first call (initialization_api.cc).
void ApiOutliers(const model::Trace& trace,
                 const CorrelationIndex& index,
                 const LaunchFacts& facts,
                 std::vector<Candidate>& out);
// First launches of kernels: lazy loading (initialization_lazy.cc).
void LazyFirstLaunches(const model::Trace& trace,
                       const CorrelationIndex& index,
                       const LaunchFacts& facts,
                       std::vector<Candidate>& out);
// First instances of host ops and host ranges (initialization_host.cc).
void HostOpOutliers(const model::Trace& trace,
                    const ThreadWaits& waits,
                    std::vector<Candidate>& out);
void HostRangeOutliers(const model::Trace& trace,
                       const ThreadWaits& waits,
                       std::vector<Candidate>& out);
// Work known by its name, and CUDA graph capture (initialization_named.cc).
void NamedWork(const model::Trace& trace, std::vector<Candidate>& out);
void GraphCapture(const model::Trace& trace, std::vector<Candidate>& out);
// Resource calls before the first and after the last GPU work (initialization_api.cc).
void EdgeResourceCalls(const model::Trace& trace,
                       const CorrelationIndex& index,
                       std::vector<Candidate>& out);

}  // namespace gpuperf::analysis::one_time
