#include "io/ncu/ncu_parse.h"

#include <charconv>
#include <string_view>

#include "io/ncu/csv_reader.h"
#include "io/ncu/ncu_labels.h"
#include "io/ncu/ncu_values.h"

namespace gpuperf::io::ncu {
namespace {

constexpr std::size_t kMaxNotes = 8;
constexpr std::string_view kHeaderStart = "\"ID\",\"Process ID\",";

// Column positions by header name; -1 when the column is absent.
class Columns {
 public:
  explicit Columns(const std::vector<std::string>& header) {
    for (std::size_t i = 0; i < header.size(); ++i)
      index_.emplace(header[i], static_cast<int>(i));
  }
  int operator[](const std::string& name) const {
    auto it = index_.find(name);
    return it == index_.end() ? -1 : it->second;
  }

 private:
  std::map<std::string, int> index_;
};

std::string_view Field(const std::vector<std::string>& row, int column) {
  if (column < 0 || static_cast<std::size_t>(column) >= row.size())
    return {};
  return row[static_cast<std::size_t>(column)];
}

std::optional<std::int64_t> ParseInt(std::string_view text) {
  std::int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    return std::nullopt;
  return value;
}

// "(32, 4, 1)" -> {32, 4, 1}.
std::optional<model::Dim3> ParseDim3(std::string_view text) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')')
    return std::nullopt;
  text = text.substr(1, text.size() - 2);
  std::int32_t parts[3] = {1, 1, 1};
  for (int i = 0; i < 3; ++i) {
    std::size_t comma = text.find(',');
    std::string_view part = text.substr(0, comma);
    while (!part.empty() && part.front() == ' ')
      part.remove_prefix(1);
    auto value = ParseInt(part);
    if (!value || *value < 0 || *value > INT32_MAX)
      return std::nullopt;
    parts[i] = static_cast<std::int32_t>(*value);
    if (comma == std::string_view::npos)
      return i == 2 ? std::optional<model::Dim3>(model::Dim3{parts[0], parts[1], parts[2]})
                    : std::nullopt;
    text.remove_prefix(comma + 1);
  }
  return std::nullopt;
}

// "8.0" -> (8, 0).
void ParseComputeCapability(std::string_view text, Launch& launch) {
  std::size_t dot = text.find('.');
  if (dot == std::string_view::npos)
    return;
  auto major = ParseInt(text.substr(0, dot));
  auto minor = ParseInt(text.substr(dot + 1));
  if (major && minor && *major >= 0 && *major < 100 && *minor >= 0 && *minor < 100) {
    launch.compute_major = static_cast<std::int32_t>(*major);
    launch.compute_minor = static_cast<std::int32_t>(*minor);
  }
}

class Parser {
 public:
  Parser(const std::string& name, model::Diagnostics& diagnostics)
      : name_(name), diagnostics_(diagnostics) {}

  Result<ParsedCsv> Run(util::ByteSource& source);

 private:
  void Text(const std::string& text);
  void Note(std::string note);
  void Header(const std::vector<std::string>& header);
  void LongRow(const std::vector<std::string>& row);
  void WideRow(const std::vector<std::string>& row);
  bool RowFits(const std::vector<std::string>& row) const;
  Launch& LaunchFor(std::int64_t id, const std::vector<std::string>& row);
  void Identity(Launch& launch, const std::vector<std::string>& row);
  void AddMetric(Launch& launch, std::string key, std::string_view value, std::string_view unit);
  void AddRule(Launch& launch, const std::vector<std::string>& row);

  const std::string& name_;
  model::Diagnostics& diagnostics_;
  std::size_t notes_ = 0;
  std::vector<std::string> header_;
  std::optional<Columns> columns_;
  bool wide_ = false;
  bool labels_ = false;
  std::vector<std::string> units_;  // raw page: the units row
  bool missing_units_row_ = false;  // raw page exported without it
  std::map<std::int64_t, std::size_t> by_id_;
  ParsedCsv out_;
};

void Parser::Note(std::string note) {
  if (notes_ >= kMaxNotes)
    return;
  ++notes_;
  diagnostics_.notes.push_back(std::move(note));
}

void Parser::Text(const std::string& text) {
  if (text.empty())
    return;
  if (text.rfind("==ERROR==", 0) == 0) {
    diagnostics_.Count(model::Diagnostic::kNcuErrorLines);
    Note("Nsight Compute reported: " + text);
  } else if (text.rfind("==WARNING==", 0) == 0) {
    diagnostics_.Count(model::Diagnostic::kNcuWarningLines);
    Note("Nsight Compute reported: " + text);
  } else {
    diagnostics_.Count(
        model::Diagnostic::kNcuTextLinesSkipped);  // program output, ==PROF== progress
  }
}

