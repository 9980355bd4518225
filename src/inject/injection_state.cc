#include "inject/injection_state.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "inject/counter_pass.h"
#include "spool/metric_sets.h"
#include "spool/spool_writer.h"

namespace gpuperf::inject {
namespace {

std::string EnvOr(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : fallback;
}

std::int64_t EnvInt(const char* name, std::int64_t fallback) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0')
    return fallback;
  char* end = nullptr;
  const long long parsed = std::strtoll(value, &end, 10);
  return (*end == '\0' && parsed >= 0) ? parsed : fallback;
}

void CopyTruncated(char* destination, std::size_t capacity, const std::string& text) {
  std::strncpy(destination, text.c_str(), capacity - 1);
  destination[capacity - 1] = '\0';
}

// cudaRuntimeGetVersion of the program's shared libcudart: from the global scope, else from a
// libcudart found in /proc/self/maps (Python extensions load it RTLD_LOCAL). Called at exit,
// never inside cuInit; it returns a compile-time constant and initialises nothing.
std::int32_t DetectRuntimeVersion() noexcept {
  using GetVersion = int (*)(int*);
  auto ask = [](void* symbol) -> std::int32_t {
    int version = 0;
    if (symbol == nullptr || reinterpret_cast<GetVersion>(symbol)(&version) != 0)
      return 0;
    return version;
  };
  if (std::int32_t version = ask(dlsym(RTLD_DEFAULT, "cudaRuntimeGetVersion")))
    return version;
  std::FILE* maps = std::fopen("/proc/self/maps", "r");
  if (maps == nullptr)
    return 0;
  char line[4096];
  std::int32_t version = 0;
  while (version == 0 && std::fgets(line, sizeof(line), maps) != nullptr) {
    const char* path = std::strchr(line, '/');
    if (path == nullptr || std::strstr(path, "/libcudart.so") == nullptr)
      continue;
    std::string file(path);
    while (!file.empty() && (file.back() == '\n' || file.back() == ' '))
      file.pop_back();
    if (void* library = dlopen(file.c_str(), RTLD_LAZY | RTLD_NOLOAD)) {
      version = ask(dlsym(library, "cudaRuntimeGetVersion"));
      dlclose(library);
    }
  }
  std::fclose(maps);
  return version;
}

}  // namespace

Options ReadOptions() {
  Options options;
  options.out_dir = EnvOr("GPUPERF_OUT_DIR", "");
  options.session = EnvOr("GPUPERF_SESSION", "");
  const std::int64_t buffer_mb = EnvInt("GPUPERF_BUF_MB", 8);
  // CUPTI recommends 1-10 MB; we allow up to 64 MB for very dense traces.
  options.buffer_bytes = static_cast<std::size_t>(buffer_mb < 1    ? 1
                                                  : buffer_mb > 64 ? 64
                                                                   : buffer_mb)
                         << 20;
  options.discard = EnvOr("GPUPERF_DISCARD", "0") == "1";
  options.flush_period_ms = static_cast<std::uint32_t>(EnvInt("GPUPERF_FLUSH_MS", 1000));
  options.metrics = spool::SplitMetrics(EnvOr("GPUPERF_METRICS", ""));
  options.metrics_kernels = EnvOr("GPUPERF_METRICS_KERNELS", "");
  options.metrics_per_kernel = EnvInt("GPUPERF_METRICS_PER_KERNEL", 3);
  return options;
}

State& GetState() {
  static State* state = new State();  // intentionally leaked, see the header
  return *state;
}

