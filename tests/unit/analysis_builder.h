// Builds small synthetic traces for the analysis tests: every value is hand-chosen so that the
// expected figures can be computed by hand in the test.
#pragma once

#include "gpuperf/trace.h"

#include <algorithm>
#include <string>

namespace gpuperf::testing {

class TraceBuilder {
 public:
  model::GpuActivity& Kernel(const std::string& name,
                             model::TimeNs start,
                             model::TimeNs end,
                             std::int64_t correlation = model::kNoId,
                             std::int64_t stream = 7,
                             std::int32_t device = 0) {
    model::GpuActivity a;
    a.kind = model::ActivityKind::kKernel;
    a.name = trace.strings.Intern(name);
    a.start_ns = start;
    a.end_ns = end;
    a.correlation = correlation;
    a.stream = stream;
    a.device = device;
    trace.activities.push_back(a);
    return trace.activities.back();
  }

  model::GpuActivity& Memcpy(model::CopyKind kind,
                             model::TimeNs start,
                             model::TimeNs end,
                             std::int64_t bytes,
                             std::int64_t correlation = model::kNoId,
                             model::MemoryKind src = model::MemoryKind::kDevice,
                             model::MemoryKind dst = model::MemoryKind::kDevice) {
    model::GpuActivity a;
    a.kind = model::ActivityKind::kMemcpy;
    a.copy_kind = kind;
    a.src_kind = src;
    a.dst_kind = dst;
    a.start_ns = start;
    a.end_ns = end;
    a.bytes = bytes;
    a.correlation = correlation;
    trace.activities.push_back(a);
    return trace.activities.back();
  }

  model::GpuActivity& Memset(model::TimeNs start,
                             model::TimeNs end,
                             std::int64_t bytes,
                             std::int64_t correlation = model::kNoId,
                             model::MemoryKind kind = model::MemoryKind::kDevice) {
    model::GpuActivity a;
    a.kind = model::ActivityKind::kMemset;
    a.src_kind = kind;
    a.start_ns = start;
    a.end_ns = end;
    a.bytes = bytes;
    a.correlation = correlation;
    trace.activities.push_back(a);
    return trace.activities.back();
  }

  // Device 0, an NVIDIA GPU of compute capability major.0 (its datasheet entry by name).
  model::Device& Gpu(const std::string& name, std::int32_t major, std::int32_t sm_count) {
    model::Device d;
    d.id = 0;
    d.name = name;
    d.compute_major = major;
    d.sm_count = sm_count;
    trace.devices.push_back(d);
    return trace.devices.back();
  }

  model::ApiCall& Api(const std::string& name,
                      model::TimeNs start,
                      model::TimeNs end,
                      std::int64_t correlation = model::kNoId) {
    model::ApiCall c;
    c.name = trace.strings.Intern(name);
    c.start_ns = start;
    c.end_ns = end;
    c.correlation = correlation;
    c.pid = 100;
    c.tid = 101;
    trace.api_calls.push_back(c);
    return trace.api_calls.back();
  }

  model::Range& AddRange(model::RangeKind kind,
                         const std::string& name,
                         model::TimeNs start,
                         model::TimeNs end,
                         std::int32_t device = model::kNoId,
                         const std::string& domain = "") {
    model::Range r;
    r.kind = kind;
    r.name = trace.strings.Intern(name);
    r.domain = trace.strings.Intern(domain);
    r.start_ns = start;
    r.end_ns = end;
    r.device = device;
    trace.ranges.push_back(r);
    return trace.ranges.back();
  }

  model::SyncEvent& Sync(model::SyncKind kind,
                         model::TimeNs start,
                         model::TimeNs end,
                         std::int64_t correlation = model::kNoId) {
    model::SyncEvent s;
    s.kind = kind;
    s.start_ns = start;
    s.end_ns = end;
    s.correlation = correlation;
    trace.syncs.push_back(s);
    return trace.syncs.back();
  }

  model::HostOp& Op(const std::string& name,
                    model::TimeNs start,
                    model::TimeNs end,
                    std::int64_t tid = 101) {
    model::HostOp op;
    op.name = trace.strings.Intern(name);
    op.start_ns = start;
    op.end_ns = end;
    op.pid = 100;
    op.tid = tid;
    trace.host_ops.push_back(op);
    return trace.host_ops.back();
  }

  model::PythonFrame& Frame(const std::string& name,
                            model::TimeNs start,
                            model::TimeNs end,
                            std::int64_t tid = 101) {
    auto& threads = trace.frame_threads;
    auto it = std::find_if(threads.begin(), threads.end(), [&](const model::HostThread& t) {
      return t.pid == 100 && t.tid == tid;
    });
    if (it == threads.end())
      it = threads.insert(threads.end(), {100, tid});
    trace.python_frames.push_back(
        {start, end, trace.strings.Intern(name), static_cast<std::uint32_t>(it - threads.begin())});
    return trace.python_frames.back();
  }

  model::Trace trace;
};

// Whether a report sentence holds `part` (the tests check phrases, not whole sentences).
inline bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace gpuperf::testing
