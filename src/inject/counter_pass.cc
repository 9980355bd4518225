// The target side of the counter pass (see counter_pass.h): which launches get a range-profiler
// session (range_profiler_session.h) and what is written for each. Every profiled launch is its
// own session: Start at the launch's ENTER callback, Stop, decode and evaluate at its EXIT (kernel
// replay has run every pass by then), so launches that are not selected run without replay. All
// launches, graph launches included, are serialized while the pass runs so that no other kernel
// can fall into a session; the pass is never timed. The CUPTI sequence was reviewed against
// NVIDIA's callback_profiling sample; it has not run on a GPU yet (docs/gpu-validation.md).
#include "inject/counter_pass.h"

#include <cupti.h>

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include "inject/counter_csv.h"
#include "inject/launch_selection.h"
#include "inject/range_profiler_session.h"
#include "spool/spool_writer.h"

namespace gpuperf::inject {
namespace {

struct CounterPass {
  std::mutex mutex;  // guards everything below
  std::vector<std::string> metrics;
  std::unique_ptr<LaunchSelection> selection;
  std::map<CUcontext, std::unique_ptr<RangeProfilerSession>> contexts;  // null: cannot profile
  std::map<CUcontext, ProfiledLaunch> pending;  // the launch a started session belongs to
  CounterCsvWriter csv;
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

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
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
  if (it == pass.contexts.end() || !it->second || it->second->started())
    return;
  RangeProfilerSession& session = *it->second;
  std::string name;
  if (!pass.selection->Take(info.symbolName, name))
    return;
  ProfiledLaunch launch;
  launch.kernel_name = name;
  launch.pid = getpid();
  launch.process_name = pass.process_name;
  launch.host = pass.host;
  launch.context = info.contextUid;
  launch.device = session.device();
  launch.cc_major = session.cc_major();
  launch.cc_minor = session.cc_minor();
  LaunchShape(cbid, info.functionParams, launch);
  if (session.Start())
    pass.pending[info.context] = std::move(launch);
  else
    ++pass.failures;
}

// EXIT of a profiled launch: finish the session and write its values.
void EndLaunch(CounterPass& pass, const CUpti_CallbackData& info) {
  auto it = pass.contexts.find(info.context);
  if (it == pass.contexts.end() || !it->second || !it->second->started())
    return;
  RangeProfilerSession& session = *it->second;
  ProfiledLaunch& launch = pass.pending[info.context];
  std::int64_t ranges = 0, dropped = 0;
  const bool ok = session.Finish(launch.values, ranges, dropped);
  pass.dropped_ranges += dropped;
  // One launch, one range; anything more is counted, never attributed to this kernel.
  pass.extra_ranges += ranges > 1 ? ranges - 1 : 0;
  if (ok) {
    launch.metrics = session.metrics();
    launch.id = pass.next_id++;
    if (!pass.csv.Write(launch))
      ++pass.failures;
  } else {
    ++pass.failures;
  }
  pass.pending.erase(info.context);
}

bool IsKernelLaunch(CUpti_CallbackId cbid) {
  return cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz;
}

bool IsGraphLaunch(CUpti_CallbackId cbid) {
  return cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz;
}

// Every launch holds the gate from ENTER to EXIT (same thread); nested calls do not re-take it.
void OnLaunch(CounterPass& pass, CUpti_CallbackId cbid, const CUpti_CallbackData& info) {
  const bool graph = IsGraphLaunch(cbid);
  if (info.callbackSite == CUPTI_API_ENTER) {
    if (launch_depth++ == 0)
      pass.launch_gate.lock();
    std::lock_guard lock(pass.mutex);
    if (graph)
      ++pass.graph_launches;
    else
      BeginLaunch(pass, info, cbid);
  } else {
    if (!graph) {
      std::lock_guard lock(pass.mutex);
      EndLaunch(pass, info);
    }
    if (launch_depth > 0 && --launch_depth == 0)
      pass.launch_gate.unlock();
  }
}

void OnContext(CounterPass& pass, CUpti_CallbackId cbid, const CUpti_ResourceData& resource) {
  std::lock_guard lock(pass.mutex);
  if (pass.finished)
    return;
  if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) {
    auto session = RangeProfilerSession::Create(resource.context, pass.metrics);
    if (session)
      pass.passes = std::max(pass.passes, session->passes());
    pass.contexts[resource.context] = std::move(session);
  } else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
    pass.contexts.erase(resource.context);  // the session disables itself
    pass.pending.erase(resource.context);
  }
}

