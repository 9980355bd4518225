// The diagnostics catalogue (gpuperf/diagnostics_catalogue.h): only its entries can be counted,
// its names follow one rule, and docs/metrics.md lists exactly its entries.
#include "gpuperf/diagnostics_catalogue.h"

#include "gpuperf/trace.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cli_test_support.h"

namespace gpuperf::model {
namespace {

// Whether Diagnostics::Count accepts a `T`: only the catalogue's enum, never a name.
template <typename T>
concept Countable = requires(Diagnostics d, T what) {
  d.Count(what);
};

static_assert(Countable<Diagnostic>);
static_assert(!Countable<const char*>);
static_assert(!Countable<std::string>);
static_assert(!Countable<std::string_view>);
static_assert(!Countable<int>);

// The names report.json had before the catalogue in the two other spellings; no new name may
// join them (a new name is "<source>.<snake_case>").
const std::set<std::string_view> kLegacyNames = {
    "counters_config_mismatch",
    "counters_joined",
    "counters_ncu_launches",
    "counters_no_kernel",
    "counters_unjoined",
    "ncu_durations_from_cycles",
    "ncu_error_lines",
    "ncu_launch_dims_from_totals",
    "ncu_launches_without_duration",
    "ncu_malformed_rows",
    "ncu_malformed_values",
    "ncu_missing_units",
    "ncu_rule_rows",
    "ncu_text_lines_skipped",
    "ncu_unknown_units",
    "ncu_values_not_available",
    "ncu_warning_lines",
    "nvtx range end without start",
    "nvtx range start without end",
};

// "kineto.bad_ts" -> "kKinetoBadTs".
std::string Enumerator(std::string_view name) {
  std::string out = "k";
  bool upper = true;
  for (char c : name) {
    if (c == '.' || c == '_' || c == ' ') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(c - 'a' + 'A') : c;
    upper = false;
  }
  return out;
}

// One row of docs/metrics.md's table, as the catalogue gives it.
std::string DocRow(const DiagnosticInfo& entry) {
  return "| `" + std::string(entry.name) + "` | " + std::string(ToString(entry.severity)) + " | " +
         std::string(entry.meaning) + " |";
}

// The rows of the table under "## Import diagnostics" in docs/metrics.md.
std::vector<std::string> DocRows() {
  std::istringstream doc(
      testing::ReadFile(std::filesystem::path(GPUPERF_SOURCE_DIR) / "docs" / "metrics.md"));
  std::vector<std::string> rows;
  bool in_section = false;
  for (std::string line; std::getline(doc, line);) {
    if (line.rfind("## ", 0) == 0)
      in_section = line.rfind("## Import diagnostics", 0) == 0;
    else if (in_section && line.rfind("| `", 0) == 0)
      rows.push_back(line);
  }
  return rows;
}

TEST_CASE("diagnostics catalogue: names are unique, ordered and found by name", "[diagnostics]") {
  REQUIRE(kDiagnosticCount > 80);
  for (std::size_t i = 0; i < kDiagnosticCount; ++i) {
    const DiagnosticInfo& entry = kDiagnosticCatalogue[i];
    INFO(entry.name);
    CHECK(static_cast<std::size_t>(entry.id) == i);
    CHECK(&Describe(entry.id) == &entry);
    CHECK(FindDiagnostic(entry.name) == entry.id);
  }
  CHECK_FALSE(FindDiagnostic("kernel.missing_correlation"));
  CHECK_FALSE(FindDiagnostic(""));
  CHECK_FALSE(FindDiagnostic("kineto.bad_ts "));
}

TEST_CASE("diagnostics catalogue: one naming rule, legacy names frozen", "[diagnostics]") {
  const std::regex dotted("[a-z]+(\\.[a-z0-9_]+)+");
  std::size_t legacy = 0;
  for (const DiagnosticInfo& entry : kDiagnosticCatalogue) {
    std::string name(entry.name);
    INFO(name);
    CHECK(entry.enumerator == Enumerator(name));
    if (kLegacyNames.contains(entry.name))
      ++legacy;
    else
      CHECK(std::regex_match(name, dotted));
    CHECK_FALSE(entry.meaning.empty());
    CHECK(entry.meaning.find('|') == std::string_view::npos);  // a Markdown table cell
    CHECK(entry.meaning.find('\n') == std::string_view::npos);
  }
  CHECK(legacy == kLegacyNames.size());  // every legacy name is still in the catalogue
}

TEST_CASE("diagnostics catalogue: severities", "[diagnostics]") {
  CHECK(ToString(DiagnosticSeverity::kInfo) == "info");
  CHECK(ToString(DiagnosticSeverity::kDataLoss) == "data-loss");
  CHECK(ToString(DiagnosticSeverity::kError) == "error");
  // io/registry.cc fails an import on any error-severity count: the record limit is one.
  CHECK(Describe(Diagnostic::kKinetoRecordsOverLimit).severity == DiagnosticSeverity::kError);
  CHECK(Describe(Diagnostic::kKinetoOrphanGpuActivity).severity == DiagnosticSeverity::kInfo);
  CHECK(Describe(Diagnostic::kNsysKernelNullTime).severity == DiagnosticSeverity::kDataLoss);
}

TEST_CASE("diagnostics catalogue: counts keep the report's order", "[diagnostics]") {
  Diagnostics d;
  d.Count(Diagnostic::kNsysKernelNullTime);
  d.Count(Diagnostic::kAnalysisDeviceRemapped, 2);
  d.Count(Diagnostic::kCountersJoined, 0);  // a zero is still recorded
  d.Count(Diagnostic::kNsysKernelNullTime, 3);
  CHECK(d.Get(Diagnostic::kNsysKernelNullTime) == 4);
  CHECK(d.Get(Diagnostic::kKinetoBadTs) == 0);
  CHECK(d.Has(Diagnostic::kCountersJoined));
  CHECK_FALSE(d.Has(Diagnostic::kKinetoBadTs));
  std::vector<std::string_view> names;
  for (const auto& [what, n] : d.counts)
    names.push_back(DiagnosticName(what));
  CHECK(names == std::vector<std::string_view>{
                     "analysis.device_remapped", "counters_joined", "nsys.kernel_null_time"});
}

TEST_CASE("docs/metrics.md lists every catalogue entry and nothing else", "[diagnostics][docs]") {
  std::vector<std::string> expected;
  for (const DiagnosticInfo& entry : kDiagnosticCatalogue)
    expected.push_back(DocRow(entry));
  std::vector<std::string> documented = DocRows();
  if (documented != expected) {
    std::string table = "| name | severity | meaning |\n|---|---|---|\n";
    for (const std::string& row : expected)
      table += row + "\n";
    FAIL_CHECK(
        "docs/metrics.md \"## Import diagnostics\" differs from the catalogue; its table "
        "should read:\n"
        << table);
  }
  std::set<std::string> doc_names, catalogue_names;
  for (const std::string& row : documented)
    doc_names.insert(row.substr(3, row.find('`', 3) - 3));
  for (const DiagnosticInfo& entry : kDiagnosticCatalogue)
    catalogue_names.insert(std::string(entry.name));
  CHECK(doc_names == catalogue_names);
}

TEST_CASE("every catalogue entry is counted somewhere in src/", "[diagnostics]") {
  std::string sources;
  for (const auto& file : std::filesystem::recursive_directory_iterator(
           std::filesystem::path(GPUPERF_SOURCE_DIR) / "src")) {
    const std::string ext = file.path().extension().string();
    if (file.is_regular_file() && (ext == ".cc" || ext == ".h"))
      sources += testing::ReadFile(file.path());
  }
  for (const DiagnosticInfo& entry : kDiagnosticCatalogue) {
    INFO(entry.name << " (" << entry.enumerator << ") is never used: remove it or count it");
    CHECK(sources.find(std::string(entry.enumerator)) != std::string::npos);
  }
}

}  // namespace
}  // namespace gpuperf::model
