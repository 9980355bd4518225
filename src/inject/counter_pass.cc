// The target side of the counter pass (see counter_pass.h). Every profiled launch is its own
// range-profiler session: Start at the launch's ENTER callback, Stop, decode and evaluate at its
// EXIT (kernel replay has run every pass by then), so launches that are not selected run without
// replay. All launches are serialized while the pass runs so that no other kernel can fall into
// a session; the pass is never timed. Calls marked [verify on H200] in ../shared/notes/cupti.md
// have only been checked against the headers and the offline host API.
#include "inject/counter_pass.h"

#include <cupti.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <dlfcn.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

#include "inject/counter_csv.h"
#include "inject/launch_selection.h"
#include "inject/profiler_host.h"
#include "record/spool_writer.h"

namespace gpuperf::inject {
namespace {

// One context's range profiler.
struct ContextProfiler {
  std::uint32_t device = 0;
  int cc_major = 0, cc_minor = 0;
  std::string chip;
  std::unique_ptr<ProfilerHost> host;
  CUpti_RangeProfiler_Object* object = nullptr;
  std::vector<std::uint8_t> counter_data;
  bool started = false;
  ProfiledLaunch pending;
};

struct CounterPass {
  std::mutex mutex;  // guards everything below
  std::vector<std::string> metrics;
  std::unique_ptr<LaunchSelection> selection;
  std::map<CUcontext, std::unique_ptr<ContextProfiler>> contexts;
  CounterCsvWriter csv;
  std::string csv_path;
  std::string process_name;
  std::string host;
  std::int64_t next_id = 0;
  std::int64_t failures = 0;
  std::int64_t extra_ranges = 0;
  std::int64_t dropped_ranges = 0;
  std::int64_t graph_launches = 0;
  std::size_t passes = 0;
  bool finished = false;
  std::mutex launch_gate;  // held from a launch's ENTER to its EXIT: launches run one at a time
};

CounterPass& Pass() {
  static CounterPass* pass = new CounterPass();  // leaked like State: outlives static destructors
  return *pass;
}

thread_local int launch_depth = 0;

void Status(spool::StatusLevel level, const std::string& message) {
  GetState().sink.Status(level, "counter pass: " + message);
}

bool Ok(CUptiResult result, const char* what) {
  if (result == CUPTI_SUCCESS)
    return true;
  Status(spool::StatusLevel::kError, std::string(what) + ": " + CuptiResultText(result));
  return false;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Compute capability through the driver that loaded us (never linked: see CMakeLists).
void ReadComputeCapability(ContextProfiler& profiler) {
  using GetAttribute = int (*)(int*, int, int);
  void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
  if (driver == nullptr)
    return;
  auto get = reinterpret_cast<GetAttribute>(dlsym(driver, "cuDeviceGetAttribute"));
  if (get != nullptr) {
    get(&profiler.cc_major, 75, static_cast<int>(profiler.device));  // ..._COMPUTE_CAPABILITY_MAJOR
    get(&profiler.cc_minor, 76, static_cast<int>(profiler.device));  // ..._COMPUTE_CAPABILITY_MINOR
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
  if (!Ok(cuptiProfilerDeviceSupported(&params), "cuptiProfilerDeviceSupported"))
    return false;
  if (params.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
    return true;
  Status(spool::StatusLevel::kError,
         "device " + std::to_string(device) +
             " does not support range profiling (architecture " + SupportText(params.architecture) +
             ", SLI " + SupportText(params.sli) + ", vGPU " + SupportText(params.vGpu) +
             ", confidential compute " + SupportText(params.confidentialCompute) + ", CMP " +
             SupportText(params.cmp) + ", WSL " + SupportText(params.wsl) + ")");
  return false;
}

// Counter data for one range, initialised, and the config set; ready for Start.
bool Arm(ContextProfiler& p) {
  CUpti_RangeProfiler_CounterDataImage_Initialize_Params init{};
  init.structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE;
  init.pRangeProfilerObject = p.object;
  init.counterDataSize = p.counter_data.size();
  init.pCounterData = p.counter_data.data();
  if (!Ok(cuptiRangeProfilerCounterDataImageInitialize(&init),
          "cuptiRangeProfilerCounterDataImageInitialize"))
    return false;
  CUpti_RangeProfiler_SetConfig_Params config{};
  config.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE;
  config.pRangeProfilerObject = p.object;
  config.configSize = p.host->config_image().size();
  config.pConfig = p.host->config_image().data();
  config.counterDataImageSize = p.counter_data.size();
  config.pCounterDataImage = p.counter_data.data();
  config.range = CUPTI_AutoRange;          // kernel replay needs auto ranges
  config.replayMode = CUPTI_KernelReplay;  // every pass replayed inside the launch
  config.maxRangesPerPass = 1;
  config.numNestingLevels = 1;
  config.minNestingLevel = 1;
  config.passIndex = 0;
  config.targetNestingLevel = 1;
  return Ok(cuptiRangeProfilerSetConfig(&config), "cuptiRangeProfilerSetConfig");
}

std::unique_ptr<ContextProfiler> SetUpContext(CUcontext context, CounterPass& pass) {
  auto p = std::make_unique<ContextProfiler>();
  if (!Ok(cuptiGetDeviceId(context, &p->device), "cuptiGetDeviceId") ||
      !DeviceSupported(p->device))
    return nullptr;
  ReadComputeCapability(*p);
  CUpti_Device_GetChipName_Params chip{};
  chip.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
  chip.deviceIndex = p->device;
  if (!Ok(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName") || chip.pChipName == nullptr)
    return nullptr;
  p->chip = chip.pChipName;
  CUpti_Profiler_GetCounterAvailability_Params availability{};
  availability.structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE;
  availability.ctx = context;
  if (!Ok(cuptiProfilerGetCounterAvailability(&availability),
          "cuptiProfilerGetCounterAvailability"))
    return nullptr;
  std::vector<std::uint8_t> image(availability.counterAvailabilityImageSize);
  availability.pCounterAvailabilityImage = image.data();
  if (!Ok(cuptiProfilerGetCounterAvailability(&availability),
          "cuptiProfilerGetCounterAvailability"))
    return nullptr;
  auto created = ProfilerHost::CreateForChip(p->chip, image, pass.metrics);
  if (!created.host) {
    Status(spool::StatusLevel::kError, created.error);
    return nullptr;
  }
  p->host = std::move(created.host);
  pass.passes = std::max(pass.passes, p->host->passes());
  if (!p->host->dropped().empty()) {
    std::string dropped;
    for (const std::string& m : p->host->dropped())
      dropped += (dropped.empty() ? "" : ", ") + m;
    Status(spool::StatusLevel::kInfo, "not available on " + p->chip + ", left out: " + dropped);
  }
  CUpti_RangeProfiler_Enable_Params enable{};
  enable.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE;
  enable.ctx = context;
  if (!Ok(cuptiRangeProfilerEnable(&enable), "cuptiRangeProfilerEnable"))
    return nullptr;
  p->object = enable.pRangeProfilerObject;
  std::vector<const char*> names;
  for (const std::string& m : p->host->metrics())
    names.push_back(m.c_str());
  CUpti_RangeProfiler_GetCounterDataSize_Params size{};
  size.structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE;
  size.pRangeProfilerObject = p->object;
  size.pMetricNames = names.data();
  size.numMetrics = names.size();
  size.maxNumOfRanges = 1;
  size.maxNumRangeTreeNodes = 1;
  if (!Ok(cuptiRangeProfilerGetCounterDataSize(&size), "cuptiRangeProfilerGetCounterDataSize"))
    return nullptr;
  p->counter_data.resize(size.counterDataSize);
  if (!Arm(*p))
    return nullptr;
  Status(spool::StatusLevel::kInfo,
         "device " + std::to_string(p->device) + " (" + p->chip + "): " +
             std::to_string(p->host->metrics().size()) + " metrics in " +
             std::to_string(p->host->passes()) + " replay passes per profiled launch");
  return p;
}

void Disable(ContextProfiler& p) {
  if (p.object == nullptr)
    return;
  if (p.started) {
    CUpti_RangeProfiler_Stop_Params stop{};
    stop.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE;
    stop.pRangeProfilerObject = p.object;
    cuptiRangeProfilerStop(&stop);
    p.started = false;
  }
  CUpti_RangeProfiler_Disable_Params disable{};
  disable.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE;
  disable.pRangeProfilerObject = p.object;
  Ok(cuptiRangeProfilerDisable(&disable), "cuptiRangeProfilerDisable");
  p.object = nullptr;
}

// Grid and block of a launch from its driver-API parameters.
void LaunchShape(CUpti_CallbackId cbid, const void* params, ProfiledLaunch& launch) {
  auto copy = [&](unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz) {
    launch.grid[0] = gx, launch.grid[1] = gy, launch.grid[2] = gz;
    launch.block[0] = bx, launch.block[1] = by, launch.block[2] = bz;
  };
  if (params == nullptr)
    return;
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
      const auto* p = static_cast<const cuLaunchKernel_params*>(params);
      copy(p->gridDimX, p->gridDimY, p->gridDimZ, p->blockDimX, p->blockDimY, p->blockDimZ);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
      const auto* p = static_cast<const cuLaunchCooperativeKernel_params*>(params);
      copy(p->gridDimX, p->gridDimY, p->gridDimZ, p->blockDimX, p->blockDimY, p->blockDimZ);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
      const auto* p = static_cast<const cuLaunchKernelEx_params*>(params);
      if (p->config != nullptr) {
        const CUlaunchConfig& c = *p->config;
        copy(c.gridDimX, c.gridDimY, c.gridDimZ, c.blockDimX, c.blockDimY, c.blockDimZ);
      }
      break;
    }
    default:
      break;
  }
}

// ENTER of a selected launch: start its session.
void BeginLaunch(CounterPass& pass, const CUpti_CallbackData& info, CUpti_CallbackId cbid) {
  auto it = pass.contexts.find(info.context);
  if (it == pass.contexts.end() || !it->second || it->second->started)
    return;
  ContextProfiler& p = *it->second;
  std::string name;
  if (!pass.selection->Take(info.symbolName, name))
    return;
  p.pending = ProfiledLaunch{};
  p.pending.kernel_name = name;
  p.pending.pid = getpid();
  p.pending.process_name = pass.process_name;
  p.pending.host = pass.host;
  p.pending.context = info.contextUid;
  p.pending.device = p.device;
  p.pending.cc_major = p.cc_major;
  p.pending.cc_minor = p.cc_minor;
  LaunchShape(cbid, info.functionParams, p.pending);
  CUpti_RangeProfiler_Start_Params start{};
  start.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE;
  start.pRangeProfilerObject = p.object;
  if (Ok(cuptiRangeProfilerStart(&start), "cuptiRangeProfilerStart"))
    p.started = true;
  else
    ++pass.failures;
}

// EXIT of a profiled launch: stop, decode, evaluate, write, re-arm.
void EndLaunch(CounterPass& pass, const CUpti_CallbackData& info) {
  auto it = pass.contexts.find(info.context);
  if (it == pass.contexts.end() || !it->second || !it->second->started)
    return;
  ContextProfiler& p = *it->second;
  p.started = false;
  CUpti_RangeProfiler_Stop_Params stop{};
  stop.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE;
  stop.pRangeProfilerObject = p.object;
  CUpti_RangeProfiler_DecodeData_Params decode{};
  decode.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE;
  decode.pRangeProfilerObject = p.object;
  CUpti_RangeProfiler_GetCounterDataInfo_Params data{};
  data.structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE;
  data.pCounterDataImage = p.counter_data.data();
  data.counterDataImageSize = p.counter_data.size();
  if (!Ok(cuptiRangeProfilerStop(&stop), "cuptiRangeProfilerStop") ||
      !Ok(cuptiRangeProfilerDecodeData(&decode), "cuptiRangeProfilerDecodeData") ||
      !Ok(cuptiRangeProfilerGetCounterDataInfo(&data), "cuptiRangeProfilerGetCounterDataInfo")) {
    ++pass.failures;
    Arm(p);
    return;
  }
  pass.dropped_ranges += static_cast<std::int64_t>(decode.numOfRangeDropped);
  if (data.numTotalRanges == 0) {
    ++pass.failures;
  } else {
    // One launch, one range; anything more is counted, never attributed to this kernel.
    pass.extra_ranges += static_cast<std::int64_t>(data.numTotalRanges) - 1;
    std::string error;
    if (p.host->Evaluate(p.counter_data, 0, p.pending.values, error)) {
      p.pending.metrics = p.host->metrics();
      p.pending.id = pass.next_id++;
      if (!pass.csv.Write(p.pending))
        ++pass.failures;
    } else {
      ++pass.failures;
      Status(spool::StatusLevel::kWarning, p.pending.kernel_name + ": " + error);
    }
  }
  Arm(p);
}

bool IsKernelLaunch(CUpti_CallbackId cbid) {
  return cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz;
}

void OnLaunch(CounterPass& pass, CUpti_CallbackId cbid, const CUpti_CallbackData& info) {
  if (info.callbackSite == CUPTI_API_ENTER) {
    if (launch_depth++ == 0)
      pass.launch_gate.lock();
    std::lock_guard lock(pass.mutex);
    BeginLaunch(pass, info, cbid);
  } else {
    {
      std::lock_guard lock(pass.mutex);
      EndLaunch(pass, info);
    }
    if (launch_depth > 0 && --launch_depth == 0)
      pass.launch_gate.unlock();
  }
}

void CUPTIAPI OnCounterCallback(void* /*userdata*/,
                                CUpti_CallbackDomain domain,
                                CUpti_CallbackId cbid,
                                const void* data) noexcept {
  try {
    CounterPass& pass = Pass();
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API && IsKernelLaunch(cbid)) {
      OnLaunch(pass, cbid, *static_cast<const CUpti_CallbackData*>(data));
    } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API &&
               (cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch ||
                cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz)) {
      const auto* info = static_cast<const CUpti_CallbackData*>(data);
      if (info->callbackSite == CUPTI_API_ENTER) {
        std::lock_guard lock(pass.mutex);
        ++pass.graph_launches;
      }
    } else if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
      const auto* resource = static_cast<const CUpti_ResourceData*>(data);
      std::lock_guard lock(pass.mutex);
      if (pass.finished)
        return;
      if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) {
        pass.contexts[resource->context] = SetUpContext(resource->context, pass);
      } else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
        auto it = pass.contexts.find(resource->context);
        if (it != pass.contexts.end() && it->second)
          Disable(*it->second);
        if (it != pass.contexts.end())
          pass.contexts.erase(it);
      }
    }
  } catch (...) {
    // Never let anything escape into the driver's thread.
  }
}

