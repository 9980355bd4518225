#include "io/ceilings/ceilings_json.h"

#include "gpuperf/report_vocabulary.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

#include "model/measured_ceilings.h"

namespace gpuperf::io::ceilings {
namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

// Plausible ranges of the figures: outside them a unit or the probe is wrong.
constexpr double kMinRate = 1e9;              // 1 GB/s, 1 GFLOP/s
constexpr double kMaxDramBytesPerS = 1e14;    // 100 TB/s
constexpr double kMaxVectorFlopsPerS = 1e15;  // 1 PFLOP/s
constexpr double kMaxTensorFlopsPerS = 1e17;  // 100 PFLOP/s
constexpr double kMinClockHz = 1e8;
constexpr double kMaxClockHz = 1e10;
constexpr double kConsistency = 0.01;  // rate vs work / best time

// Reads fields of one JSON object; the first problem is kept as "<where>.<key>: <what>".
class Fields {
 public:
  Fields(const Json& object, std::string where, std::optional<std::string>& error)
      : object_(object), where_(std::move(where)), error_(error) {}

  const Json* Get(const char* key) {
    auto it = object_.find(key);
    if (it == object_.end()) {
      Fail(key, "missing");
      return nullptr;
    }
    return &*it;
  }
  std::string Text(const char* key, bool allow_empty = false) {
    const Json* v = Get(key);
    if (v && (!v->is_string() || (!allow_empty && v->get_ref<const std::string&>().empty())))
      Fail(key, allow_empty ? "not a string" : "not a non-empty string");
    return v && v->is_string() ? v->get<std::string>() : std::string();
  }
  std::int64_t Integer(const char* key, std::int64_t low, std::int64_t high) {
    const Json* v = Get(key);
    if (!v)
      return 0;
    if (!v->is_number_integer()) {
      Fail(key, "not an integer");
      return 0;
    }
    if (v->is_number_unsigned() && v->get<std::uint64_t>() > static_cast<std::uint64_t>(high)) {
      Fail(key, fmt::format("{} is outside [{}, {}]", v->get<std::uint64_t>(), low, high));
      return 0;
    }
    const std::int64_t value = v->get<std::int64_t>();
    if (value < low || value > high)
      Fail(key, fmt::format("{} is outside [{}, {}]", value, low, high));
    return value;
  }
  // A finite number in [low, high]; `required` false: absent is nullopt.
  std::optional<double> Number(const char* key, double low, double high, bool required = true) {
    if (!required && !object_.contains(key))
      return std::nullopt;
    const Json* v = Get(key);
    if (!v)
      return std::nullopt;
    if (!v->is_number()) {
      Fail(key, "not a number");
      return std::nullopt;
    }
    const double value = v->get<double>();
    if (!std::isfinite(value) || value < low || value > high) {
      Fail(key, fmt::format("{:.4g} is outside [{:.4g}, {:.4g}]", value, low, high));
      return std::nullopt;
    }
    return value;
  }
  void Fail(const char* key, const std::string& what) {
    if (!error_)
      error_ = fmt::format("{}{}: {}", where_.empty() ? "" : where_ + ".", key, what);
  }

