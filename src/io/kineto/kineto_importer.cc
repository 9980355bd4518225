// The Kineto importer: walks the document with the streaming JSON reader, hands every event to
// the EventMapper one at a time and the header keys to ReadHeaderValue. Memory stays bounded by
// the model records kept, never by the file: no DOM, one reusable Event.
#include "io/kineto/kineto_importer.h"

#include <string>

#include "io/kineto/event.h"
#include "io/kineto/event_mapper.h"
#include "io/kineto/header.h"
#include "io/kineto/prefetch_source.h"
#include "io/sniff.h"
#include "util/json_reader.h"

namespace gpuperf::io {
namespace {

using util::JsonToken;

constexpr std::size_t kPrefetchBytes = std::size_t{1} << 20;

constexpr std::string_view kExecutionTrace =
    "a PyTorch Execution Trace (operator graph with \"nodes\", no timeline), not a Kineto "
    "Chrome trace; record one with torch.profiler";

bool LooksLikeExecutionTrace(std::string_view head) {
  return head.find("\"nodes\"") != std::string_view::npos &&
         head.find("\"schema\"") != std::string_view::npos;
}

// One import: the reader, the reused event and the mapper, and the error wording.
class Document {
 public:
  Document(const Input& input, util::ByteSource& source)
      : input_(input), reader_(source), mapper_(&trace_) {}

  Result<model::Trace> Read();

 private:
  Status ReadEvents();
  Status ReadObject();
  Error JsonError() const;
  Error At(const std::string& what, std::uint64_t offset) const {
    return Error{input_.name() + ": " + what + " at byte " + std::to_string(offset)};
  }

  const Input& input_;
  util::JsonReader reader_;
  model::Trace trace_;
  kineto::Event event_;
  kineto::EventMapper mapper_;
};

Error Document::JsonError() const {
  if (reader_.source_failed()) {
    const std::string& message = reader_.error();
    if (message.rfind(input_.name(), 0) == 0)
      return Error{message};
    return Error{input_.name() + ": " + message};
  }
  return Error{input_.name() + ": invalid JSON: " + reader_.error()};
}

Result<model::Trace> Document::Read() {
  trace_.metadata.producer = "PyTorch profiler (Kineto)";
  JsonToken first = reader_.Next();
  Status status;
  if (first == JsonToken::kBeginArray) {
    trace_.metadata.format_version = "JSON array of events (2021)";
    status = ReadEvents();
    if (status.ok() && mapper_.events() > 0 && mapper_.object_events() == 0) {
      status = At("not a Chrome trace: the top-level array holds no event objects", 0);
    }
  } else if (first == JsonToken::kBeginObject) {
    status = ReadObject();
  } else if (first == JsonToken::kError) {
    return JsonError();
  } else {
    return At("not a Chrome trace: the document is a JSON scalar, not an object or array",
              reader_.token_offset());
  }
  if (!status.ok())
    return status.error();
  JsonToken last = reader_.Next();
  if (last != JsonToken::kEnd)
    return JsonError();
  mapper_.Finish();
  return std::move(trace_);
}

// Reads events until the ']' of the events array (its '[' was just read).
Status Document::ReadEvents() {
  for (;;) {
    JsonToken t = reader_.Next();
    if (t == JsonToken::kEndArray)
      return Status::Ok();
    if (t == JsonToken::kError || !event_.Read(reader_, t))
      return JsonError();
    mapper_.Map(event_);
  }
}

// Reads the top-level object: "traceEvents" anywhere among the header keys.
Status Document::ReadObject() {
  bool saw_events = false;
  bool saw_schema = false;
  std::string key;
  for (;;) {
    JsonToken t = reader_.Next();
    if (t == JsonToken::kEndObject)
      break;
    if (t != JsonToken::kKey)
      return JsonError();
    key = reader_.text();
    std::uint64_t key_offset = reader_.token_offset();
    saw_schema |= key == "schema";
    if (key == "nodes" && saw_schema && !saw_events)
      return At(std::string(kExecutionTrace), key_offset);
    JsonToken value = reader_.Next();
    if (key == "traceEvents") {
      if (value != JsonToken::kBeginArray) {
        if (value == JsonToken::kError)
          return JsonError();
        return At("\"traceEvents\" is not an array", reader_.token_offset());
      }
      saw_events = true;
      Status status = ReadEvents();
      if (!status.ok())
        return status;
    } else if (!kineto::ReadHeaderValue(reader_, key, value, &trace_)) {
      return JsonError();
    }
  }
  if (saw_events)
    return Status::Ok();
  if (saw_schema)
    return At(std::string(kExecutionTrace), reader_.token_offset());
  return At("not a Chrome trace: no \"traceEvents\" array in the top-level object",
            reader_.token_offset());
}

class KinetoImporter final : public Importer {
 public:
  std::string_view FormatName() const override { return "kineto"; }
  // PyTorch's profiler writes it: its cpu_ops are the framework's operators.
  bool IsFrameworkProfiler() const override { return true; }

  // '{' or '[' first, and "traceEvents" or an event's "ph" and "ts"; never an Execution Trace.
  bool Probe(std::string_view head) const override {
    char first = FirstSignificantByte(head);
    if (first != '{' && first != '[')
      return false;
    if (head.find("\"traceEvents\"") != std::string_view::npos)
      return true;
    if (LooksLikeExecutionTrace(head))
      return false;
    return head.find("\"ph\"") != std::string_view::npos &&
           head.find("\"ts\"") != std::string_view::npos;
  }

  Result<model::Trace> Import(const Input& input) const override {
    auto source = input.Open();
    if (!source.ok())
      return source.error();
    // Gunzip on a second core while this one tokenizes.
    if (input.gzip())
      *source = kineto::MakePrefetchSource(std::move(*source), kPrefetchBytes);
    Document document(input, **source);
    return document.Read();
  }
};

}  // namespace

std::unique_ptr<Importer> MakeKinetoImporter() {
  return std::make_unique<KinetoImporter>();
}

}  // namespace gpuperf::io
