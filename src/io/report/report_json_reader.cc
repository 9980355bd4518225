#include "io/report/report_json_reader.h"

#include "gpuperf/report_json_fields.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "io/importer.h"
#include "util/byte_source.h"

namespace gpuperf::io {
namespace {

using Json = nlohmann::json;
namespace fields = report::json_fields;

constexpr std::size_t kMaxReportBytes = std::size_t{1} << 30;

std::int64_t Int(const Json& object, const std::string& key) {
  auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<std::int64_t>() : 0;
}

std::string Text(const Json& object, const std::string& key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

template <class T>
std::optional<T> Maybe(const Json& object, const std::string& key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_number())
    return std::nullopt;
  return it->get<T>();
}

// The reading visitor of the field lists (gpuperf/report_json_fields.h): a missing key or one
// of another type reads as 0, "" or nullopt, so older reports stay readable.
class FieldReader {
 public:
  explicit FieldReader(const Json& object) : object_(object) {}

  void operator()(std::string_view key, std::int64_t& out) { out = Int(object_, std::string(key)); }
  // A device id: out of the 32-bit range (a hostile file) reads as 0, like a missing key.
  void operator()(std::string_view key, std::int32_t& out) {
    std::int64_t value = Int(object_, std::string(key));
    out = value >= std::numeric_limits<std::int32_t>::min() &&
                  value <= std::numeric_limits<std::int32_t>::max()
              ? static_cast<std::int32_t>(value)
              : 0;
  }
  void operator()(std::string_view key, std::string& out) { out = Text(object_, std::string(key)); }
  void operator()(std::string_view key, std::optional<std::int64_t>& out) {
    out = Maybe<std::int64_t>(object_, std::string(key));
  }
  void operator()(std::string_view key, std::vector<std::string>& out) {
    auto it = object_.find(std::string(key));
    if (it == object_.end() || !it->is_array())
      return;
    for (const Json& item : *it) {
      if (item.is_string())
        out.push_back(item.get<std::string>());
    }
  }
  void operator()(std::string_view key, double& out, fields::Decimals) {
    out = Maybe<double>(object_, std::string(key)).value_or(0.0);
  }
  void operator()(std::string_view key, std::optional<double>& out, fields::Decimals) {
    out = Maybe<double>(object_, std::string(key));
  }
  void operator()(std::string_view key, std::int64_t& out, fields::NullIfNegative) {
    out = Maybe<std::int64_t>(object_, std::string(key)).value_or(-1);
  }
  void operator()(std::string_view key, std::string& out, fields::NullUnless) {
    out = Text(object_, std::string(key));
  }
  // A tier this version does not know reads as none.
  void operator()(std::string_view key, report::CategoryTier& out) {
    out = report::ParseCategoryTier(Text(object_, std::string(key)))
              .value_or(report::CategoryTier::kNone);
  }
  // A framework category, an operator source, a critical share's kind, a range's kind: an absent
  // key or a spelling this version does not know (a newer minor version's new value:
  // report-schema.md, "Versioning", readers must keep reading) reads as the default, other, none,
  // kernel or nvtx.
  void operator()(std::string_view key, report::FrameworkCategory& out) {
    out = report::ParseFrameworkCategory(Text(object_, std::string(key)))
              .value_or(report::FrameworkCategory::kOther);
  }
  void operator()(std::string_view key, report::OperatorSource& out) {
    out = report::ParseOperatorSource(Text(object_, std::string(key)))
              .value_or(report::OperatorSource::kNone);
  }
  void operator()(std::string_view key, report::ShareKind& out) {
    out = report::ParseShareKind(Text(object_, std::string(key)))
              .value_or(report::ShareKind::kKernel);
  }
  void operator()(std::string_view key, report::RangeKind& out) {
    out =
        report::ParseRangeKind(Text(object_, std::string(key))).value_or(report::RangeKind::kNvtx);
  }
  void operator()(std::string_view key, report::EvidenceTier& out, fields::NullUnless) {
    out = report::ParseEvidenceTier(Text(object_, std::string(key)))
              .value_or(report::EvidenceTier::kNone);
  }