 private:
  const Json& object_;
  std::string where_;
  std::optional<std::string>& error_;
};

const Json* Object(const Json& root, const char* key, std::optional<std::string>& error) {
  auto it = root.find(key);
  if (it == root.end() || !it->is_object()) {
    if (!error)
      error = fmt::format("{}: {}", key, it == root.end() ? "missing" : "not an object");
    return nullptr;
  }
  return &*it;
}

model::MeasuredFigure ReadFigure(const Json& root,
                                 const char* name,
                                 const char* rate_key,
                                 const char* work_key,
                                 double max_rate,
                                 std::optional<std::string>& error) {
  model::MeasuredFigure figure;
  const Json* object = Object(root, name, error);
  if (!object)
    return figure;
  Fields f(*object, name, error);
  figure.per_s = f.Number(rate_key, kMinRate, max_rate).value_or(0);
  figure.work_per_launch = f.Number(work_key, 1, 1e30).value_or(0);
  figure.best_ms = f.Number("best_ms", kMinLaunchMs, 1e7).value_or(0);
  figure.median_ms = f.Number("median_ms", figure.best_ms, 1e7).value_or(0);
  figure.reps = static_cast<std::int32_t>(f.Integer("reps", 1, 100000));
  figure.sm_clock_hz = f.Number("sm_clock_hz", kMinClockHz, kMaxClockHz, false);
  if (!error && figure.best_ms > 0) {
    const double implied = figure.work_per_launch / (figure.best_ms * 1e-3);
    if (std::abs(implied / figure.per_s - 1) > kConsistency) {
      error = fmt::format("{}: {} / best_ms is {:.4g}/s, not the {:.4g}/s of {}",
                          name,
                          work_key,
                          implied,
                          figure.per_s,
                          rate_key);
    }
  }
  return figure;
}

void ReadDevice(const Json& root, model::MeasuredCeilings& m, std::optional<std::string>& error) {
  const Json* device = Object(root, "device", error);
  if (!device)
    return;
  Fields f(*device, "device", error);
  m.device_name = f.Text("name");
  if (m.device_name.size() > 256)
    f.Fail("name", "longer than 256 characters");
  const std::string uuid = f.Text("uuid");
  m.uuid = model::NormalizeGpuUuid(uuid);
  if (!uuid.empty() && m.uuid.empty())
    f.Fail("uuid", "'" + uuid.substr(0, 64) + "' is not a GPU UUID (GPU-xxxxxxxx-xxxx-...)");
  m.ordinal = static_cast<std::int32_t>(f.Integer("ordinal", 0, 1024));
  m.compute_major = static_cast<std::int32_t>(f.Integer("compute_major", 1, 99));
  m.compute_minor = static_cast<std::int32_t>(f.Integer("compute_minor", 0, 99));
  m.sm_count = static_cast<std::int32_t>(f.Integer("sm_count", 1, 100000));
  m.l2_bytes = f.Integer("l2_bytes", 0, std::int64_t{1} << 40);
  m.memory_bytes = f.Integer("memory_bytes", 0, std::int64_t{1} << 50);
  m.max_sm_clock_hz = f.Number("max_sm_clock_hz", 0, kMaxClockHz).value_or(0);
}

Result<Json> ParseText(std::string_view text) {
  if (text.size() > kMaxJsonBytes)
    return Error{
        fmt::format("{} bytes, more than the {} a ceilings file has", text.size(), kMaxJsonBytes)};
  try {
    Json root = Json::parse(text);
    if (!root.is_object())
      return Error{"not a JSON object"};
    return root;
  } catch (const Json::exception& e) {
    return Error{fmt::format("not JSON ({})", e.what())};
  }
}

Result<model::MeasuredCeilings> FromJson(const Json& root) {
  std::optional<std::string> error;
  model::MeasuredCeilings m;
  Fields top(root, "", error);
  if (top.Text("probe") != "gpuperf_ceilings_probe" && !error)
    error = "probe: not \"gpuperf_ceilings_probe\"";
  if (top.Integer("probe_version", 1, 1) != 1 && !error)
    error = "probe_version: not 1";
  ReadDevice(root, m, error);
  if (const Json* cuda = Object(root, "cuda", error)) {
    Fields f(*cuda, "cuda", error);
    m.cuda_runtime_version = static_cast<std::int32_t>(f.Integer("runtime_version", 0, 1000000));
    m.cuda_driver_version = static_cast<std::int32_t>(f.Integer("driver_version", 0, 1000000));
  }
  m.dram = ReadFigure(root, "dram", "bytes_per_s", "bytes_per_launch", kMaxDramBytesPerS, error);
  m.fp32_vector = ReadFigure(
      root, "fp32_vector", "flops_per_s", "flops_per_launch", kMaxVectorFlopsPerS, error);
  m.bf16_tensor = ReadFigure(
      root, "bf16_tensor", "flops_per_s", "flops_per_launch", kMaxTensorFlopsPerS, error);
  m.fp16_tensor = ReadFigure(
      root, "fp16_tensor", "flops_per_s", "flops_per_launch", kMaxTensorFlopsPerS, error);
  m.method = top.Text("method");
  if (error)
    return Error{*error};
  return m;
}

OrderedJson FigureJson(const model::MeasuredFigure& f, const char* rate_key, const char* work_key) {
  OrderedJson out;
  out[rate_key] = f.per_s;
  out[work_key] = f.work_per_launch;
  out["best_ms"] = f.best_ms;
  out["median_ms"] = f.median_ms;
  out["reps"] = f.reps;
  if (f.sm_clock_hz)
    out["sm_clock_hz"] = *f.sm_clock_hz;
  return out;
}

}  // namespace

