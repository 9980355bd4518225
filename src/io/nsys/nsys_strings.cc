#include "io/nsys/nsys_strings.h"

#include <algorithm>
#include <string>
#include <utility>

namespace gpuperf::io::nsys {

Status StringIds::Load(const Database& db, model::Diagnostics& diagnostics) {
  auto stmt = db.Prepare("SELECT id, value FROM StringIds");
  if (!stmt.ok())
    return stmt.error();
  std::vector<std::pair<std::int64_t, std::string>> rows;
  std::int64_t max_id = -1;
  while (true) {
    auto row = stmt->Step();
    if (!row.ok())
      return row.error();
    if (!*row)
      break;
    auto id = stmt->Int(0);
    auto value = stmt->Text(1);
    if (!id || *id < 0 || !value) {
      diagnostics.Count(model::Diagnostic::kNsysStringIdMalformed);
      continue;
    }
    max_id = std::max(max_id, *id);
    rows.emplace_back(*id, std::string(*value));
  }
  // Dense unless the largest id is far beyond the row count.
  dense_ = max_id < static_cast<std::int64_t>(2 * rows.size() + 1024);
  std::size_t slots = dense_ ? static_cast<std::size_t>(max_id + 1) : rows.size();
  values_.assign(slots, std::string());
  present_.assign(slots, false);
  interned_.assign(slots, kNotInterned);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::int64_t slot = static_cast<std::int64_t>(i);
    if (dense_) {
      slot = rows[i].first;
    } else {
      // A duplicate id keeps its first slot and value, as the dense path keeps the last; either
      // is a broken file, and both stay deterministic.
      slot = sparse_.emplace(rows[i].first, slot).first->second;
    }
    auto index = static_cast<std::size_t>(slot);
    values_[index] = std::move(rows[i].second);
    present_[index] = true;
  }
  return Status::Ok();
}

std::int64_t StringIds::SlotOf(std::int64_t id) const {
  if (dense_) {
    if (id < 0 || id >= static_cast<std::int64_t>(values_.size()))
      return -1;
    return present_[static_cast<std::size_t>(id)] ? id : -1;
  }
  auto it = sparse_.find(id);
  return it == sparse_.end() ? -1 : it->second;
}

const std::string* StringIds::Find(std::int64_t id) const {
  std::int64_t slot = SlotOf(id);
  return slot < 0 ? nullptr : &values_[static_cast<std::size_t>(slot)];
}

model::NameId StringIds::Resolve(std::int64_t id, model::Trace& trace) {
  std::int64_t slot = SlotOf(id);
  if (slot < 0) {
    trace.diagnostics.Count(model::Diagnostic::kNsysStringIdMissing);
    return trace.strings.Intern("<unknown string " + std::to_string(id) + ">");
  }
  auto index = static_cast<std::size_t>(slot);
  if (interned_[index] == kNotInterned)
    interned_[index] = trace.strings.Intern(values_[index]);
  return interned_[index];
}

}  // namespace gpuperf::io::nsys
