#include "inject/profiler_host.h"

#include <cupti.h>

namespace gpuperf::inject {
namespace {

std::vector<const char*> Pointers(const std::vector<std::string>& names) {
  std::vector<const char*> out;
  out.reserve(names.size());
  for (const std::string& name : names)
    out.push_back(name.c_str());
  return out;
}

std::string Failed(const char* call, CUptiResult result) {
  return std::string(call) + ": " + CuptiResultText(result);
}

}  // namespace

std::string CuptiResultText(CUptiResult result) {
  const char* text = nullptr;
  if (cuptiGetResultString(result, &text) == CUPTI_SUCCESS && text != nullptr)
    return text;
  return "CUPTI error " + std::to_string(static_cast<int>(result));
}

ProfilerHost::~ProfilerHost() {
  if (object_ != nullptr) {
    CUpti_Profiler_Host_Deinitialize_Params params{};
    params.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE;
    params.pHostObject = object_;
    cuptiProfilerHostDeinitialize(&params);
  }
}

ProfilerHost::Created ProfilerHost::CreateForChip(const std::string& chip,
                                                  const std::vector<std::uint8_t>& availability,
                                                  const std::vector<std::string>& metrics) {
  Created first = Create(chip, availability, metrics);
  if (first.host || metrics.size() < 2)
    return first;
  // Tensor ops_path names differ per architecture (GH100 has ..._src_fp16, GA100 and GB100
  // ..._src_fp16_dst_fp16 / _dst_fp32): keep what this chip has, say what it lacks.
  std::vector<std::string> kept;
  std::vector<std::string> dropped;
  for (const std::string& metric : metrics)
    (Create(chip, availability, {metric}).host ? kept : dropped).push_back(metric);
  if (kept.empty())
    return first;
  Created out = Create(chip, availability, kept);
  if (out.host)
    out.host->dropped_ = std::move(dropped);
  return out;
}

ProfilerHost::Created ProfilerHost::Create(const std::string& chip,
                                           const std::vector<std::uint8_t>& availability,
                                           const std::vector<std::string>& metrics) {
  Created out;
  std::unique_ptr<ProfilerHost> host(new ProfilerHost());
  host->metrics_ = metrics;
  CUpti_Profiler_Host_Initialize_Params init{};
  init.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE;
  init.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  init.pChipName = chip.c_str();
  init.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
  if (CUptiResult r = cuptiProfilerHostInitialize(&init); r != CUPTI_SUCCESS) {
    out.error = Failed("cuptiProfilerHostInitialize", r) + " (chip " + chip + ")";
    return out;
  }
  host->object_ = init.pHostObject;
  // All metrics in one call: CUPTI schedules each call's metrics as one group, so adding them
  // one by one multiplies the passes (22 instead of 5 for the roofline set on GH100).
  std::vector<const char*> names = Pointers(metrics);
  CUpti_Profiler_Host_ConfigAddMetrics_Params add{};
  add.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE;
  add.pHostObject = host->object_;
  add.ppMetricNames = names.data();
  add.numMetrics = names.size();
  if (CUptiResult r = cuptiProfilerHostConfigAddMetrics(&add); r != CUPTI_SUCCESS) {
    out.error = Failed("cuptiProfilerHostConfigAddMetrics", r) + " on chip " + chip;
    if (metrics.size() == 1)
      out.error += " for metric " + metrics.front();
    return out;
  }
  CUpti_Profiler_Host_GetConfigImageSize_Params size{};
  size.structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE;
  size.pHostObject = host->object_;
  if (CUptiResult r = cuptiProfilerHostGetConfigImageSize(&size); r != CUPTI_SUCCESS) {
    out.error = Failed("cuptiProfilerHostGetConfigImageSize", r);
    return out;
  }
  host->config_image_.resize(size.configImageSize);
  CUpti_Profiler_Host_GetConfigImage_Params image{};
  image.structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE;
  image.pHostObject = host->object_;
  image.configImageSize = host->config_image_.size();
  image.pConfigImage = host->config_image_.data();
  if (CUptiResult r = cuptiProfilerHostGetConfigImage(&image); r != CUPTI_SUCCESS) {
    out.error = Failed("cuptiProfilerHostGetConfigImage", r);
    return out;
  }
  CUpti_Profiler_Host_GetNumOfPasses_Params passes{};
  passes.structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE;
  passes.configImageSize = host->config_image_.size();
  passes.pConfigImage = host->config_image_.data();
  if (CUptiResult r = cuptiProfilerHostGetNumOfPasses(&passes); r != CUPTI_SUCCESS) {
    out.error = Failed("cuptiProfilerHostGetNumOfPasses", r);
    return out;
  }
  host->passes_ = passes.numOfPasses;
  out.host = std::move(host);
  return out;
}

bool ProfilerHost::Evaluate(const std::vector<std::uint8_t>& counter_data,
                            std::size_t range,
                            std::vector<double>& values,
                            std::string& error) const {
  std::vector<const char*> names = Pointers(metrics_);
  values.assign(metrics_.size(), 0.0);
  CUpti_Profiler_Host_EvaluateToGpuValues_Params params{};
  params.structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE;
  params.pHostObject = object_;
  params.pCounterDataImage = counter_data.data();
  params.counterDataImageSize = counter_data.size();
  params.rangeIndex = range;
  params.ppMetricNames = names.data();
  params.numMetrics = names.size();
  params.pMetricValues = values.data();
  if (CUptiResult r = cuptiProfilerHostEvaluateToGpuValues(&params); r != CUPTI_SUCCESS) {
    error = Failed("cuptiProfilerHostEvaluateToGpuValues", r);
    return false;
  }
  return true;
}

}  // namespace gpuperf::inject