Result<model::MeasuredCeilings> ParseProbeOutput(std::string_view text) {
  auto root = ParseText(text);
  if (!root.ok())
    return root.error();
  return FromJson(*root);
}

Result<model::MeasuredCeilings> ParseCacheJson(std::string_view text, const std::string& path) {
  auto fail = [&](const std::string& what) {
    return Error{path + ": not a gpuperf ceilings cache file: " + what};
  };
  auto root = ParseText(text);
  if (!root.ok())
    return fail(root.error().message);
  std::optional<std::string> error;
  Fields top(*root, "", error);
  const std::string schema = top.Text("schema_version");
  const std::string evidence = top.Text("evidence");
  const std::string date = top.Text("date");
  const std::string version = top.Text("gpuperf_version", true);
  if (error)
    return fail(*error);
  if (schema.rfind("1.", 0) != 0)
    return fail("schema_version " + schema + " (this gpuperf reads 1.x)");
  // The cache holds only measurements: a datasheet has no place in it.
  const std::string_view measured_evidence = report::ToString(report::CeilingsEvidence::kMeasured);
  if (evidence != measured_evidence)
    return fail(fmt::format("evidence is \"{}\", not \"{}\"", evidence, measured_evidence));
  // "2026-12-01T11:36:05Z"
  if (date.size() != 20 || date[4] != '-' || date[10] != 'T' || date.back() != 'Z')
    return fail("date '" + date.substr(0, 40) + "' is not UTC ISO 8601 (YYYY-MM-DDThh:mm:ssZ)");
  auto measured = FromJson(*root);
  if (!measured.ok())
    return fail(measured.error().message);
  measured->date = date;
  measured->gpuperf_version = version;
  measured->path = path;
  return measured;
}

std::string ToCacheJson(const model::MeasuredCeilings& m) {
  OrderedJson out;
  out["schema_version"] = kCacheSchemaVersion;
  out["evidence"] = std::string(report::ToString(report::CeilingsEvidence::kMeasured));
  out["date"] = m.date;
  out["gpuperf_version"] = m.gpuperf_version;
  out["probe"] = "gpuperf_ceilings_probe";
  out["probe_version"] = 1;
  out["device"] = {{"ordinal", m.ordinal},
                   {"name", m.device_name},
                   {"uuid", m.uuid},
                   {"compute_major", m.compute_major},
                   {"compute_minor", m.compute_minor},
                   {"sm_count", m.sm_count},
                   {"l2_bytes", m.l2_bytes},
                   {"memory_bytes", m.memory_bytes},
                   {"max_sm_clock_hz", m.max_sm_clock_hz},
                   {"max_sm_clock_source", "cudaDevAttrClockRate"}};
  out["cuda"] = {{"runtime_version", m.cuda_runtime_version},
                 {"driver_version", m.cuda_driver_version}};
  out["dram"] = FigureJson(m.dram, "bytes_per_s", "bytes_per_launch");
  out["fp32_vector"] = FigureJson(m.fp32_vector, "flops_per_s", "flops_per_launch");
  out["bf16_tensor"] = FigureJson(m.bf16_tensor, "flops_per_s", "flops_per_launch");
  out["fp16_tensor"] = FigureJson(m.fp16_tensor, "flops_per_s", "flops_per_launch");
  out["method"] = m.method;
  return out.dump(2) + "\n";
}

}  // namespace gpuperf::io::ceilings
