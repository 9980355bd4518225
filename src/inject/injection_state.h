// Process-wide state of the injected recorder, and the steps around it that do not touch the
// CUPTI callbacks themselves (options, opening the spool, the one-time finish).
#pragma once

#include <cupti.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "inject/activity_decoder.h"
#include "inject/buffer_pool.h"
#include "inject/spool_sink.h"

namespace gpuperf::inject {

// What the CLI passes through the child's environment (docs/recorder.md).
struct Options {
  std::string out_dir;                   // GPUPERF_OUT_DIR; empty: do not record
  std::string session;                   // GPUPERF_SESSION
  std::size_t buffer_bytes = 8u << 20;   // GPUPERF_BUF_MB
  bool discard = false;                  // GPUPERF_DISCARD=1: enable the same kinds, keep nothing
  std::uint32_t flush_period_ms = 1000;  // GPUPERF_FLUSH_MS: our flush thread's period; 0 off
  // The counter pass (counter_pass.h) instead of tracing, when GPUPERF_METRICS is set:
  std::vector<std::string> metrics;     // GPUPERF_METRICS, comma-separated CUPTI metric names
  std::string metrics_kernels;          // GPUPERF_METRICS_KERNELS: file, one kernel name per line
  std::int64_t metrics_per_kernel = 3;  // GPUPERF_METRICS_PER_KERNEL: launches profiled per name
};

Options ReadOptions();

struct State {
  std::mutex init_mutex;
  bool initialized = false;
  Options options;
  std::int64_t pid = 0;
  std::atomic<bool> forked_child{false};
  std::atomic<bool> finished{false};
  // Held by Finish for its whole run and by the flush thread around each flush: a second
  // Finish (exit racing a forwarded signal) waits for the first to end instead of returning
  // while CUPTI is still flushing.
  std::timed_mutex flush_mutex;
  CUpti_SubscriberHandle subscriber = nullptr;
  BufferPool pool;
  StringInterner strings;
  SpoolSink sink;
  std::atomic<std::uint64_t> records{0};
  std::atomic<std::uint64_t> unknown{0};
  std::atomic<std::uint64_t> incomplete{0};
  std::atomic<std::uint64_t> dropped{0};
  std::atomic<std::uint64_t> buffers{0};
};

// The one State, created on first use and never destroyed: it must outlive static destructors
// that may still run CUDA code after our atexit handler.
State& GetState();

// Creates <out_dir>/<host>.<pid>[.r<rank>].gpuperf and starts the writer thread.
bool OpenSpool(State& state) noexcept;

// Flushes CUPTI, writes the footer and closes the spool, once; a concurrent second call waits
// (up to 30 s) for the first to end. Does nothing in a forked child (the parent owns the CUPTI
// state it inherited).
void Finish(spool::EndReason reason, int signal) noexcept;

// cuptiSubscribe_v2 as `name` with `callback` into state.subscriber. On failure an error status
// "<prefix>..." says why: another CUPTI tool (named) is attached, or the CUPTI result.
bool Subscribe(State& state,
               CUpti_CallbackFunc callback,
               const char* name,
               const std::string& prefix) noexcept;

// "CUPTI_ERROR_UNKNOWN" for a result code.
std::string ResultName(CUptiResult result);

// True on CUPTI_SUCCESS; otherwise writes "<what>: <error>" to the spool as an error status.
bool Check(CUptiResult result, const std::string& what) noexcept;

}  // namespace gpuperf::inject
