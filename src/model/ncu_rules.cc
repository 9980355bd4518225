#include "model/ncu_rules.h"

#include <charconv>
#include <string_view>

namespace gpuperf::model {
namespace {

// Fields are separated by US (0x1f) and rules by RS (0x1e): neither occurs in ncu's CSV text,
// and a stray one only costs the rules of that kernel (LoadNcuRules drops a malformed record).
constexpr char kField = '\x1f';
constexpr char kRecord = '\x1e';
constexpr std::size_t kFields = 6;

std::string Key(std::size_t activity) {
  return "ncu_rules:" + std::to_string(activity);
}

std::string Clean(const std::string& text) {
  std::string out = text;
  for (char& c : out) {
    if (c == kField || c == kRecord)
      c = ' ';
  }
  return out;
}

std::vector<std::string_view> Split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (;;) {
    std::size_t at = text.find(separator);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos)
      return parts;
    text.remove_prefix(at + 1);
  }
}

std::optional<double> ParseSpeedup(std::string_view text) {
  if (text.empty())
    return std::nullopt;
  double value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    return std::nullopt;
  return value;
}

}  // namespace

void StoreNcuRules(TraceMetadata& metadata,
                   std::size_t activity,
                   const std::vector<NcuRuleRow>& rules) {
  if (rules.empty()) {
    metadata.properties.erase(Key(activity));
    return;
  }
  std::string text;
  for (const NcuRuleRow& rule : rules) {
    if (!text.empty())
      text += kRecord;
    char speedup[32] = "";
    if (rule.estimated_speedup_percent) {
      auto result =
          std::to_chars(speedup, speedup + sizeof speedup - 1, *rule.estimated_speedup_percent);
      *result.ptr = '\0';
    }
    for (const std::string* field :
         {&rule.section, &rule.name, &rule.type, &rule.description, &rule.speedup_type}) {
      text += Clean(*field);
      text += kField;
    }
    text += speedup;
  }
  metadata.properties[Key(activity)] = std::move(text);
}

std::vector<NcuRuleRow> LoadNcuRules(const TraceMetadata& metadata, std::size_t activity) {
  std::vector<NcuRuleRow> rules;
  auto it = metadata.properties.find(Key(activity));
  if (it == metadata.properties.end())
    return rules;
  for (std::string_view record : Split(it->second, kRecord)) {
    std::vector<std::string_view> f = Split(record, kField);
    if (f.size() != kFields)
      return {};
    rules.push_back({std::string(f[0]),
                     std::string(f[1]),
                     std::string(f[2]),
                     std::string(f[3]),
                     std::string(f[4]),
                     ParseSpeedup(f[5])});
  }
  return rules;
}

}  // namespace gpuperf::model