std::string ProcessName() {
  std::string name = ReadFile("/proc/self/comm");
  while (!name.empty() && (name.back() == '\n' || name.back() == '\r'))
    name.pop_back();
  return name;
}

}  // namespace

bool StartCounterPass(State& state) noexcept {
  try {
    CounterPass& pass = Pass();
    std::lock_guard lock(pass.mutex);
    pass.metrics = state.options.metrics;
    pass.selection = std::make_unique<LaunchSelection>(
        state.options.metrics_kernels.empty() ? std::string()
                                              : ReadFile(state.options.metrics_kernels),
        state.options.metrics_per_kernel);
    pass.process_name = ProcessName();
    pass.host = spool::HostName();
    std::string spool_name =
        spool::SpoolFileName(pass.host, getpid(), spool::RankFromEnvironment());
    spool_name = spool_name.substr(0, spool_name.rfind('.'));
    pass.csv_path = state.options.out_dir + "/" + spool_name + ".counters.csv";
    if (!pass.csv.Open(pass.csv_path)) {
      Status(spool::StatusLevel::kError, "cannot create " + pass.csv_path);
      return false;
    }
    CUpti_Profiler_Initialize_Params init{};
    init.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE;
    if (!Ok(cuptiProfilerInitialize(&init), "cuptiProfilerInitialize"))
      return false;
    char other[CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN] = {};
    CUpti_SubscriberParams params{};
    params.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
    params.subscriberName = "gpuperf counter pass";
    params.oldSubscriberName = other;
    params.oldSubscriberSize = sizeof(other);
    const CUptiResult subscribed =
        cuptiSubscribe_v2(&state.subscriber,
                          reinterpret_cast<CUpti_CallbackFunc>(&OnCounterCallback),
                          nullptr,
                          &params);
    if (subscribed == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
      Status(spool::StatusLevel::kError,
             std::string("another CUPTI tool is attached (") + other + "); nothing profiled");
      return false;
    }
    if (!Ok(subscribed, "cuptiSubscribe_v2"))
      return false;
    bool ok = Ok(cuptiEnableDomain(1, state.subscriber, CUPTI_CB_DOMAIN_RESOURCE),
                 "cuptiEnableDomain(RESOURCE)");
    for (CUpti_CallbackId cbid : {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
                                  CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
                                  CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
                                  CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
                                  CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
                                  CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
                                  CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
                                  CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz}) {
      ok &= Ok(cuptiEnableCallback(1, state.subscriber, CUPTI_CB_DOMAIN_DRIVER_API, cbid),
               "cuptiEnableCallback(launch)");
    }
    return ok;
  } catch (...) {
    return false;
  }
}

