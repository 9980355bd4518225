// The analysis result model: what `gpuperf analyze` computes from a Trace. Writers (JSON,
// Markdown, terminal) only format these values; the analysis never formats.
//
// Units are in the names (_ns, _bytes, _percent). Every figure here comes from the trace
// ("source: trace"); later stages (roofline, models) add their own evidence tiers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuperf::report {

// The semver of report.json; bump minor for added keys, major for removed or renamed ones.
inline constexpr const char* kReportSchemaVersion = "1.0.0";

// Summary statistics of a set of durations (or sizes), with `nsys stats` definitions:
// avg = mean, med = median (mean of the two middle values for even counts), stddev = sample
// standard deviation (n - 1; 0 for a single value).
struct Distribution {
  std::int64_t count = 0;
  std::int64_t total = 0;
  double avg = 0;
  double med = 0;
  std::int64_t min = 0;
  std::int64_t max = 0;
  double stddev = 0;
};

// One row per kernel name (nsys cuda_gpu_kern_sum).
struct KernelRow {
  std::string name;
  Distribution duration_ns;
  double time_percent = 0;  // of all kernel time
  double wall_percent = 0;  // of the trace's GPU span (timeline.total_ns)
  // Launch geometry when every instance agrees, else empty.
  std::string grid;
  std::string block;
  std::int64_t short_instances = 0;  // instances shorter than their own launch call
};

// One row per memory operation kind (nsys cuda_gpu_mem_time_sum / cuda_gpu_mem_size_sum).
struct MemoryOpRow {
  std::string operation;  // "[CUDA memcpy HtoD]", "[CUDA memset]", ...
  Distribution duration_ns;
  Distribution size_bytes;
  double time_percent = 0;
};

// One row per API name (nsys cuda_api_sum).
struct ApiRow {
  std::string name;      // version suffix stripped ("cudaMemcpy")
  std::string raw_name;  // as recorded ("cudaMemcpy_v3020")
  Distribution duration_ns;
  double time_percent = 0;
};

// Where GPU time goes (TraceLens gpu_timeline definitions unless stated, see docs/metrics.md).
struct Timeline {
  std::int64_t total_ns = 0;                  // last end - first start of counted GPU work
  std::int64_t busy_ns = 0;                   // union of all counted GPU work
  std::int64_t idle_ns = 0;                   // total - busy
  std::int64_t computation_ns = 0;            // union of non-communication kernels and memsets
  std::int64_t communication_ns = 0;          // union of NCCL/RCCL kernels
  std::int64_t memcpy_ns = 0;                 // union of copies
  std::int64_t memset_ns = 0;                 // union of memsets
  std::int64_t exposed_communication_ns = 0;  // communication not covered by computation
  std::int64_t exposed_memcpy_ns = 0;         // copies not covered by computation or communication
  std::int64_t first_start_ns = 0;
  std::int64_t last_end_ns = 0;
  std::int64_t activities = 0;  // GPU activities counted
};

struct DeviceTimeline {
  std::int32_t device = 0;
  std::string name;
  Timeline timeline;
};

struct FindingRow {
  std::vector<std::string> cells;
};

// A rule's result. `rows` carry the evidence with `columns` as header.
struct Finding {
  std::string id;  // stable key: "sync_memcpy", "gpu_gaps", ...
  std::string title;
  std::string severity;  // "info", "warning"
  std::string summary;   // one sentence with numbers
  std::string advice;
  std::string source;  // "trace"
  std::int64_t count = 0;
  std::int64_t time_ns = 0;  // time attributable to the finding (e.g. summed call durations)
  std::vector<std::string> columns;
  std::vector<FindingRow> rows;
  std::int64_t rows_omitted = 0;
};

// The kernel-count audit of gpu-performance-evidence.txt.
struct Audit {
  std::int64_t kernel_launches = 0;  // kernel executions on the GPU
  std::int64_t launch_calls = 0;     // host launch API calls (runtime + driver)
  std::int64_t distinct_kernels = 0;
  std::int64_t graph_launches = 0;
  std::int64_t memcpy_htod = 0, memcpy_dtoh = 0, memcpy_dtod = 0, memcpy_other = 0;
  std::int64_t memsets = 0;
  std::int64_t synchronizations = 0;  // host-blocking sync calls and sync records
  std::int64_t allocations = 0;
  std::int64_t frees = 0;
  std::int64_t peak_allocated_bytes = -1;  // -1 when the trace does not record it
};

struct LaunchOverhead {
  std::int64_t launches = 0;  // launch calls joined to a kernel
  Distribution api_ns;        // duration of the launch call
  Distribution queue_ns;      // kernel start - launch call end, only where > 0 (nsys QCount)
  Distribution kernel_ns;     // kernel duration
  Distribution total_ns;      // kernel end - launch call start (nsys TAvg...)
  std::int64_t kernels_shorter_than_launch = 0;
  double api_to_kernel_ratio = 0;  // total launch-call time / total kernel time
};

struct RangeRow {
  std::string name;
  std::string kind;  // nvtx, user_annotation, gpu_user_annotation, profiler_step
  Distribution duration_ns;
  double time_percent = 0;       // of all ranges of its kind
  std::int64_t gpu_time_ns = 0;  // union of GPU work that falls inside the range's instances
};

struct DiagnosticCount {
  std::string name;
  std::int64_t count = 0;
};

struct SourceInfo {
  std::string path;
  std::string format;
  std::string format_version;
  std::string producer;
  std::vector<std::string> devices;  // "0: NVIDIA H100 80GB HBM3 (cc 9.0, 132 SMs)"
  std::optional<std::int64_t> rank;
  std::optional<std::int64_t> world_size;
};

struct AnalysisReport {
  SourceInfo source;
  std::string headline;            // where the time goes, one paragraph with numbers
  std::vector<std::string> notes;  // definitions that differ, caveats
  Timeline timeline;
  std::vector<DeviceTimeline> devices;
  // The same quantities with TraceLens' gpu_timeline selection: only activities whose correlation
  // has a launch call in the trace. `orphan_activities` is how many the default keeps beyond it.
  Timeline timeline_tracelens;
  std::int64_t orphan_activities = 0;
  std::vector<KernelRow> kernels;  // sorted by total time, descending
  std::vector<MemoryOpRow> memory_ops;
  std::vector<ApiRow> api;
  LaunchOverhead launch;
  Audit audit;
  std::vector<RangeRow> ranges;
  std::vector<Finding> findings;
  std::vector<DiagnosticCount> diagnostics;
  std::vector<std::string> diagnostic_notes;
};

}  // namespace gpuperf::report
