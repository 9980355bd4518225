// The StringIds table, loaded once: every name column in an nsys export is an id into it. Values
// are interned into the trace's StringTable only when a record first uses them.
#pragma once

#include "gpuperf/result.h"
#include "gpuperf/trace.h"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "io/nsys/sqlite_db.h"

namespace gpuperf::io::nsys {

class StringIds {
 public:
  // Reads (id, value) rows. Rows with a NULL or non-integer id or a non-text value are skipped
  // and counted in `diagnostics` as "nsys.string_id_malformed".
  Status Load(const Database& db, model::Diagnostics& diagnostics);

  // The trace's NameId for StringIds[id], interned on first use. An id the table lacks yields
  // "<unknown string N>" and counts "nsys.string_id_missing".
  model::NameId Resolve(std::int64_t id, model::Trace& trace);
  // The raw value, or nullptr when the id is missing.
  const std::string* Find(std::int64_t id) const;

 private:
  static constexpr model::NameId kNotInterned = std::numeric_limits<model::NameId>::max();
  std::int64_t SlotOf(std::int64_t id) const;

  // nsys numbers ids densely from 0, so slot == id; sparse ids (hand-edited or fuzzed files) go
  // through `sparse_` so that a huge id cannot make us allocate a huge vector.
  std::vector<std::string> values_;
  std::vector<bool> present_;
  std::vector<model::NameId> interned_;
  std::unordered_map<std::int64_t, std::int64_t> sparse_;
  bool dense_ = true;
};

}  // namespace gpuperf::io::nsys