bool OpenSpool(State& state) noexcept {
  try {
    state.pid = getpid();
    state.pool.SetBufferSize(state.options.buffer_bytes);
    spool::FileHeader header;
    std::memcpy(header.magic, spool::kMagic, sizeof(header.magic));
    header.event_size = sizeof(spool::Event);
    header.pid = state.pid;
    header.ppid = getppid();
    header.rank = spool::RankFromEnvironment();
    std::uint64_t now = 0;
    if (cuptiGetTimestamp(&now) == CUPTI_SUCCESS)
      header.start_time_ns = static_cast<std::int64_t>(now);
    std::uint32_t version = 0;
    if (cuptiGetVersion(&version) == CUPTI_SUCCESS)
      header.cupti_version = version;
    header.discard_mode = state.options.discard ? 1 : 0;
    const std::string host = spool::HostName();
    CopyTruncated(header.host, sizeof(header.host), host);
    CopyTruncated(header.session, sizeof(header.session), state.options.session);
    const std::string path =
        state.options.out_dir + "/" + spool::SpoolFileName(host, state.pid, header.rank);
    return state.sink.Open(path, header);
  } catch (...) {
    return false;
  }
}

void Finish(spool::EndReason reason, int signal) noexcept {
  State& state = GetState();
  if (state.forked_child.load() || getpid() != state.pid)
    return;
  std::unique_lock lock(state.flush_mutex, std::defer_lock);
  const bool locked = lock.try_lock_for(std::chrono::seconds(30));
  if (state.finished.exchange(true) || !locked)
    return;
  try {
    if (!state.options.metrics.empty())
      FinishCounterPass();
    if (state.subscriber != nullptr && state.options.metrics.empty()) {
      // Complete buffers first, then everything, including records still being written.
      Check(cuptiActivityFlushAll(0), "cuptiActivityFlushAll(0)");
      Check(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED),
            "cuptiActivityFlushAll(FORCED)");
      std::size_t dropped = 0;
      if (cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped) == CUPTI_SUCCESS) {
        state.dropped.fetch_add(dropped);
      }
    }
    spool::Footer footer;
    std::uint64_t now = 0;
    if (cuptiGetTimestamp(&now) == CUPTI_SUCCESS)
      footer.end_time_ns = static_cast<std::int64_t>(now);
    footer.dropped_records = state.dropped.load();
    footer.records = state.records.load();
    footer.buffers = state.buffers.load();
    footer.unknown_records = state.unknown.load();
    footer.incomplete_records =
        static_cast<std::uint32_t>(std::min<std::uint64_t>(state.incomplete.load(), UINT32_MAX));
    footer.reason = static_cast<std::int32_t>(reason);
    footer.signal = signal;
    footer.cuda_runtime_version = DetectRuntimeVersion();
    state.sink.Close(footer);
  } catch (...) {
  }
  // Deliberately no cuptiFinalize()/dlclose: CUPTI 13.0-13.1 leaves dangling pointers on unload.
}

bool Subscribe(State& state,
               CUpti_CallbackFunc callback,
               const char* name,
               const std::string& prefix) noexcept {
  char other[CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN] = {};
  CUpti_SubscriberParams params{};
  params.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
  params.subscriberName = name;
  params.oldSubscriberName = other;
  params.oldSubscriberSize = sizeof(other);
  const CUptiResult subscribed = cuptiSubscribe_v2(&state.subscriber, callback, nullptr, &params);
  if (subscribed == CUPTI_SUCCESS)
    return true;
  try {
    state.sink.Status(spool::StatusLevel::kError,
                      subscribed == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
                          ? prefix + "another CUPTI tool is attached (" + other +
                                "); gpuperf recorded nothing in this process"
                          : prefix + "cuptiSubscribe_v2: " + ResultName(subscribed));
  } catch (...) {
  }
  return false;
}

std::string ResultName(CUptiResult result) {
  const char* text = nullptr;
  if (cuptiGetResultString(result, &text) == CUPTI_SUCCESS && text != nullptr)
    return text;
  return "CUPTI error " + std::to_string(static_cast<int>(result));
}

bool Check(CUptiResult result, const std::string& what) noexcept {
  if (result == CUPTI_SUCCESS)
    return true;
  try {
    GetState().sink.Status(spool::StatusLevel::kError, what + ": " + ResultName(result));
  } catch (...) {
  }
  return false;
}

}  // namespace gpuperf::inject
