// The run-forward cost of a host wait (timeline/run_forward.h) and the launch queue's blocked
// launches (timeline/blocked_launches.h), on hand-built timelines whose figures are worked out
// in the comments.
#include "analysis/timeline/run_forward.h"

#include "gpuperf/analyze.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "analysis/core/correlation.h"
#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/timeline/blocked_launches.h"
#include "analysis_builder.h"
#include "report/markdown_writer.h"

namespace {

using gpuperf::analysis::Analyze;
using gpuperf::analysis::BlockedLaunches;
using gpuperf::analysis::CorrelationIndex;
using gpuperf::analysis::RunForward;
using gpuperf::testing::Contains;
using gpuperf::testing::TraceBuilder;
using Intervals = std::vector<gpuperf::util::Interval>;
namespace model = gpuperf::model;
namespace report = gpuperf::report;

constexpr std::int64_t kUs = 1'000;
constexpr std::int64_t kMs = 1'000'000;

const report::Finding* Find(const report::AnalysisReport& r, const std::string& id) {
  auto it = std::find_if(
      r.findings.begin(), r.findings.end(), [&](const report::Finding& f) { return f.id == id; });
  return it == r.findings.end() ? nullptr : &*it;
}

// A step of the loops below from `at`: a pageable host-to-device copy whose call blocks the host
// 3 ms while the GPU runs the copy, then six 100 us kernels launched a millisecond apart (the GPU
// waits for the host between them).
void PageableCopyStep(TraceBuilder& b, std::int64_t at, std::int64_t& corr) {
  b.Api("cudaMemcpyAsync", at, at + 3 * kMs, corr);
  b.Memcpy(model::CopyKind::kHtoD,
           at + 10 * kUs,
           at + 3 * kMs - 10 * kUs,
           16 << 20,
           corr,
           model::MemoryKind::kPageable,
           model::MemoryKind::kDevice);
  ++corr;
  for (int k = 0; k < 6; ++k) {
    const std::int64_t launch = at + 3 * kMs + k * kMs + 500 * kUs;
    b.Api("cudaLaunchKernel", launch, launch + 10 * kUs, corr);
    b.Kernel("step_kernel", launch + 20 * kUs, launch + 120 * kUs, corr);
    ++corr;
  }
}

}  // namespace

TEST_CASE("run forward: past a kept wait only the GPU's shift goes on", "[run_forward]") {
  // Host waits at 10-20, 50-60 and 90-100; the GPU waits for the host (nothing queued) at 20-25,
  // 60-62 and 100-130; its last work ends at 135, the host's at 140.
  const Intervals waits = {{10, 20}, {50, 60}, {90, 100}};
  RunForward host_ends(waits, {{20, 25}, {60, 62}, {100, 130}}, 140, 135);
  // Without the first wait the host runs 10 sooner, the GPU only 5 (its idle 20-25): at the kept
  // wait 50-60 the host waits for GPU work 5 sooner, and from there all runs 5 sooner.
  CHECK(host_ends.Gain({{10, 20}}) == 5);
  // The first two: the host 20 sooner, the GPU 5 + 2 by the kept wait 90-100.
  CHECK(host_ends.Gain({{10, 20}, {50, 60}}) == 7);
  // The last: the host's work after it and the GPU's (30 of idle to catch up) end 10 sooner.
  CHECK(host_ends.Gain({{90, 100}}) == 10);
  // The GPU runs on to 140 after the host's last work at 110, with 4 of idle after the last
  // wait: the end moves 4.
  RunForward gpu_ends(waits, {{20, 25}, {60, 62}, {100, 104}}, 140, 140);
  CHECK(gpu_ends.Gain({{90, 100}}) == 4);
  CHECK(gpu_ends.Gain({{50, 60}}) == 2);
  // Host work after the GPU's last: a wait before it gives back its whole length.
  RunForward host_tail({{100, 1005}}, {}, 5000, 1000);
  CHECK(host_tail.Gain({{100, 1005}}) == 905);
  // A wait that ends the recording, after the GPU's last work: no host work after it to delay.
  RunForward ends_recording({{1200, 1800}}, {}, 1800, 1000);
  CHECK(ends_recording.Gain({{1200, 1800}}) == 0);
  // A default one is not ready: callers count only the idle next to the waits.
  CHECK_FALSE(RunForward().ready());
  CHECK(host_ends.Gain({}) == 0);
}

