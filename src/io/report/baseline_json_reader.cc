#include "io/report/baseline_json_reader.h"

#include "gpuperf/baseline_json_keys.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "util/byte_source.h"
#include "util/json_text.h"

namespace gpuperf::io {
namespace {

using Json = nlohmann::json;
namespace keys = baseline::json_keys;

// A baseline.json is a few KB per run; this only stops a wrong file from filling memory.
constexpr std::size_t kMaxBaselineBytes = std::size_t{256} << 20;
// gpuperf writes five levels; deeper text is not ours, and TextOf and dump() recurse per level.
constexpr std::size_t kMaxBaselineDepth = 64;

const Json& Member(const Json& object, const char* key) {
  static const Json kNull;
  if (!object.is_object())
    return kNull;
  auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

std::string TextOf(const Json& j) {
  if (j.is_string())
    return j.get<std::string>();
  if (j.is_array()) {
    std::string out;
    for (const Json& part : j)
      out += (out.empty() ? "" : " ") + TextOf(part);
    return out;
  }
  return j.is_null() ? std::string() : j.dump();
}

std::string StringOr(const Json& j, std::string fallback = {}) {
  return j.is_string() ? j.get<std::string>() : fallback;
}

template <class T>
T NumberOr(const Json& j, T fallback) {
  return j.is_number() ? j.get<T>() : fallback;
}

void ReadHardware(const Json& hardware, BaselineFile& out) {
  const Json& gpus = Member(hardware, keys::kGpus);
  out.gpus_recorded = gpus.is_array();
  if (gpus.is_array()) {
    for (const Json& g : gpus) {
      out.gpus.push_back({StringOr(Member(g, keys::kGpuName)),
                          NumberOr<std::int64_t>(Member(g, keys::kMaxSmClockKhz), 0),
                          NumberOr<std::int64_t>(Member(g, keys::kMaxMemoryClockKhz), 0)});
    }
  }
  // The rank's own GPU when recorded, else every GPU's state.
  const Json& in_use = Member(hardware, keys::kDeviceInUse);
  const Json& state = in_use.is_object() && in_use.contains(keys::kStateBefore)
                          ? in_use[keys::kStateBefore]
                          : Member(hardware, keys::kStateBefore);
  if (!state.is_null())
    out.gpu_state_before = state.is_string() ? state.get<std::string>() : state.dump();
}

void ReadWorkload(const Json& workload, BaselineFile& out) {
  out.command = TextOf(Member(workload, keys::kCommand));
  out.executable_sha256 = TextOf(Member(workload, keys::kExecutableSha256));
  if (const Json& inputs = Member(workload, keys::kInputs); inputs.is_array()) {
    for (const Json& input : inputs)
      out.inputs[StringOr(Member(input, keys::kInputPath))] =
          StringOr(Member(input, keys::kInputSha256));
  }
}

void ReadRuns(const Json& runs, BaselineFile& out) {
  if (!runs.is_array())
    return;
  for (const Json& r : runs) {
    BaselineFile::Run run;
    run.index = NumberOr<std::int64_t>(Member(r, keys::kRunIndex), -1);
    const Json& complete = Member(r, keys::kRunComplete);
    run.complete = complete.is_boolean() && complete.get<bool>();
    run.wall_time_s = NumberOr<double>(Member(r, keys::kRunWallTimeS), 0.0);
    if (const Json& traces = Member(r, keys::kRunTraces); traces.is_array()) {
      for (const Json& t : traces) {
        if (t.is_string())
          run.traces.push_back(t.get<std::string>());
      }
    }
    out.runs.push_back(std::move(run));
  }
}

}  // namespace

Result<BaselineFile> ReadBaselineJson(const std::string& path) {
  auto text = util::ReadFileText(path, kMaxBaselineBytes);
  if (!text.ok())
    return text.error();
  return ParseBaselineJson(*text, path);
}

Result<BaselineFile> ParseBaselineJson(std::string_view text, const std::string& path) {
  if (util::json_text::JsonNestingDeeperThan(text, kMaxBaselineDepth))
    return Error{fmt::format(
        "{}: not a gpuperf baseline.json (nested deeper than {} levels)", path, kMaxBaselineDepth)};
  Json b = Json::parse(text, nullptr, false);
  if (b.is_discarded() || !b.is_object())
    return Error{fmt::format("{}: not a JSON object (truncated or corrupt baseline.json?)", path)};
  BaselineFile out;
  ReadHardware(Member(b, keys::kHardware), out);
  const Json& software = Member(b, keys::kSoftware);
  out.driver_release = TextOf(Member(software, keys::kDriverRelease));
  out.cuda_runtime_version = TextOf(Member(software, keys::kCudaRuntimeVersion));
  ReadWorkload(Member(b, keys::kWorkload), out);
  ReadRuns(Member(b, keys::kRuns), out);
  out.analyzed_run =
      NumberOr<std::int64_t>(Member(Member(b, keys::kAnalysis), keys::kAnalyzedRun), 0);
  return out;
}

}  // namespace gpuperf::io