void FinishCounterPass() noexcept {
  try {
    CounterPass& pass = Pass();
    std::lock_guard lock(pass.mutex);
    if (pass.finished)
      return;
    pass.finished = true;
    for (auto& [context, profiler] : pass.contexts) {
      if (profiler)
        Disable(*profiler);
    }
    pass.csv.Close();
    if (!pass.selection)
      return;
    std::string summary = "profiled " + std::to_string(pass.next_id) + " launches (" +
                          std::to_string(pass.selection->selected_names()) +
                          " kernel names selected, " +
                          std::to_string(pass.selection->skipped_launches()) +
                          " launches not selected), " + std::to_string(pass.passes) +
                          " replay passes each";
    if (pass.failures > 0)
      summary += "; " + std::to_string(pass.failures) + " launches failed";
    if (pass.extra_ranges > 0)
      summary += "; " + std::to_string(pass.extra_ranges) + " unexpected extra ranges ignored";
    if (pass.dropped_ranges > 0)
      summary += "; " + std::to_string(pass.dropped_ranges) + " ranges dropped by CUPTI";
    if (pass.graph_launches > 0)
      summary += "; " + std::to_string(pass.graph_launches) +
                 " CUDA graph launches not profiled (kernel replay sees stream launches only)";
    Status(pass.failures > 0 ? spool::StatusLevel::kWarning : spool::StatusLevel::kInfo, summary);
    CUpti_Profiler_DeInitialize_Params deinit{};
    deinit.structSize = CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE;
    cuptiProfilerDeInitialize(&deinit);
  } catch (...) {
  }
}

}  // namespace gpuperf::inject
