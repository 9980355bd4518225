// libgpuperf_inject.so: loaded by libcuda through CUDA_INJECTION64_PATH (and by NVTX through
// NVTX_INJECTION64_PATH). A thin layer over CUPTI: enable the activity kinds, hand completed
// buffers to the decoder and the spool sink, flush at exit or on a forwarded signal.
//
// Rules (docs/recorder.md): C ABI at the boundary; every CUPTI call checked and its failure
// written to the spool as a status; every callback noexcept and catching everything; nothing is
// ever printed to the program's stdout/stderr; the program's exit code is never changed.
#include <cupti.h>

#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "inject/activity_decoder.h"
#include "inject/buffer_pool.h"
#include "inject/counter_pass.h"
#include "inject/injection_state.h"
#include "inject/signal_forwarder.h"
#include "inject/spool_sink.h"

namespace gpuperf::inject {
namespace {

void CUPTIAPI BufferRequested(std::uint8_t** buffer,
                              std::size_t* size,
                              std::size_t* max_records) noexcept {
  try {
    State& state = GetState();
    *buffer = state.pool.Take();
    *size = *buffer == nullptr ? 0 : state.pool.buffer_size();
    *max_records = 0;
  } catch (...) {
    *buffer = nullptr;
    *size = 0;
  }
}

void CUPTIAPI BufferCompleted(CUcontext context,
                              std::uint32_t stream_id,
                              std::uint8_t* buffer,
                              std::size_t /*size*/,
                              std::size_t valid_size) noexcept {
  try {
    State& state = GetState();
    state.buffers.fetch_add(1, std::memory_order_relaxed);
    std::size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(context, stream_id, &dropped) == CUPTI_SUCCESS) {
      state.dropped.fetch_add(dropped, std::memory_order_relaxed);
    }
    if (state.options.discard) {
      state.records.fetch_add(CountRecords(buffer, valid_size), std::memory_order_relaxed);
    } else if (auto batch = state.sink.Acquire()) {
      DecodeStats stats;
      const CUptiResult result = DecodeBuffer(buffer, valid_size, state.strings, *batch, stats);
      state.records.fetch_add(stats.records, std::memory_order_relaxed);
      state.unknown.fetch_add(stats.unknown, std::memory_order_relaxed);
      state.incomplete.fetch_add(stats.incomplete, std::memory_order_relaxed);
      if (result != CUPTI_SUCCESS) {
        batch->statuses.emplace_back(spool::StatusLevel::kWarning,
                                     "cuptiActivityGetNextRecord: " + ResultName(result));
      }
      state.sink.Submit(std::move(batch));
    }
  } catch (...) {
    // Never let anything escape into CUPTI's thread.
  }
  GetState().pool.Give(buffer);
}

void CUPTIAPI OnCallback(void* /*userdata*/,
                         CUpti_CallbackDomain domain,
                         CUpti_CallbackId cbid,
                         const void* data) noexcept {
  try {
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API &&
        cbid == CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020) {
      const auto* info = static_cast<const CUpti_CallbackData*>(data);
      // Records of the context about to be destroyed must leave CUPTI first.
      if (info->callbackSite == CUPTI_API_ENTER)
        Check(cuptiActivityFlushAll(0), "cuptiActivityFlushAll");
    } else if (domain == CUPTI_CB_DOMAIN_STATE && cbid == CUPTI_CBID_STATE_FATAL_ERROR) {
      const auto* info = static_cast<const CUpti_StateData*>(data);
      const char* message = info->notification.message;
      GetState().sink.Status(
          spool::StatusLevel::kError,
          std::string("CUPTI fatal error: ") + (message ? message : "(no message)"));
    }
  } catch (...) {
  }
}

// The kinds of docs/recorder.md. CONCURRENT_KERNEL, never KERNEL (which serializes kernels).
// Not GRAPH_TRACE: it replaces the records of a graph's kernels, copies and memsets by one
// record per graph launch (cupti_activity.h, CUpti_ActivityGraphTrace2), and the analysis needs
// the nodes; they carry graphId / graphNodeId and the launch's correlation id.
constexpr CUpti_ActivityKind kKinds[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
    CUPTI_ACTIVITY_KIND_MEMCPY,
    CUPTI_ACTIVITY_KIND_MEMSET,
    CUPTI_ACTIVITY_KIND_RUNTIME,
    CUPTI_ACTIVITY_KIND_DRIVER,
    CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
    CUPTI_ACTIVITY_KIND_MEMORY2,
    CUPTI_ACTIVITY_KIND_MARKER,
    CUPTI_ACTIVITY_KIND_OVERHEAD,
};

