// A small RAII layer over the SQLite C API: a read-only database and prepared statements whose
// column readers never trust the stored type (a fuzzed or third-party file may hold TEXT where the
// schema says INTEGER).
#pragma once

#include "gpuperf/result.h"

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace gpuperf::io::nsys {

class Statement;

class Database {
 public:
  // Opens `path` read-only. `name` prefixes every error message.
  static Result<Database> OpenFile(const std::string& path, std::string name);
  // Opens a copy of `bytes` (a whole database image) read-only, in memory.
  static Result<Database> OpenImage(std::string_view bytes, std::string name);

  Database(Database&& other) noexcept;
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  ~Database();

  // Prepares one SQL statement; the error names the input and quotes SQLite's message.
  Result<Statement> Prepare(const std::string& sql) const;
  // "<name>: cannot read SQLite database: <sqlite message>".
  Error MakeError(std::string_view what) const;
  const std::string& name() const { return name_; }
  // page_count * page_size: the database's size, 0 when SQLite cannot say.
  std::int64_t SizeBytes() const;

 private:
  Database(sqlite3* db, std::string name) : db_(db), name_(std::move(name)) {}
  sqlite3* db_ = nullptr;
  std::string name_;
};

// A prepared statement. Step() walks the rows; the typed readers return nullopt for NULL and for
// values of another storage class, so callers decide what a missing value means.
class Statement {
 public:
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  // Binds text to the 1-based parameter `index` (copied by SQLite).
  void BindText(int index, std::string_view text);
  // true: a row is ready; false: done. An error (corrupt page, ...) names the input.
  Result<bool> Step();

  bool IsNull(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }
  // INTEGER values; REAL values that are whole numbers within int64 are accepted too. Inline and
  // one column lookup per call: readers call this tens of millions of times.
  std::optional<std::int64_t> Int(int column) const {
    sqlite3_value* value = sqlite3_column_value(stmt_, column);
    switch (sqlite3_value_type(value)) {
      case SQLITE_INTEGER:
        return sqlite3_value_int64(value);
      case SQLITE_FLOAT:
        return WholeNumber(sqlite3_value_double(value));
      default:
        return std::nullopt;
    }
  }
  std::int64_t IntOr(int column, std::int64_t fallback) const {
    return Int(column).value_or(fallback);
  }
  // INTEGER or REAL as double.
  std::optional<double> Real(int column) const;
  // TEXT values only; the view lives until the next Step().
  std::optional<std::string_view> Text(int column) const;

 private:
  friend class Database;
  // `value` as int64 when it is a whole number in range.
  static std::optional<std::int64_t> WholeNumber(double value);
  Statement(sqlite3_stmt* stmt, std::string name) : stmt_(stmt), name_(std::move(name)) {}
  sqlite3_stmt* stmt_ = nullptr;
  std::string name_;  // the input's name, for messages
};

}  // namespace gpuperf::io::nsys
