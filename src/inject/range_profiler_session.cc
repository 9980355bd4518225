#include "inject/range_profiler_session.h"

#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <dlfcn.h>

#include <algorithm>
#include <atomic>

#include "inject/injection_state.h"

namespace gpuperf::inject {
namespace {

// Compute capability through the driver that loaded us (never linked: see CMakeLists).
void ReadComputeCapability(std::uint32_t device, int& major, int& minor) {
  using GetAttribute = int (*)(int*, int, int);
  void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
  if (driver == nullptr)
    return;
  if (auto get = reinterpret_cast<GetAttribute>(dlsym(driver, "cuDeviceGetAttribute"))) {
    get(&major, 75, static_cast<int>(device));  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
    get(&minor, 76, static_cast<int>(device));  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR
  }
  dlclose(driver);
}

const char* SupportText(CUpti_Profiler_Support_Level level) {
  switch (level) {
    case CUPTI_PROFILER_CONFIGURATION_SUPPORTED:
      return "supported";
    case CUPTI_PROFILER_CONFIGURATION_DISABLED:
      return "disabled";
    case CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED:
      return "unsupported";
    default:
      return "unknown";
  }
}

bool DeviceSupported(std::uint32_t device) {
  CUpti_Profiler_DeviceSupported_Params params{};
  params.structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE;
  params.cuDevice = static_cast<CUdevice>(device);
  params.api = CUPTI_PROFILER_RANGE_PROFILING;
  if (!CounterOk(cuptiProfilerDeviceSupported(&params), "cuptiProfilerDeviceSupported"))
    return false;
  if (params.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
    return true;
  CounterStatus(spool::StatusLevel::kError,
                "device " + std::to_string(device) +
                    " does not support range profiling (architecture " +
                    SupportText(params.architecture) + ", SLI " + SupportText(params.sli) +
                    ", vGPU " + SupportText(params.vGpu) + ", confidential compute " +
                    SupportText(params.confidentialCompute) + ", CMP " + SupportText(params.cmp) +
                    ", WSL " + SupportText(params.wsl) + ")");
  return false;
}

// cuptiProfilerInitialize once per process, from the first context callback: the samples never
// call it inside cuInit, where InitializeInjection runs.
bool InitializeProfilerOnce() {
  static std::atomic<int> state{0};  // 0 not tried, 1 ok, 2 failed
  if (state.load() == 0) {
    CUpti_Profiler_Initialize_Params init{};
    init.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE;
    state = CounterOk(cuptiProfilerInitialize(&init), "cuptiProfilerInitialize") ? 1 : 2;
  }
  return state.load() == 1;
}

std::vector<std::uint8_t> CounterAvailability(CUcontext context, bool& ok) {
  CUpti_Profiler_GetCounterAvailability_Params params{};
  params.structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE;
  params.ctx = context;
  ok = CounterOk(cuptiProfilerGetCounterAvailability(&params),
                 "cuptiProfilerGetCounterAvailability");
  std::vector<std::uint8_t> image(ok ? params.counterAvailabilityImageSize : 0);
  if (ok) {
    params.pCounterAvailabilityImage = image.data();
    ok = CounterOk(cuptiProfilerGetCounterAvailability(&params),
                   "cuptiProfilerGetCounterAvailability");
  }
  return image;
}

}  // namespace

void CounterStatus(spool::StatusLevel level, const std::string& message) {
  GetState().sink.Status(level, "counter pass: " + message);
}

bool CounterOk(CUptiResult result, const char* what) {
  if (result == CUPTI_SUCCESS)
    return true;
  CounterStatus(spool::StatusLevel::kError, std::string(what) + ": " + CuptiResultText(result));
  return false;
}

std::unique_ptr<RangeProfilerSession> RangeProfilerSession::Create(
    CUcontext context, const std::vector<std::string>& metrics) {
  std::unique_ptr<RangeProfilerSession> s(new RangeProfilerSession());
  if (!InitializeProfilerOnce() ||
      !CounterOk(cuptiGetDeviceId(context, &s->device_), "cuptiGetDeviceId") ||
      !DeviceSupported(s->device_))
    return nullptr;
  ReadComputeCapability(s->device_, s->cc_major_, s->cc_minor_);
  CUpti_Device_GetChipName_Params chip{};
  chip.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
  chip.deviceIndex = s->device_;
  if (!CounterOk(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName") ||
      chip.pChipName == nullptr)
    return nullptr;
  s->chip_ = chip.pChipName;
  bool available = false;
  const std::vector<std::uint8_t> availability = CounterAvailability(context, available);
  if (!available)
    return nullptr;
  auto created = ProfilerHost::CreateForChip(s->chip_, availability, metrics);
  if (!created.host) {
    CounterStatus(spool::StatusLevel::kError, created.error);
    return nullptr;
  }
  s->host_ = std::move(created.host);
  if (!s->host_->dropped().empty()) {
    std::string dropped;
    for (const std::string& m : s->host_->dropped())
      dropped += (dropped.empty() ? "" : ", ") + m;
    CounterStatus(spool::StatusLevel::kInfo,
                  "not available on " + s->chip_ + ", left out: " + dropped);
  }
  CUpti_RangeProfiler_Enable_Params enable{};
  enable.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE;
  enable.ctx = context;
  if (!CounterOk(cuptiRangeProfilerEnable(&enable), "cuptiRangeProfilerEnable"))
    return nullptr;
  s->object_ = enable.pRangeProfilerObject;
  std::vector<const char*> names;
  for (const std::string& m : s->host_->metrics())
    names.push_back(m.c_str());
  CUpti_RangeProfiler_GetCounterDataSize_Params size{};
  size.structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE;
  size.pRangeProfilerObject = s->object_;
  size.pMetricNames = names.data();
  size.numMetrics = names.size();
  size.maxNumOfRanges = 1;  // one launch per session
  size.maxNumRangeTreeNodes = 1;
  if (!CounterOk(cuptiRangeProfilerGetCounterDataSize(&size),
                 "cuptiRangeProfilerGetCounterDataSize"))
    return nullptr;
  s->counter_data_.resize(size.counterDataSize);
  if (!s->ResetImage())
    return nullptr;
  // Configured once per object; between sessions only the counter data image is reset.
  CUpti_RangeProfiler_SetConfig_Params config{};
  config.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE;
  config.pRangeProfilerObject = s->object_;
  config.configSize = s->host_->config_image().size();
  config.pConfig = s->host_->config_image().data();
  config.counterDataImageSize = s->counter_data_.size();
  config.pCounterDataImage = s->counter_data_.data();
  config.range = CUPTI_AutoRange;          // kernel replay needs auto ranges
  config.replayMode = CUPTI_KernelReplay;  // every pass replayed inside the launch
  config.maxRangesPerPass = 1;
  config.numNestingLevels = 1;  // "for Auto range mode, this should be set to 1"
  config.minNestingLevel = 1;
  config.passIndex = 0;
  config.targetNestingLevel = 1;
  if (!CounterOk(cuptiRangeProfilerSetConfig(&config), "cuptiRangeProfilerSetConfig"))
    return nullptr;
  CounterStatus(spool::StatusLevel::kInfo,
                "device " + std::to_string(s->device_) + " (" + s->chip_ +
                    "): " + std::to_string(s->host_->metrics().size()) + " metrics in " +
                    std::to_string(s->host_->passes()) + " replay passes per profiled launch");
  return s;
}

RangeProfilerSession::~RangeProfilerSession() {
  Disable();
}

bool RangeProfilerSession::ResetImage() {
  CUpti_RangeProfiler_CounterDataImage_Initialize_Params init{};
  init.structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE;
  init.pRangeProfilerObject = object_;
  init.counterDataSize = counter_data_.size();
  init.pCounterData = counter_data_.data();
  return CounterOk(cuptiRangeProfilerCounterDataImageInitialize(&init),
                   "cuptiRangeProfilerCounterDataImageInitialize");
}

bool RangeProfilerSession::Start() {
  if (object_ == nullptr || started_)
    return false;
  CUpti_RangeProfiler_Start_Params start{};
  start.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE;
  start.pRangeProfilerObject = object_;
  started_ = CounterOk(cuptiRangeProfilerStart(&start), "cuptiRangeProfilerStart");
  return started_;
}

bool RangeProfilerSession::Finish(std::vector<double>& values,
                                  std::int64_t& ranges,
                                  std::int64_t& dropped) {
  ranges = 0;
  dropped = 0;
  if (!started_)
    return false;
  started_ = false;
  CUpti_RangeProfiler_Stop_Params stop{};
  stop.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE;
  stop.pRangeProfilerObject = object_;
  CUpti_RangeProfiler_DecodeData_Params decode{};
  decode.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE;
  decode.pRangeProfilerObject = object_;
  CUpti_RangeProfiler_GetCounterDataInfo_Params info{};
  info.structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE;
  info.pCounterDataImage = counter_data_.data();
  info.counterDataImageSize = counter_data_.size();
  bool ok = CounterOk(cuptiRangeProfilerStop(&stop), "cuptiRangeProfilerStop");
  // Kernel replay runs every pass inside the launch: "allPassSubmitted will always be 1".
  if (ok && !stop.isAllPassSubmitted) {
    CounterStatus(spool::StatusLevel::kWarning, "a session ended before all passes ran");
    ok = false;
  }
  ok = ok && CounterOk(cuptiRangeProfilerDecodeData(&decode), "cuptiRangeProfilerDecodeData") &&
       CounterOk(cuptiRangeProfilerGetCounterDataInfo(&info),
                 "cuptiRangeProfilerGetCounterDataInfo");
  if (ok) {
    dropped = static_cast<std::int64_t>(decode.numOfRangeDropped);
    ranges = static_cast<std::int64_t>(info.numTotalRanges);
    std::string error;
    ok = ranges > 0 && host_->Evaluate(counter_data_, 0, values, error);
    if (!error.empty())
      CounterStatus(spool::StatusLevel::kWarning, error);
  }
  ResetImage();
  return ok;
}

void RangeProfilerSession::Disable() {
  if (object_ == nullptr)
    return;
  if (started_) {
    CUpti_RangeProfiler_Stop_Params stop{};
    stop.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE;
    stop.pRangeProfilerObject = object_;
    cuptiRangeProfilerStop(&stop);
    started_ = false;
  }
  CUpti_RangeProfiler_Disable_Params disable{};
  disable.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE;
  disable.pRangeProfilerObject = object_;
  CounterOk(cuptiRangeProfilerDisable(&disable), "cuptiRangeProfilerDisable");
  object_ = nullptr;
}

}  // namespace gpuperf::inject
