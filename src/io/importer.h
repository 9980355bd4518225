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
};

}  // namespace gpuperf::io
