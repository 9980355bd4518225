#include "io/nsys/nsys_schema.h"

#include <array>

namespace gpuperf::io::nsys {
namespace {

// The tables whose columns readers ask about.
constexpr std::array<const char*, 16> kTablesRead = {
    kKernelTable,
    kMemcpyTable,
    kMemsetTable,
    kRuntimeTable,
    kSyncTable,
    kNvtxTable,
    kOsRuntimeTable,
    kSampleTable,
    kSampleCallchainTable,
    kStringTable,
    kGpuTable,
    kProcessTable,
    kSessionStartTable,
    kMemoryUsageTable,
    "EXPORT_META_DATA",
    "META_DATA_EXPORT",
};

bool HasPrefix(const std::set<std::string>& tables, std::string_view prefix) {
  auto it = tables.lower_bound(std::string(prefix));
  return it != tables.end() && std::string_view(*it).substr(0, prefix.size()) == prefix;
}

Result<std::set<std::string>> ListTables(const Database& db) {
  auto stmt = db.Prepare("SELECT name FROM sqlite_master WHERE type = 'table'");
  if (!stmt.ok())
    return stmt.error();
  std::set<std::string> tables;
  while (true) {
    auto row = stmt->Step();
    if (!row.ok())
      return row.error();
    if (!*row)
      break;
    if (auto name = stmt->Text(0))
      tables.emplace(*name);
  }
  return tables;
}

Result<std::set<std::string>> ListColumns(const Database& db, const std::string& table) {
  auto stmt = db.Prepare("SELECT name FROM pragma_table_info(?1)");
  if (!stmt.ok())
    return stmt.error();
  stmt->BindText(1, table);
  std::set<std::string> columns;
  while (true) {
    auto row = stmt->Step();
    if (!row.ok())
      return row.error();
    if (!*row)
      break;
    if (auto name = stmt->Text(0))
      columns.emplace(*name);
  }
  return columns;
}

// Double quotes make a name an identifier; an embedded quote is doubled (SQL standard).
std::string QuoteIdentifier(std::string_view name) {
  std::string quoted = "\"";
  for (char c : name) {
    quoted += c;
    if (c == '"')
      quoted += '"';
  }
  return quoted + "\"";
}

}  // namespace

Result<Schema> Schema::Load(const Database& db) {
  auto tables = ListTables(db);
  if (!tables.ok())
    return tables.error();
  Schema schema;
  schema.tables_ = std::move(*tables);
  const std::string prefix = db.name() + ": SQLite database is not an Nsight Systems export";
  if (!schema.HasTable(kStringTable))
    return Error{prefix + " (no StringIds table)"};
  if (schema.HasTable("META_DATA_EXPORT")) {
    schema.metadata_table_ = "META_DATA_EXPORT";
  } else if (schema.HasTable("EXPORT_META_DATA")) {
    schema.metadata_table_ = "EXPORT_META_DATA";
  }
  if (schema.metadata_table_.empty() && !HasPrefix(schema.tables_, "TARGET_INFO_") &&
      !HasPrefix(schema.tables_, "CUPTI_ACTIVITY_KIND_")) {
    return Error{prefix + " (no metadata, TARGET_INFO or CUPTI tables)"};
  }
  for (const char* table : kTablesRead) {
    if (!schema.HasTable(table))
      continue;
    auto columns = ListColumns(db, table);
    if (!columns.ok())
      return columns.error();
    schema.columns_.emplace(table, std::move(*columns));
  }
  return schema;
}

bool Schema::HasColumn(std::string_view table, std::string_view column) const {
  auto it = columns_.find(table);
  return it != columns_.end() && it->second.count(std::string(column)) > 0;
}

Result<std::string> Schema::SelectSql(std::string_view table,
                                      std::span<const ColumnSpec> columns,
                                      const std::string& input_name) const {
  std::string sql = "SELECT ";
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i > 0)
      sql += ", ";
    if (HasColumn(table, columns[i].name)) {
      sql += QuoteIdentifier(columns[i].name);
    } else if (columns[i].required) {
      return Error{input_name + ": Nsight Systems table " + std::string(table) +
                   " has no column '" + columns[i].name + "'"};
    } else {
      sql += "NULL";
    }
  }
  return sql + " FROM " + QuoteIdentifier(table);
}

}  // namespace gpuperf::io::nsys