void Parser::Header(const std::vector<std::string>& header) {
  header_ = header;
  columns_.emplace(header_);
  wide_ = (*columns_)["Metric Name"] < 0 || (*columns_)["Metric Value"] < 0;
}

// Raw-page rows carry every column. Long rows may stop after "Metric Value": ncu leaves out the
// empty rule columns of metric rows on the details page.
bool Parser::RowFits(const std::vector<std::string>& row) const {
  if (row.size() > header_.size())
    return false;
  if (wide_)
    return row.size() == header_.size();
  return static_cast<int>(row.size()) > (*columns_)["Metric Value"];
}

void Parser::Identity(Launch& launch, const std::vector<std::string>& row) {
  const Columns& c = *columns_;
  if (auto pid = ParseInt(Field(row, c["Process ID"])))
    launch.pid = *pid;
  launch.process_name = std::string(Field(row, c["Process Name"]));
  launch.host = std::string(Field(row, c["Host Name"]));
  launch.name = std::string(Field(row, c["Kernel Name"]));
  if (auto context = ParseInt(Field(row, c["Context"])))
    launch.context = *context;
  if (auto stream = ParseInt(Field(row, c["Stream"])))
    launch.stream = *stream;
  launch.block = ParseDim3(Field(row, c["Block Size"]));
  launch.grid = ParseDim3(Field(row, c["Grid Size"]));
  if (auto device = ParseInt(Field(row, c["Device"])); device && *device >= 0 && *device < 4096)
    launch.device = static_cast<std::int32_t>(*device);
  ParseComputeCapability(Field(row, c["CC"]), launch);
}

Launch& Parser::LaunchFor(std::int64_t id, const std::vector<std::string>& row) {
  auto [it, inserted] = by_id_.emplace(id, out_.launches.size());
  if (inserted) {
    out_.launches.emplace_back();
    out_.launches.back().id = id;
    Identity(out_.launches.back(), row);
  }
  return out_.launches[it->second];
}

void Parser::AddMetric(Launch& launch,
                       std::string key,
                       std::string_view value,
                       std::string_view unit) {
  MetricValue converted = ConvertValue(value, unit);
  if (converted.kind == ValueKind::kNumber &&
      unit.find_first_not_of(" \t") == std::string_view::npos && MetricNeedsUnit(key)) {
    // "6.46" with no unit may be ns, us or ms: never guessed.
    diagnostics_.Count(model::Diagnostic::kNcuMissingUnits);
    Note("Nsight Compute value without a unit, dropped: " + key);
    return;
  }
  switch (converted.kind) {
    case ValueKind::kNumber:
      launch.metrics.emplace(std::move(key), converted.value);  // the first of duplicates wins
      break;
    case ValueKind::kNotAvailable:
      diagnostics_.Count(model::Diagnostic::kNcuValuesNotAvailable);
      break;
    case ValueKind::kText:
      if (!unit.empty())
        diagnostics_.Count(model::Diagnostic::kNcuMalformedValues);  // a unit but no number
      break;  // else a text attribute: nothing to keep
    case ValueKind::kUnknownUnit:
      diagnostics_.Count(model::Diagnostic::kNcuUnknownUnits);
      Note("Nsight Compute unit not understood, values dropped: \"" + std::string(unit) + "\"");
      break;
  }
}

void Parser::LongRow(const std::vector<std::string>& row) {
  const Columns& c = *columns_;
  auto id = ParseInt(Field(row, c["ID"]));
  if (!id) {
    diagnostics_.Count(model::Diagnostic::kNcuMalformedRows);
    return;
  }
  Launch& launch = LaunchFor(*id, row);
  std::string_view metric = Field(row, c["Metric Name"]);
  if (metric.empty()) {
    AddRule(launch, row);  // a rule result row of the details page
    return;
  }
  if (metric.rfind("device__attribute_", 0) == 0) {  // `--metrics device__attribute_display_name`
    launch.device_attributes.emplace(std::string(metric), Field(row, c["Metric Value"]));
    return;
  }
  std::string key(metric);
  if (metric.find("__") == std::string_view::npos) {  // a details label, not a raw name
    labels_ = true;
    std::string_view section = Field(row, c["Section Name"]);
    if (auto raw = RawMetricForLabel(section, metric))
      key = std::string(*raw);
    else
      key = "label:" + std::string(section) + "/" + key;
  }
  AddMetric(launch, std::move(key), Field(row, c["Metric Value"]), Field(row, c["Metric Unit"]));
}

