#include "inject/launch_selection.h"

#include "spool/demangle.h"

namespace gpuperf::inject {

LaunchSelection::LaunchSelection(std::string_view names_text, std::int64_t per_name)
    : per_name_(per_name < 1 ? 1 : per_name) {
  std::size_t start = 0;
  while (start < names_text.size()) {
    std::size_t end = names_text.find('\n', start);
    if (end == std::string_view::npos)
      end = names_text.size();
    std::string_view line = names_text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    if (!line.empty())
      wanted_.emplace(std::string(line), 0);
    start = end + 1;
  }
  all_ = wanted_.empty();
}

bool LaunchSelection::Take(const char* symbol, std::string& name) {
  if (symbol == nullptr)
    return false;
  std::lock_guard lock(mutex_);
  auto cached = demangled_.find(symbol);
  if (cached == demangled_.end())
    cached = demangled_.emplace(symbol, spool::Demangle(symbol)).first;
  name = cached->second;
  auto& counts = all_ ? taken_all_ : wanted_;
  auto it = counts.find(name);
  if (it == counts.end()) {
    if (!all_) {
      ++skipped_;
      return false;
    }
    it = counts.emplace(name, 0).first;
  }
  if (it->second >= per_name_) {
    ++skipped_;
    return false;
  }
  ++it->second;
  return true;
}

}  // namespace gpuperf::inject