void CUPTIAPI OnCounterCallback(void* /*userdata*/,
                                CUpti_CallbackDomain domain,
                                CUpti_CallbackId cbid,
                                const void* data) noexcept {
  try {
    CounterPass& pass = Pass();
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API && (IsKernelLaunch(cbid) || IsGraphLaunch(cbid)))
      OnLaunch(pass, cbid, *static_cast<const CUpti_CallbackData*>(data));
    else if (domain == CUPTI_CB_DOMAIN_RESOURCE)
      OnContext(pass, cbid, *static_cast<const CUpti_ResourceData*>(data));
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
    const std::string csv_path = state.options.out_dir + "/" + spool_name + ".counters.csv";
    if (!pass.csv.Open(csv_path)) {
      CounterStatus(spool::StatusLevel::kError, "cannot create " + csv_path);
      return false;
    }
    if (!Subscribe(state,
                   reinterpret_cast<CUpti_CallbackFunc>(&OnCounterCallback),
                   "gpuperf counter pass",
                   "counter pass: "))
      return false;
    bool ok = CounterOk(cuptiEnableDomain(1, state.subscriber, CUPTI_CB_DOMAIN_RESOURCE),
                        "cuptiEnableDomain(RESOURCE)");
    for (CUpti_CallbackId cbid : {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
                                  CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
                                  CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
                                  CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
                                  CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
                                  CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
                                  CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
                                  CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz}) {
      ok &= CounterOk(cuptiEnableCallback(1, state.subscriber, CUPTI_CB_DOMAIN_DRIVER_API, cbid),
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
    // Finish may run from a forwarded signal that interrupted a callback holding the mutex: wait
    // a little, never forever (the CSV is flushed per launch, so little is lost).
    std::unique_lock lock(pass.mutex, std::defer_lock);
    for (int attempt = 0; attempt < 200 && !lock.try_lock(); ++attempt)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (!lock.owns_lock()) {
      CounterStatus(spool::StatusLevel::kWarning, "ended inside a profiled launch");
      return;
    }
    if (pass.finished)
      return;
    pass.finished = true;
    for (auto& [context, session] : pass.contexts) {
      if (session)
        session->Disable();
    }
    pass.csv.Close();
    if (!pass.selection)
      return;
    std::string summary =
        "profiled " + std::to_string(pass.next_id) + " launches (" +
        std::to_string(pass.selection->selected_names()) + " kernel names selected, " +
        std::to_string(pass.selection->skipped_launches()) + " launches not selected), " +
        std::to_string(pass.passes) + " replay passes each";
    if (pass.failures > 0)
      summary += "; " + std::to_string(pass.failures) + " launches failed";
    if (pass.extra_ranges > 0)
      summary += "; " + std::to_string(pass.extra_ranges) + " unexpected extra ranges ignored";
    if (pass.dropped_ranges > 0)
      summary += "; " + std::to_string(pass.dropped_ranges) + " ranges dropped by CUPTI";
    if (pass.graph_launches > 0)
      summary += "; " + std::to_string(pass.graph_launches) +
                 " CUDA graph launches not profiled (kernel replay sees stream launches only)";
    CounterStatus(pass.failures > 0 ? spool::StatusLevel::kWarning : spool::StatusLevel::kInfo,
                  summary);
    CUpti_Profiler_DeInitialize_Params deinit{};
    deinit.structSize = CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE;
    cuptiProfilerDeInitialize(&deinit);
  } catch (...) {
  }
}

}  // namespace gpuperf::inject