bool SubscribeAndEnable(State& state) {
  if (!Subscribe(state, reinterpret_cast<CUpti_CallbackFunc>(&OnCallback), "gpuperf", ""))
    return false;
  Check(cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM), "cuptiSetThreadIdType");
  // Our pool hands out zeroed buffers, so CUPTI need not zero them on the program's thread.
  std::uint8_t zeroed = 1;
  std::size_t zeroed_size = sizeof(zeroed);
  Check(cuptiActivitySetAttribute(
            CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, &zeroed_size, &zeroed),
        "cuptiActivitySetAttribute(ZEROED_OUT_ACTIVITY_BUFFER)");
  if (!Check(cuptiActivityRegisterCallbacks(&BufferRequested, &BufferCompleted),
             "cuptiActivityRegisterCallbacks")) {
    return false;
  }
  bool any = false;
  for (CUpti_ActivityKind kind : kKinds) {
    any |= Check(cuptiActivityEnable(kind), "cuptiActivityEnable(" + std::to_string(kind) + ")");
  }
  Check(cuptiActivityEnableAndDump(CUPTI_ACTIVITY_KIND_DEVICE),
        "cuptiActivityEnableAndDump(DEVICE)");
  Check(cuptiEnableCallback(1,
                            state.subscriber,
                            CUPTI_CB_DOMAIN_RUNTIME_API,
                            CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020),
        "cuptiEnableCallback(cudaDeviceReset)");
  Check(
      cuptiEnableCallback(1, state.subscriber, CUPTI_CB_DOMAIN_STATE, CUPTI_CBID_STATE_FATAL_ERROR),
      "cuptiEnableCallback(FATAL_ERROR)");
  return any;
}

// CUPTI's own periodic flush (cuptiActivityFlushPeriod) returns only FULL buffers: with per-thread
// 8 MB buffers a kill would lose everything since a thread last filled one. A default flush
// returns every buffer whose records are complete, full or not; on a timer it bounds what a
// SIGKILL, `_exit` or crash loses to about one period (cupti_activity.h allows this "at a regular
// interval in a separate thread").
void* FlushLoop(void*) {
  State& state = GetState();
  const auto period = std::chrono::milliseconds(state.options.flush_period_ms);
  while (true) {
    std::this_thread::sleep_for(period);
    if (state.finished.load() || state.forked_child.load())
      return nullptr;
    std::unique_lock lock(state.flush_mutex, std::try_to_lock);
    if (!lock.owns_lock() || state.finished.load())
      continue;  // Finish is running (it flushes everything itself)
    cuptiActivityFlushAll(0);
  }
}

// A detached thread with every signal blocked, so that the program's handlers never run on it.
void StartFlushThread() noexcept {
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
  pthread_t thread;
  if (pthread_create(&thread, &attributes, &FlushLoop, nullptr) != 0)
    Check(CUPTI_ERROR_UNKNOWN, "the periodic flush thread could not start");
  pthread_attr_destroy(&attributes);
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

void MarkForkedChild() noexcept {
  GetState().forked_child.store(true);
}

int Initialize() noexcept {
  State& state = GetState();
  std::lock_guard lock(state.init_mutex);
  if (state.initialized)
    return 1;
  state.initialized = true;
  state.options = ReadOptions();
  if (state.options.out_dir.empty())
    return 1;  // not launched by gpuperf: stay out of the way
  if (!OpenSpool(state))
    return 1;
  const bool started =
      state.options.metrics.empty() ? SubscribeAndEnable(state) : StartCounterPass(state);
  if (!started) {
    // Nothing will be recorded; close now so the CLI sees the status and a clean footer.
    Finish(spool::EndReason::kExit, 0);
    return 1;
  }
  pthread_atfork(nullptr, nullptr, &MarkForkedChild);
  std::atexit([] { Finish(spool::EndReason::kExit, 0); });
  InstallSignalForwarder([](int signal) { Finish(spool::EndReason::kSignal, signal); });
  if (state.options.metrics.empty() && state.options.flush_period_ms > 0)
    StartFlushThread();
  return 1;
}

}  // namespace

// Calls libcupti's own NVTX injection entry point `symbol`; 0 (NVTX stays off) when the loaded
// libcupti has none.
int ForwardToCupti(const char* symbol, const void* argument) noexcept {
  using Init = int (*)(const void*);
  void* cupti = dlopen("libcupti.so.13", RTLD_LAZY | RTLD_NOLOAD);
  if (cupti == nullptr)
    return 0;
  auto init = reinterpret_cast<Init>(dlsym(cupti, symbol));
  return init != nullptr ? init(argument) : 0;
}

}  // namespace gpuperf::inject

extern "C" {

// Called by libcuda inside cuInit. 1 is the only documented success value; we return it even
// when tracing could not start, so that the program always runs on.
__attribute__((visibility("default"))) int InitializeInjection(void) {
  try {
    return gpuperf::inject::Initialize();
  } catch (...) {
    return 1;
  }
}

// NVTX v3 calls this when NVTX_INJECTION64_PATH names this library. We hand NVTX to the CUPTI
// that this library already loaded, which turns ranges into MARKER activity records.
__attribute__((visibility("default"))) int InitializeInjectionNvtx2(const void* get_export_table) {
  return gpuperf::inject::ForwardToCupti("InitializeInjectionNvtx2", get_export_table);
}

// NVTX extension modules (payloads, counters, memory: nvtxDetail/nvtxExtInit.h) look this up in
// the same library; libcupti implements it too.
__attribute__((visibility("default"))) int InitializeInjectionNvtxExtension(void* module_info) {
  return gpuperf::inject::ForwardToCupti("InitializeInjectionNvtxExtension", module_info);
}

}  // extern "C"