 private:
  const Json& object_;
};

// `object[key]` read through `fields`; an absent key reads as an empty object.
template <class T, class Fields>
void ReadObject(const Json& object, const char* key, T& out, Fields fields) {
  const Json& member = object.value(key, Json::object());
  FieldReader read(member);
  fields(out, read);
}

// Each element of the array `object[key]` read through `fields` into a new row of `out`.
template <class Row, class Fields>
void ReadRows(const Json& object, const char* key, std::vector<Row>& out, Fields fields) {
  for (const Json& element : object.value(key, Json::array())) {
    Row row;
    FieldReader read(element);
    fields(row, read);
    out.push_back(std::move(row));
  }
}

report::AnalysisReport FromJson(const Json& j) {
  report::AnalysisReport r;
  auto source = [](auto& s, auto& v) { fields::SourceFields(s, v); };
  ReadObject(j, fields::kSource, r.source, source);
  r.source.has_timeline = FormatHasTimeline(r.source.format);
  r.headline = Text(j, fields::kHeadline);
  auto timeline = [](auto& t, auto& v) { fields::TimelineFields(t, v); };
  ReadObject(j, fields::kTimeline, r.timeline, timeline);
  ReadRows(j, fields::kKernels, r.kernels, [](auto& k, auto& v) { fields::KernelRowFields(k, v); });
  ReadObject(j, fields::kUnclassifiedKernels, r.unclassified_kernels, [](auto& u, auto& v) {
    fields::UnclassifiedKernelsFields(u, v);
  });
  ReadObject(j, fields::kAudit, r.audit, [](auto& a, auto& v) { fields::AuditFields(a, v); });
  ReadRows(j, fields::kRanges, r.ranges, [](auto& g, auto& v) { fields::RangeRowFields(g, v); });
  ReadRows(j, fields::kDevices, r.devices, [](auto& d, auto& v) {
    fields::DeviceFields(d, v);
    fields::TimelineFields(d.timeline, v);
  });
  // The framework keys compare matches by name (schema 1.4.0; absent in older reports).
  report::FrameworkView& f = r.framework;
  ReadObject(j, fields::kFramework, f, [](auto& x, auto& v) { fields::FrameworkFields(x, v); });
  ReadRows(j, fields::kOperators, f.operators, [](auto& o, auto& v) {
    fields::OperatorRowFields(o, v);
  });
  ReadRows(j, fields::kCategories, f.categories, [](auto& c, auto& v) {
    fields::CategoryRowFields(c, v);
  });
  ReadRows(j, fields::kModules, f.modules, [](auto& m, auto& v) { fields::ModuleRowFields(m, v); });
  const Json& p = j.value(fields::kPredictions, Json::object());
  FieldReader read(p);
  fields::PredictionsFields(r.predictions, read);
  auto share = [](auto& s, auto& v) { fields::CriticalShareFields(s, v); };
  ReadRows(p, fields::kPredictedKernels, r.predictions.kernels, share);
  ReadRows(p, fields::kPhases, r.predictions.phases, share);
  r.predictions.kernels_omitted = Int(p, fields::kKernelsOmitted);
  return r;
}

}  // namespace

bool LooksLikeGpuperfReport(std::string_view head) {
  std::size_t first = head.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || head[first] != '{')
    return false;
  auto quoted = [&](const char* text) {
    return head.find(fmt::format("\"{}\"", text)) != std::string_view::npos;
  };
  return quoted(fields::kSchemaVersion) && quoted(fields::kTool) &&
         quoted(fields::kToolNameGpuperf);
}

Result<report::AnalysisReport> ReadReportJson(const std::string& path) {
  auto text = util::ReadFileText(path, kMaxReportBytes);
  if (!text.ok())
    return text.error();
  return ParseReportJson(*text, path);
}

Result<report::AnalysisReport> ParseReportJson(std::string_view text, const std::string& path) {
  Json j = Json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return Error{fmt::format("{}: not valid JSON (truncated or corrupt report.json?)", path)};
  std::string version = j.value(fields::kSchemaVersion, std::string());
  if (version.empty() ||
      Text(j.value(fields::kTool, Json::object()), fields::kToolName) != fields::kToolNameGpuperf)
    return Error{fmt::format("{}: not a gpuperf report.json (no schema_version / tool)", path)};
  if (version.rfind("1.", 0) != 0)
    return Error{fmt::format(
        "{}: report schema {} is not supported (this gpuperf reads 1.x)", path, version)};
  try {
    return FromJson(j);
  } catch (const Json::exception& e) {
    return Error{fmt::format("{}: malformed report.json: {}", path, e.what())};
  }
}

Result<ReportOrTrace> ReadReportOrTracePath(const std::string& path) {
  ReportOrTrace out{path, std::nullopt};
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    out.path = (std::filesystem::path(path) / "report.json").string();
  auto head = util::ReadFileHead(out.path, 4096);
  if (!head.ok())
    return head.error();
  if (!LooksLikeGpuperfReport(*head))
    return out;
  auto report = ReadReportJson(out.path);
  if (!report.ok())
    return report.error();
  out.report = std::move(report.value());
  return out;
}

}  // namespace gpuperf::io
