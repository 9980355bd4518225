// The one interface every trace format implements. Importers are registered in registry.cc and
// chosen by Probe() on the content, in registration order.
#pragma once

#include "gpuperf/result.h"
#include "gpuperf/trace.h"

#include <string_view>

#include "io/input.h"

namespace gpuperf::io {

class Importer {
 public:
  virtual ~Importer() = default;
  // Short format name used in reports ("kineto", "nsys-sqlite").
  virtual std::string_view FormatName() const = 0;
  // Cheap check on the first decompressed bytes. May return true for inputs that Import() then
  // rejects with a precise message (for example a SQLite file of another schema).
  virtual bool Probe(std::string_view head) const = 0;
  // Reads the whole input. Structural problems fail with an error that starts with the input's
  // name; malformed records are counted in Trace::diagnostics instead.
  virtual Result<model::Trace> Import(const Input& input) const = 0;
  // Whether the format's times form a timeline (model::TraceMetadata::has_timeline); the
  // registry stamps it on every trace the importer returns.
  virtual bool HasTimeline() const { return true; }
  // Whether the format is a framework profiler's (model::TraceMetadata::framework_profiler); the
  // registry stamps it on every trace the importer returns.
  virtual bool IsFrameworkProfiler() const { return false; }
};

// HasTimeline of the importer whose FormatName is `format_name`; true for a name no importer has
// (a report of another version, a recording's own spelling). report.json keeps the format's name
// only, so its reader restores the trait from it.
bool FormatHasTimeline(std::string_view format_name);

}  // namespace gpuperf::io
