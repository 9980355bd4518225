// The report model's enum vocabularies (gpuperf/report_vocabulary.h): each ToString gives the
// spelling report.json has always used, no two values share one, and the typed mappings between
// a kernel's bound and a bottleneck class are each other's inverse.
#include "gpuperf/report_vocabulary.h"

#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace report = gpuperf::report;

namespace {

// Every (value, spelling) pair holds, and the spellings are distinct.
template <typename E>
void CheckSpellings(const std::vector<std::pair<E, std::string_view>>& expected) {
  std::set<std::string_view> seen;
  for (const auto& [value, spelling] : expected) {
    CHECK(report::ToString(value) == spelling);
    CHECK(seen.insert(report::ToString(value)).second);
  }
}

}  // namespace

TEST_CASE("report vocabulary: the kernel bound keeps its report.json spellings") {
  CheckSpellings<report::KernelBound>({{report::KernelBound::kUnknown, "unknown"},
                                       {report::KernelBound::kMemory, "memory"},
                                       {report::KernelBound::kCompute, "compute"},
                                       {report::KernelBound::kLatency, "latency"},
                                       {report::KernelBound::kCache, "cache"},
                                       {report::KernelBound::kLaunch, "launch"}});
}

TEST_CASE("report vocabulary: the bottleneck class keeps its report.json spellings") {
  using B = report::Bottleneck;
  CheckSpellings<B>({{B::kNone, ""},
                     {B::kUnknown, "unknown"},
                     {B::kHostBound, "host_bound"},
                     {B::kLaunchBound, "launch_bound"},
                     {B::kSyncBound, "sync_bound"},
                     {B::kDependencyBound, "dependency_bound"},
                     {B::kTransferBound, "transfer_bound"},
                     {B::kCommunicationBound, "communication_bound"},
                     {B::kMemoryBound, "memory_bound"},
                     {B::kComputeBound, "compute_bound"},
                     {B::kLatencyBound, "latency_bound"},
                     {B::kCacheBound, "cache_bound"},
                     {B::kTensorCoresUnused, "tensor_cores_unused"},
                     {B::kInitialization, "initialization"}});
}

TEST_CASE("report vocabulary: a kernel bound maps to its bottleneck class and back") {
  using K = report::KernelBound;
  for (K bound : {K::kMemory, K::kCompute, K::kLatency, K::kCache, K::kLaunch}) {
    report::Bottleneck b = report::BottleneckOf(bound);
    // The class is spelled as the bound with "_bound" (what the analysis used to build).
    CHECK(report::ToString(b) == std::string(report::ToString(bound)) + "_bound");
    CHECK(report::KernelBoundOf(b) == bound);
  }
  CHECK(report::BottleneckOf(K::kUnknown) == report::Bottleneck::kUnknown);
  CHECK(report::KernelBoundOf(report::Bottleneck::kUnknown) == K::kUnknown);
  // Classes that are not a kernel's have no bound.
  for (report::Bottleneck b : {report::Bottleneck::kNone,
                               report::Bottleneck::kHostBound,
                               report::Bottleneck::kSyncBound,
                               report::Bottleneck::kTensorCoresUnused,
                               report::Bottleneck::kInitialization})
    CHECK(report::KernelBoundOf(b) == K::kUnknown);
}

TEST_CASE("report vocabulary: the launch queue's verdict keeps its report.json spellings") {
  using Q = report::QueueVerdict;
  CheckSpellings<Q>({{Q::kUndetermined, "undetermined"},
                     {Q::kGpuBound, "gpu_bound"},
                     {Q::kHostBound, "host_bound"},
                     {Q::kGpuWaits, "gpu_waits"}});
}

TEST_CASE("report vocabulary: a lever's kind keeps its report.json spellings") {
  using L = report::LeverKind;
  CheckSpellings<L>({{L::kNone, ""},
                     {L::kFuseElementwise, "fuse_elementwise"},
                     {L::kUseSdpa, "use_sdpa"},
                     {L::kChannelsLast, "channels_last"},
                     {L::kTf32OrAmp, "tf32_or_amp"},
                     {L::kAmp, "amp"},
                     {L::kFusedOptimizer, "fused_optimizer"}});
}

TEST_CASE("report vocabulary: the diagnosis' lead keeps its report.json spellings") {
  using D = report::DiagnosisLead;
  CheckSpellings<D>(
      {{D::kNone, ""}, {D::kInputCheck, "input_check"}, {D::kBottleneck, "bottleneck"}});
}

TEST_CASE("report vocabulary: a phase's verdict keeps its report.json spellings") {
  using P = report::PhaseClass;
  CheckSpellings<P>({{P::kRunsBehind, "runs_behind"},
                     {P::kGpuBound, "gpu_bound"},
                     {P::kTransferBound, "transfer_bound"},
                     {P::kDependencyBound, "dependency_bound"},
                     {P::kSyncBound, "sync_bound"},
                     {P::kCommunicationBound, "communication_bound"},
                     {P::kLaunchBound, "launch_bound"},
                     {P::kAllocationBound, "allocation_bound"},
                     {P::kApiBound, "api_bound"},
                     {P::kHostBound, "host_bound"}});
}