TEST_CASE("run forward: a wait whose end is fixed outside the process absorbs the host's shift",
          "[run_forward]") {
  // The first case's host_ends, with the host waiting 30-40 for a DataLoader's worker processes
  // (the batch not ready): released 10 sooner from 10-20, the host waits 10 longer there and
  // runs on time after it, and so does the GPU work it launches.
  const Intervals waits = {{10, 20}, {50, 60}, {90, 100}};
  RunForward loader(waits, {{20, 25}, {60, 62}, {100, 130}}, 140, 135, {{30, 40}});
  CHECK(loader.Gain({{10, 20}}) == 0);
  // A wait after the fetch still moves what follows it: as without the fetch.
  CHECK(loader.Gain({{90, 100}}) == 10);
  // The fetch between the two removed waits resets the first one's shift: only the second's
  // counts, the GPU following it through its 2 of idle to the kept wait 90-100.
  CHECK(loader.Gain({{10, 20}, {50, 60}}) == 2);
  // A fetch after the last removed wait, with no kept wait after it: everything ends on time.
  RunForward tail({{100, 1005}}, {}, 5000, 1000, {{2000, 3000}});
  CHECK(tail.Gain({{100, 1005}}) == 0);
}

TEST_CASE("run forward: a host released early waits at its next slow DataLoader fetch",
          "[run_forward][waits]") {
  // Three steps of 20 ms: the DataLoader's worker processes hand over a batch, which the fetch
  // unpacks (an operator inside it, 100 us) after waiting for it 8 ms (the first step: 500 us,
  // no wait), a pageable copy blocks the host 3 ms behind the GPU's previous work, then six
  // kernels. Without the copies' waits the host reaches its next fetch sooner and waits longer
  // there: the batch is not ready sooner, so nothing after the fetch moves. The copies cost only
  // the idle next to them.
  TraceBuilder b;
  std::int64_t corr = 1;
  for (int step = 0; step < 3; ++step) {
    const std::int64_t t = step * 20 * kMs;
    const std::int64_t fetch = step == 0 ? 500 * kUs : 8 * kMs;
    b.Op("enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", t, t + fetch);
    b.Op("aten::set_", t + fetch - 150 * kUs, t + fetch - 50 * kUs);
    PageableCopyStep(b, t + fetch + 100 * kUs, corr);
  }
  const report::AnalysisReport with_loader = Analyze(b.trace);
  const report::Finding* f = Find(with_loader, "pageable_async_memcpy");
  REQUIRE(f != nullptr);
  REQUIRE(f->gpu_idle_caused_ns);
  // Only the last step's copy runs forward (no fetch after it): its 3 ms, and the idle next to
  // the first two copies (the 10 us before and after each copy, the round trip after it).
  CHECK(*f->gpu_idle_caused_ns < 3 * kMs + 1 * kMs);
  CHECK(*f->gpu_idle_caused_ns >= 3 * kMs);
  // Without the worker processes (a loader in the process, its work on the host), each wait's
  // whole length comes back: 9 ms.
  TraceBuilder own = b;
  for (model::HostOp& op : own.trace.host_ops) {
    if (own.trace.Name(op.name) != "aten::set_")
      op.name =
          own.trace.strings.Intern("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
  }
  const report::AnalysisReport in_process = Analyze(own.trace);
  const report::Finding* g = Find(in_process, "pageable_async_memcpy");
  REQUIRE(g != nullptr);
  REQUIRE(g->gpu_idle_caused_ns);
  CHECK(*g->gpu_idle_caused_ns >= 9 * kMs);
  // Fetches that only unpack, longer than the first but under ten times it (pytorch-kineto
  // 2021-06: 1.25-4.33 ms): no wait, the host's work moves, each copy's wait comes back whole.
  TraceBuilder unpacking = b;
  for (model::HostOp& op : unpacking.trace.host_ops) {
    if (op.end_ns - op.start_ns == 8 * kMs)
      op.end_ns = op.start_ns + 4 * kMs;
  }
  const report::AnalysisReport unpacked = Analyze(unpacking.trace);
  const report::Finding* h = Find(unpacked, "pageable_async_memcpy");
  REQUIRE(h != nullptr);
  REQUIRE(h->gpu_idle_caused_ns);
  CHECK(*h->gpu_idle_caused_ns >= 9 * kMs);
}

TEST_CASE("run forward: a pageable copy in a host-paced loop costs its whole wait",
          "[run_forward][waits]") {
  // Three steps of 10 ms: a pageable host-to-device copy blocks the host 3 ms while the GPU runs
  // the copy (no idle beside the wait), then the host launches a 100 us kernel each millisecond
  // for 6 ms (the GPU waits for the host), and the program ends with host work. Without the
  // waits the host, and every launch after them, comes 3 ms sooner a step: the GPU idle that
  // follows shrinks by 9 ms in all, although none of it lies next to a wait.
  TraceBuilder b;
  std::int64_t corr = 1;
  for (int step = 0; step < 3; ++step) {
    PageableCopyStep(b, step * 10 * kMs, corr);
  }
  b.Op("host_tail", 29 * kMs, 31 * kMs);
  const report::AnalysisReport r = Analyze(b.trace);
  const report::Finding* f = Find(r, "pageable_async_memcpy");
  REQUIRE(f != nullptr);
  REQUIRE(f->gpu_idle_caused_ns);
  REQUIRE(f->gpu_idle_later_ns);
  // Next to the waits: the 10 us before and after each copy inside them, and the round trip
  // to the first launch after them.
  const std::int64_t next_to = *f->gpu_idle_caused_ns - *f->gpu_idle_later_ns;
  CHECK(next_to < 3 * kMs);
  CHECK(*f->gpu_idle_caused_ns == 9 * kMs);  // each wait's whole length
  CHECK(Contains(f->summary, "later: where the GPU waits for the host"));
}

TEST_CASE("blocked launches: a full queue returns each blocked launch at its capacity",
          "[run_forward][queue]") {
  // 200 launches of 1 us fill a queue whose kernels (100 us each) start at 2 ms; launches 200 to
  // 219 each return only when a kernel ends, with 199 launched and not started: the queue's
  // capacity. Every launch is into a deep queue, so an unblocked one counts as 20 us.
  TraceBuilder b;
  std::int64_t call_end = 0;
  for (int i = 0; i < 220; ++i) {
    const std::int64_t kernel_start = 2 * kMs + i * 100 * kUs;
    const std::int64_t start = call_end;
    call_end = i < 200 ? start + 1 * kUs : 2 * kMs + (i - 199) * 100 * kUs;
    b.Api("cudaLaunchKernel", start, call_end, i + 1);
    b.Kernel("queued_kernel", kernel_start, kernel_start + 100 * kUs, i + 1);
  }
  CorrelationIndex index(b.trace);
  const gpuperf::analysis::LaunchBlocking blocking =
      gpuperf::analysis::FindBlockedLaunches(b.trace, index);
  const auto& blocked = blocking.launches;
  REQUIRE(blocked.size() == 20);
  for (const auto& launch : blocked)
    CHECK(launch.queued_at_return == 199);
  report::LaunchQueue q;
  gpuperf::analysis::SummarizeBlockedLaunches(blocking, q);
  CHECK(q.blocked_launches == 20);
  CHECK(q.queue_full);
  CHECK(q.queued_at_blocked_return == 199);
  // Each returns as a kernel ends; no deep-queue launch returned after any GPU work ended.
  CHECK(q.blocked_return_gap_ns == 0);
  CHECK(q.unblocked_return_gap_ns == 0);
  // Launch 200 waits from 200 us to 2.1 ms, the others 100 us each, less 20 us apiece.
  CHECK(q.blocked_ns == (1900 - 20) * kUs + 19 * (100 - 20) * kUs);
  const report::AnalysisReport r = Analyze(b.trace);
  REQUIRE(r.diagnosis.queue);
  CHECK(r.diagnosis.queue->queue_full);
  CHECK(Contains(r.diagnosis.queue->sentence, "The launch queue fills: 20 launch calls blocked"));
  // Their time is said apart from launch cost.
  const report::Finding* launches = Find(r, "launch_overhead");
  REQUIRE(launches != nullptr);
  CHECK(Contains(launches->summary,
                 "is 20 launch calls blocked in a deep queue beyond an "
                 "unblocked launch: the host waiting for the GPU"));
  // The same launches returning 30 us after the kernels end: no slot freed at their return, so
  // no full queue.
  TraceBuilder late = b;
  for (model::ApiCall& call : late.trace.api_calls)
    if (call.duration_ns() > 50 * kUs)
      call.end_ns += 30 * kUs;
  CorrelationIndex late_index(late.trace);
  report::LaunchQueue late_q;
  gpuperf::analysis::SummarizeBlockedLaunches(
      gpuperf::analysis::FindBlockedLaunches(late.trace, late_index), late_q);
  CHECK(late_q.blocked_return_gap_ns == 30 * kUs);
  CHECK_FALSE(late_q.queue_full);
  // A lone slow launch into a deep queue: counted as a wait, no full queue claimed.
  report::LaunchQueue lone;
  gpuperf::analysis::SummarizeBlockedLaunches({{blocked.front()}, 0}, lone);
  CHECK(lone.blocked_launches == 1);
  CHECK_FALSE(lone.queue_full);
  // The same calls as graph launches: a graph launch's time is its nodes' submission, not a
  // wait for a slot, so none is blocked.
  TraceBuilder graphs = b;
  for (model::ApiCall& call : graphs.trace.api_calls)
    call.name = graphs.trace.strings.Intern("cudaGraphLaunch");
  CorrelationIndex graph_index(graphs.trace);
  CHECK(gpuperf::analysis::FindBlockedLaunches(graphs.trace, graph_index).launches.empty());
}

TEST_CASE("blocked launches: the queue sentence names them when they matter",
          "[run_forward][queue]") {
  report::LaunchQueue q;
  q.verdict = report::QueueVerdict::kGpuBound;
  q.launches = 100;
  q.median_ns = 2 * kMs;
  q.p90_ns = 3 * kMs;
  q.blocked_launches = 2;
  q.blocked_ns = 50 * kUs;
  q.queued_at_blocked_return = 40;
  // 50 us of a 100 ms window: under 1%, not said; of a 2 ms window, said, with no full queue.
  CHECK_FALSE(Contains(gpuperf::analysis::QueueSentence(q, 100 * kMs), "deep queue"));
  const std::string said = gpuperf::analysis::QueueSentence(q, 2 * kMs);
  CHECK(Contains(said,
                 "2 launch calls into a deep queue took over 4 times an unblocked launch, 50.0 µs "
                 "beyond it in all (40 GPU operations queued at their return, median)"));
  CHECK_FALSE(Contains(said, "The launch queue fills"));
  // A full queue is said however little it blocks.
  q.queue_full = true;
  CHECK(Contains(gpuperf::analysis::QueueSentence(q, 100 * kMs), "The launch queue fills"));
}

TEST_CASE("run forward: a pageable copy's operator that synchronizes after it is costed with it",
          "[run_forward][waits]") {
  // The loop above, each copy inside aten::copy_ with a 50 us stream synchronization after it:
  // alone the copies give back little (the sync then waits for the copy), with the syncs, which
  // pinning with non_blocking=True removes too, their whole waits.
  TraceBuilder b;
  std::int64_t corr = 1;
  for (int step = 0; step < 3; ++step) {
    const std::int64_t t = step * 10 * kMs;
    b.Op("aten::copy_", t, t + 3 * kMs + 60 * kUs);
    b.Api("cudaMemcpyAsync", t, t + 10 * kUs, corr);
    b.Memcpy(model::CopyKind::kHtoD,
             t + 10 * kUs,
             t + 3 * kMs,
             16 << 20,
             corr,
             model::MemoryKind::kPageable,
             model::MemoryKind::kDevice);
    b.Api("cudaStreamSynchronize", t + 20 * kUs, t + 3 * kMs + 50 * kUs);
    ++corr;
    for (int k = 0; k < 6; ++k) {
      const std::int64_t at = t + 3 * kMs + k * kMs + 500 * kUs;
      b.Api("cudaLaunchKernel", at, at + 10 * kUs, corr);
      b.Kernel("step_kernel", at + 20 * kUs, at + 120 * kUs, corr);
      ++corr;
    }
  }
  b.Op("host_tail", 29 * kMs, 31 * kMs);
  const report::AnalysisReport r = Analyze(b.trace);
  const report::Finding* f = Find(r, "pageable_async_memcpy");
  REQUIRE(f != nullptr);
  REQUIRE(f->gpu_idle_caused_ns);
  CHECK(*f->gpu_idle_caused_ns < 1 * kMs);
  INFO(f->summary);
  CHECK(Contains(f->summary,
                 "3 synchronizations inside the same operators (aten::copy_) wait for these "
                 "copies too: pinning with .to(non_blocking=True) removes those syncs as well, "
                 "which gives back at most 9.12 ms"));
  // The advice's gain is the finding's field, which its bound and the Bound line quote.
  REQUIRE(f->advice_gpu_idle_ns);
  CHECK(*f->advice_gpu_idle_ns > 9 * kMs);
  CHECK(*f->advice_gpu_idle_ns < 10 * kMs);
  REQUIRE(f->advice_bound_speedup);
  REQUIRE(f->bound_speedup_if_removed);
  CHECK(*f->advice_bound_speedup > *f->bound_speedup_if_removed + 0.3);
  const std::string md = report::ToMarkdown(r);
  CHECK(Contains(md,
                 fmt::format("following the advice, which removes more than these calls "
                             "(above), gives back at most 9.12 ms of GPU idle: {:.2f}×",
                             *f->advice_bound_speedup)));

  // The same copies to the host: the host reads what they bring, so the sync after each stays
  // whatever the buffer (non_blocking does not remove it) and is not costed with them.
  TraceBuilder reads = b;
  for (model::GpuActivity& a : reads.trace.activities) {
    if (a.kind == model::ActivityKind::kMemcpy) {
      a.copy_kind = model::CopyKind::kDtoH;
      a.src_kind = model::MemoryKind::kDevice;
      a.dst_kind = model::MemoryKind::kPageable;
    }
  }
  const report::AnalysisReport read = Analyze(reads.trace);
  const report::Finding* g = Find(read, "pageable_async_memcpy");
  REQUIRE(g != nullptr);
  INFO(g->summary);
  CHECK_FALSE(Contains(g->summary, "inside the same operators"));
  CHECK_FALSE(g->advice_gpu_idle_ns);
  CHECK_FALSE(g->advice_bound_speedup);
}
