#include "io/kineto/header.h"

#include <limits>
#include <optional>
#include <string>

#include "io/kineto/numbers.h"
#include "model/measured_ceilings.h"

namespace gpuperf::io::kineto {
namespace {

using util::JsonToken;

constexpr std::string_view kPropertyKeys[] = {
    "cupti_version",
    "cuda_runtime_version",
    "cuda_driver_version",
    "roctracer_version",
    "hip_runtime_version",
    "hip_driver_version",
    "trace_id",
    "displayTimeUnit",
    // The profiler's own options: Python stacks and shapes inflate the host time it records.
    "with_stack",
    "record_shapes",
    "profile_memory",
    "with_flops",
    "with_modules",
};

std::int32_t ToInt32(std::string_view literal) {
  auto value = ParseInt64(literal);
  if (!value || *value < std::numeric_limits<std::int32_t>::min() ||
      *value > std::numeric_limits<std::int32_t>::max()) {
    return 0;
  }
  return static_cast<std::int32_t>(*value);
}

// One numeric or string field of a deviceProperties entry; both spellings of every generation.
void SetDeviceField(std::string_view key, std::string_view value, model::Device* d) {
  if (key == "name") {
    d->name = value;
  } else if (key == "id") {
    d->id = ToInt32(value);
  } else if (key == "totalGlobalMem") {
    d->memory_bytes = ParseInt64(value).value_or(0);
  } else if (key == "computeMajor" || key == "major") {
    d->compute_major = ToInt32(value);
  } else if (key == "computeMinor" || key == "minor") {
    d->compute_minor = ToInt32(value);
  } else if (key == "numSms" || key == "multiProcessorCount") {
    d->sm_count = ToInt32(value);
  } else if (key == "maxThreadsPerMultiprocessor" || key == "maxThreadsPerMultiProcessor") {
    d->max_threads_per_sm = ToInt32(value);
  } else if (key == "maxThreadsPerBlock") {
    d->max_threads_per_block = ToInt32(value);
  } else if (key == "regsPerMultiprocessor") {
    d->registers_per_sm = ToInt32(value);
  } else if (key == "sharedMemPerMultiprocessor") {
    d->shared_memory_per_sm = ParseInt64(value).value_or(0);
  } else if (key == "warpSize") {
    d->warp_size = ToInt32(value);
  } else if (key == "uuid") {  // gpuperf's recordings; lets measured ceilings match by UUID
    d->uuid = model::NormalizeGpuUuid(value);
  }
}

// Reads the scalar members of an object whose '{' was just returned; nested values are
// skipped. Calls on_field(key, token, text) for each scalar.
template <typename OnField>
bool ReadFlatObject(util::JsonReader& reader, OnField on_field) {
  std::string key;
  for (;;) {
    JsonToken t = reader.Next();
    if (t == JsonToken::kEndObject)
      return true;
    if (t != JsonToken::kKey)
      return false;
    key = reader.text();
    t = reader.Next();
    if (t == JsonToken::kNumber || t == JsonToken::kString) {
      on_field(key, t, reader.text());
    } else if (!reader.SkipValue(t)) {
      return false;
    }
  }
}

bool ReadDevices(util::JsonReader& reader, JsonToken first, model::Trace* trace) {
  if (first != JsonToken::kBeginArray)
    return reader.SkipValue(first);  // e.g. null
  for (;;) {
    JsonToken t = reader.Next();
    if (t == JsonToken::kEndArray)
      return true;
    if (t != JsonToken::kBeginObject) {
      if (!reader.SkipValue(t))
        return false;
      continue;
    }
    model::Device device;
    bool ok = ReadFlatObject(reader, [&](std::string_view key, JsonToken, std::string_view v) {
      SetDeviceField(key, v, &device);
    });
    if (!ok)
      return false;
    trace->devices.push_back(std::move(device));
  }
}

bool ReadDistributedInfo(util::JsonReader& reader, JsonToken first, model::Trace* trace) {
  if (first != JsonToken::kBeginObject)
    return reader.SkipValue(first);
  model::TraceMetadata& meta = trace->metadata;
  return ReadFlatObject(reader, [&](std::string_view key, JsonToken t, std::string_view v) {
    if (key == "rank" && t == JsonToken::kNumber) {
      if (auto rank = ParseInt64(v))
        meta.rank = *rank;
    } else if (key == "world_size" && t == JsonToken::kNumber) {
      if (auto size = ParseInt64(v))
        meta.world_size = *size;
    } else if (key == "backend") {
      meta.distributed_backend = v;
    } else if (key == "nccl_version") {
      meta.properties["nccl_version"] = v;
    }
  });
}

}  // namespace

bool ReadHeaderValue(util::JsonReader& reader,
                     std::string_view key,
                     JsonToken first,
                     model::Trace* trace) {
  if (key == "deviceProperties" || key == "computeProperties") {
    return ReadDevices(reader, first, trace);
  }
  if (key == "distributedInfo")
    return ReadDistributedInfo(reader, first, trace);
  bool scalar = first == JsonToken::kNumber || first == JsonToken::kString;
  if (key == "baseTimeNanoseconds" && first == JsonToken::kNumber) {
    if (auto base = ParseInt64(reader.text())) {
      trace->metadata.time_base_ns = *base;
    } else {
      trace->diagnostics.Count(model::Diagnostic::kKinetoBadBaseTime);
    }
    return true;
  }
  if (key == "schemaVersion" && scalar) {
    trace->metadata.format_version = "schemaVersion " + std::string(reader.text());
    return true;
  }
  for (std::string_view property : kPropertyKeys) {
    if (key == property && scalar) {
      trace->metadata.properties[std::string(key)] = reader.text();
      return true;
    }
  }
  return reader.SkipValue(first);
}

}  // namespace gpuperf::io::kineto