TEST_CASE("report vocabulary: the category tier keeps its report.json spellings and parses back") {
  using T = report::CategoryTier;
  CheckSpellings<T>({{T::kNone, ""},
                     {T::kOperator, "operator"},
                     {T::kKernelName, "kernel_name"},
                     {T::kActivity, "activity"}});
  for (T tier : {T::kNone, T::kOperator, T::kKernelName, T::kActivity})
    CHECK(report::ParseCategoryTier(report::ToString(tier)) == tier);
  CHECK_FALSE(report::ParseCategoryTier("kernel-name").has_value());
}

TEST_CASE(
    "report vocabulary: the framework category keeps its report.json spellings and parses "
    "back") {
  using C = report::FrameworkCategory;
  CheckSpellings<C>({{C::kGemm, "gemm"},
                     {C::kAttention, "attention"},
                     {C::kConvolution, "convolution"},
                     {C::kElementwise, "elementwise"},
                     {C::kReductionNormalization, "reduction_normalization"},
                     {C::kCopyLayout, "copy_layout"},
                     {C::kCommunication, "communication"},
                     {C::kMemset, "memset"},
                     {C::kOther, "other"}});
  for (std::size_t c = 0; c < report::kFrameworkCategoryCount; ++c) {
    auto category = static_cast<C>(c);
    CHECK(report::ParseFrameworkCategory(report::ToString(category)) == category);
  }
  CHECK_FALSE(report::ParseFrameworkCategory("matmul").has_value());
  CHECK_FALSE(report::ParseFrameworkCategory("").has_value());
}

TEST_CASE("report vocabulary: an initialization item's kind keeps its report.json spellings") {
  using I = report::InitializationKind;
  CheckSpellings<I>({{I::kContextCreation, "context_creation"},
                     {I::kLazyLoading, "lazy_loading"},
                     {I::kJitCompile, "jit_compile"},
                     {I::kAutotune, "autotune"},
                     {I::kFirstCall, "first_call"},
                     {I::kGraphCapture, "graph_capture"},
                     {I::kTeardown, "teardown"},
                     {I::kSetup, "setup"}});
}

TEST_CASE(
    "report vocabulary: an operator's source keeps its report.json spellings and parses "
    "back") {
  using S = report::OperatorSource;
  CheckSpellings<S>(
      {{S::kNone, ""}, {S::kCpuOp, "cpu_op"}, {S::kNvtx, "nvtx"}, {S::kLaunchCall, "launch_call"}});
  for (S source : {S::kNone, S::kCpuOp, S::kNvtx, S::kLaunchCall})
    CHECK(report::ParseOperatorSource(report::ToString(source)) == source);
  CHECK_FALSE(report::ParseOperatorSource("launch-call").has_value());
}

TEST_CASE(
    "report vocabulary: a critical share's kind keeps its report.json spellings and parses "
    "back") {
  using K = report::ShareKind;
  CheckSpellings<K>(
      {{K::kKernel, "kernel"}, {K::kNvtx, "nvtx"}, {K::kUserAnnotation, "user_annotation"}});
  for (K kind : {K::kKernel, K::kNvtx, K::kUserAnnotation})
    CHECK(report::ParseShareKind(report::ToString(kind)) == kind);
  // The values are in the order of their spellings (phases sort by kind, then name).
  CHECK(report::ToString(K::kKernel) < report::ToString(K::kNvtx));
  CHECK(report::ToString(K::kNvtx) < report::ToString(K::kUserAnnotation));
  CHECK_FALSE(report::ParseShareKind("gpu_user_annotation").has_value());
}

TEST_CASE("report vocabulary: the ceilings' evidence keeps its report.json spellings") {
  using E = report::CeilingsEvidence;
  CheckSpellings<E>({{E::kDatasheet, "datasheet"}, {E::kMeasured, "measured"}});
}

TEST_CASE(
    "report vocabulary: a triage step's question and answer keep their report.json spellings") {
  using Q = report::TriageQuestion;
  CheckSpellings<Q>({{Q::kInitialization, "initialization"},
                     {Q::kGpuIdle, "gpu_idle"},
                     {Q::kTransfer, "transfer"},
                     {Q::kCommunication, "communication"},
                     {Q::kDominantWork, "dominant_work"}});
  using A = report::TriageAnswer;
  CheckSpellings<A>(
      {{A::kYes, "yes"}, {A::kNo, "no"}, {A::kPartly, "partly"}, {A::kUnknown, "unknown"}});
}

TEST_CASE("report vocabulary: a range's kind keeps its report.json spellings and parses back") {
  using R = report::RangeKind;
  CheckSpellings<R>({{R::kNvtx, "nvtx"},
                     {R::kUserAnnotation, "user_annotation"},
                     {R::kGpuUserAnnotation, "gpu_user_annotation"},
                     {R::kProfilerStep, "profiler_step"}});
  for (R kind : {R::kNvtx, R::kUserAnnotation, R::kGpuUserAnnotation, R::kProfilerStep})
    CHECK(report::ParseRangeKind(report::ToString(kind)) == kind);
  CHECK_FALSE(report::ParseRangeKind("ProfilerStep").has_value());
  CHECK_FALSE(report::ParseRangeKind("").has_value());
}