// "SOLBottleneck","WRN","This kernel ...","local","79.48": kept as evidence for the report.
void Parser::AddRule(Launch& launch, const std::vector<std::string>& row) {
  const Columns& c = *columns_;
  std::string_view name = Field(row, c["Rule Name"]);
  if (name.empty())
    return;
  model::NcuRuleRow rule;
  rule.section = std::string(Field(row, c["Section Name"]));
  rule.name = std::string(name);
  rule.type = std::string(Field(row, c["Rule Type"]));
  rule.description = std::string(Field(row, c["Rule Description"]));
  rule.speedup_type = std::string(Field(row, c["Estimated Speedup Type"]));
  rule.estimated_speedup_percent = ParseNumber(Field(row, c["Estimated Speedup"]));
  launch.rules.push_back(std::move(rule));
  diagnostics_.Count(model::Diagnostic::kNcuRuleRows);
}

bool IsIdentityColumn(std::string_view name) {
  for (std::string_view fixed : {"ID",
                                 "Process ID",
                                 "Process Name",
                                 "Host Name",
                                 "Kernel Name",
                                 "Kernel Time",
                                 "Context",
                                 "Stream",
                                 "Block Size",
                                 "Grid Size",
                                 "Device",
                                 "CC"}) {
    if (name == fixed)
      return true;
  }
  return false;
}

void Parser::WideRow(const std::vector<std::string>& row) {
  const Columns& c = *columns_;
  std::string_view id_text = Field(row, c["ID"]);
  if (id_text.empty() && units_.empty() && out_.launches.empty()) {
    units_ = row;  // the units row under the names row
    return;
  }
  if (units_.empty() && out_.launches.empty())
    missing_units_row_ = true;  // a data row right under the names: no unit is known
  auto id = ParseInt(id_text);
  if (!id) {
    diagnostics_.Count(model::Diagnostic::kNcuMalformedRows);
    return;
  }
  Launch& launch = LaunchFor(*id, row);
  for (std::size_t i = 0; i < header_.size(); ++i) {
    const std::string& column = header_[i];
    if (IsIdentityColumn(column))
      continue;
    if (column.rfind("device__attribute_", 0) == 0) {
      launch.device_attributes.emplace(column, row[i]);
      continue;
    }
    std::string_view unit = i < units_.size() ? std::string_view(units_[i]) : std::string_view();
    AddMetric(launch, column, row[i], unit);
  }
}

Result<ParsedCsv> Parser::Run(util::ByteSource& source) {
  CsvReader reader(source);
  CsvLine line;
  for (;;) {
    auto more = reader.Next(line);
    if (!more.ok())
      return Error{name_ + ": " + more.error().message};
    if (!*more)
      break;
    if (!line.record) {
      Text(line.text);
      continue;
    }
    if (!columns_) {
      if (!line.fields.empty() && line.fields[0] == "ID" && !line.malformed) {
        Header(line.fields);
        if ((*columns_)["Kernel Name"] >= 0)
          continue;
        columns_.reset();
      }
      diagnostics_.Count(
          model::Diagnostic::kNcuTextLinesSkipped);  // quoted program output before the header
      continue;
    }
    if (line.malformed || !RowFits(line.fields)) {
      diagnostics_.Count(model::Diagnostic::kNcuMalformedRows);
      continue;
    }
    if (wide_)
      WideRow(line.fields);
    else
      LongRow(line.fields);
    if (missing_units_row_) {
      return Error{name_ +
                   ": a --page raw export without its units row (the second line): the values' "
                   "units are unknown; export it again with the units row"};
    }
  }
  if (!columns_) {
    return Error{
        name_ + ": no Nsight Compute CSV header (\"ID\",\"Process ID\",...,\"Kernel Name\") found"};
  }
  out_.layout = wide_ ? "raw" : labels_ ? "details" : "metrics";
  return std::move(out_);
}

}  // namespace

bool LooksLikeNcuCsv(std::string_view head) {
  if (head.substr(0, 3) == "\xEF\xBB\xBF")
    head.remove_prefix(3);
  for (std::size_t start = 0; start < head.size();) {
    std::size_t end = head.find('\n', start);
    std::string_view line =
        head.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (line.rfind(kHeaderStart, 0) == 0 && line.find("\"Kernel Name\"") != std::string_view::npos)
      return true;
    if (end == std::string_view::npos)
      break;
    start = end + 1;
  }
  return false;
}

Result<ParsedCsv> ParseCsv(util::ByteSource& source,
                           const std::string& name,
                           model::Diagnostics& diagnostics) {
  Parser parser(name, diagnostics);
  return parser.Run(source);
}

}  // namespace gpuperf::io::ncu
