#include <catch2/catch.hpp>

#include "analysis/core/correlation.h"
#include "analysis/timeline/audit.h"
#include "analysis_builder.h"

namespace {

using gpuperf::analysis::ComputeAudit;
using gpuperf::analysis::CorrelationIndex;
using gpuperf::model::CopyKind;
using gpuperf::model::MemoryEvent;
using gpuperf::model::MemoryOp;
using gpuperf::model::SyncKind;
using gpuperf::testing::TraceBuilder;

}  // namespace

TEST_CASE("Audit counts activities by kind and calls once per call", "[analysis][audit]") {
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 5, 1);
  b.Api("cudaLaunchKernel_v7000", 1, 4, 1);  // duplicate record of the same call
  b.Kernel("a", 10, 20, 1);
  b.Api("cuLaunchKernel", 30, 35, 2);
  b.Kernel("a", 40, 50, 2);
  b.Kernel("b", 60, 70);
  b.Memcpy(CopyKind::kHtoD, 0, 1, 8);
  b.Memcpy(CopyKind::kHtoD, 2, 3, 8);
  b.Memcpy(CopyKind::kDtoH, 4, 5, 8);
  b.Memcpy(CopyKind::kDtoD, 6, 7, 8);
  b.Memcpy(CopyKind::kPtoP, 8, 9, 8);
  b.Memset(10, 11, 8);
  // Allocation calls (no allocator events in this trace): the host allocation does not count.
  b.Api("cudaMalloc", 100, 110, 10);
  b.Api("cudaMalloc_v3020", 101, 109, 10);
  b.Api("cudaMallocManaged", 120, 130, 11);
  b.Api("cudaMallocHost", 140, 150, 12);
  b.Api("cudaFree", 160, 170, 13);
  CorrelationIndex index(b.trace);
  auto a = ComputeAudit(b.trace, index);
  CHECK(a.kernel_launches == 3);
  CHECK(a.launch_calls == 2);
  CHECK(a.distinct_kernels == 2);
  CHECK(a.graph_launches == 0);
  CHECK(a.memcpy_htod == 2);
  CHECK(a.memcpy_dtoh == 1);
  CHECK(a.memcpy_dtod == 1);
  CHECK(a.memcpy_other == 1);
  CHECK(a.memsets == 1);
  CHECK(a.allocations == 2);
  CHECK(a.frees == 1);
  CHECK(a.peak_allocated_bytes == -1);
  CHECK(a.synchronizations == 0);
}

TEST_CASE("Audit counts a sync call and its own sync record once", "[analysis][audit]") {
  TraceBuilder b;
  b.Api("cudaDeviceSynchronize", 0, 100, 10);
  b.Sync(SyncKind::kContext, 0, 100, 10);            // the record of that call
  b.Sync(SyncKind::kStream, 200, 250, 11);           // a record whose call is not in the trace
  b.Sync(SyncKind::kStreamWaitEvent, 300, 301, 12);  // GPU-side wait, not host-blocking
  b.Api("cudaEventSynchronize", 400, 450, 13);
  CorrelationIndex index(b.trace);
  CHECK(ComputeAudit(b.trace, index).synchronizations == 3);
}

TEST_CASE("Audit takes allocations and the peak from device allocator events",
          "[analysis][audit]") {
  TraceBuilder b;
  auto event = [&](MemoryOp op, std::int32_t device, std::int64_t bytes, std::int64_t total) {
    MemoryEvent e;
    e.op = op;
    e.device = device;
    e.bytes = bytes;
    e.total_allocated = total;
    b.trace.memory_events.push_back(e);
  };
  event(MemoryOp::kAllocate, 0, 100, 100);
  event(MemoryOp::kAllocate, 0, 200, 300);
  event(MemoryOp::kFree, 0, 100, 200);
  event(MemoryOp::kAllocate, -1, 5000, 5000);  // host memory: not a device allocation
  b.Api("cudaMalloc", 0, 10, 1);               // ignored when allocator events exist
  CorrelationIndex index(b.trace);
  auto a = ComputeAudit(b.trace, index);
  CHECK(a.allocations == 2);
  CHECK(a.frees == 1);
  CHECK(a.peak_allocated_bytes == 300);
}
