#include "io/kineto/event.h"

#include "io/kineto/numbers.h"

namespace gpuperf::io::kineto {
namespace {

using util::JsonToken;

struct KeyName {
  std::string_view key;
  Field field;
};

constexpr KeyName kEventKeys[] = {
    {"ph", Field::kPh},
    {"cat", Field::kCat},
    {"name", Field::kName},
    {"pid", Field::kPid},
    {"tid", Field::kTid},
    {"ts", Field::kTs},
    {"dur", Field::kDur},
};

constexpr KeyName kArgKeys[] = {
    {"device", Field::kArgDevice},
    {"stream", Field::kArgStream},
    {"correlation", Field::kArgCorrelation},
    {"context", Field::kArgContext},
    {"External id", Field::kArgExternalId},
    {"external id", Field::kArgExternalId},
    {"grid", Field::kArgGrid},
    {"block", Field::kArgBlock},
    {"registers per thread", Field::kArgRegisters},
    {"shared memory", Field::kArgSharedMemory},
    {"bytes", Field::kArgBytes},
    {"cbid", Field::kArgCbid},
    {"Input Dims", Field::kArgInputDims},
    {"Input dims", Field::kArgInputDims},
    {"Input type", Field::kArgInputType},
    {"Concrete Inputs", Field::kArgConcreteInputs},
    {"cuda_sync_kind", Field::kArgSyncKind},
    {"Bytes", Field::kArgMemoryBytes},
    {"Device Id", Field::kArgDeviceId},
    {"Total Allocated", Field::kArgTotalAllocated},
    {"name", Field::kArgName},
    {"graph id", Field::kArgGraphId},
    {"Sequence number", Field::kArgSequence},
    {"Fwd thread id", Field::kArgFwdThread},
    {"nvtx domain", Field::kArgNvtxDomain},
    {"Call stack", Field::kArgCallStack},
};

template <std::size_t N>
std::optional<Field> Lookup(const KeyName (&table)[N], std::string_view key) {
  if (key.empty())
    return std::nullopt;
  for (const KeyName& entry : table) {
    // Size and first byte before memcmp: most keys of an event miss on those.
    if (entry.key.size() == key.size() && entry.key[0] == key[0] && entry.key == key) {
      return entry.field;
    }
  }
  return std::nullopt;
}

}  // namespace

void Event::Clear() {
  for (Slot& slot : slots_)
    slot.present = false;
  metrics_.clear();
  arena_.clear();
  is_object_ = false;
}

std::string_view Event::Text(Field f) const {
  const Slot& slot = slots_[Index(f)];
  if (!slot.present)
    return {};
  return std::string_view(arena_).substr(slot.offset, slot.length);
}

std::optional<std::int64_t> Event::Int(Field f) const {
  if (!Has(f))
    return std::nullopt;
  if (Type(f) == JsonToken::kNumber)
    return ParseInt64(Text(f));
  if (Type(f) == JsonToken::kString)
    return ParseEmbeddedInt(Text(f));
  return std::nullopt;
}

bool Event::Read(util::JsonReader& reader, JsonToken first) {
  Clear();
  if (first != JsonToken::kBeginObject)
    return reader.SkipValue(first);
  is_object_ = true;
  for (;;) {
    JsonToken t = reader.Next();
    if (t == JsonToken::kEndObject)
      return true;
    if (t != JsonToken::kKey)
      return false;  // kError: the reader knows why
    std::string_view key = reader.text();
    if (key == "args") {
      if (!ReadArgs(reader))
        return false;
      continue;
    }
    if (!ReadValue(reader, Lookup(kEventKeys, key)))
      return false;
  }
}

bool Event::ReadArgs(util::JsonReader& reader) {
  JsonToken t = reader.Next();
  if (t != JsonToken::kBeginObject)
    return reader.SkipValue(t);  // args: null, etc.
  for (;;) {
    t = reader.Next();
    if (t == JsonToken::kEndObject)
      return true;
    if (t != JsonToken::kKey)
      return false;
    std::string_view key = reader.text();
    std::optional<Field> field = Lookup(kArgKeys, key);
    if (!field && key.find("__") != std::string_view::npos) {
      Metric metric;
      metric.name_offset = static_cast<std::uint32_t>(arena_.size());
      metric.name_length = static_cast<std::uint32_t>(key.size());
      arena_.append(key);  // before Next(): the reader's text is only valid until then
      if (!ReadInto(reader, reader.Next(), metric.value))
        return false;
      metrics_.push_back(metric);
      continue;
    }
    if (!ReadValue(reader, field))
      return false;
  }
}

// Reads the value after a key into the field's slot, or skips it when the field is not kept.
bool Event::ReadValue(util::JsonReader& reader, std::optional<Field> field) {
  JsonToken t = reader.Next();
  if (!field)
    return reader.SkipValue(t);
  return ReadInto(reader, t, slots_[Index(*field)]);
}

bool Event::ReadInto(util::JsonReader& reader, JsonToken t, Slot& slot) {
  if (t == JsonToken::kError)
    return false;
  slot.offset = static_cast<std::uint32_t>(arena_.size());
  slot.type = t;
  if (t == JsonToken::kBeginObject || t == JsonToken::kBeginArray) {
    if (!reader.AppendCompact(t, &arena_))
      return false;
  } else {
    arena_.append(reader.text());
  }
  slot.length = static_cast<std::uint32_t>(arena_.size() - slot.offset);
  slot.present = true;
  return true;
}

}  // namespace gpuperf::io::kineto
