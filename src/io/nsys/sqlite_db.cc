#include "io/nsys/sqlite_db.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace gpuperf::io::nsys {
namespace {

std::string OneLine(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r')
      c = ' ';
  }
  return text;
}

// The file is someone else's: no schema-defined functions, no writes through odd paths.
void Harden(sqlite3* db) {
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
}

}  // namespace

Result<Database> Database::OpenFile(const std::string& path, std::string name) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr);
  Database database(db, std::move(name));  // owns db even when the open failed
  if (rc != SQLITE_OK)
    return database.MakeError("cannot open");
  Harden(db);
  // Reading pages through the OS mapping saves a copy per page on large exports; SQLite caps
  // the size at its compile-time maximum.
  sqlite3_exec(db, "PRAGMA mmap_size = 2147418112", nullptr, nullptr, nullptr);
  return database;
}

Result<Database> Database::OpenImage(std::string_view bytes, std::string name) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
  Database database(db, std::move(name));
  if (rc != SQLITE_OK)
    return database.MakeError("cannot open");
  // SQLite frees the copy when the connection closes, also when deserialize fails.
  auto size = static_cast<sqlite3_int64>(bytes.size());
  auto* copy = static_cast<unsigned char*>(sqlite3_malloc64(bytes.empty() ? 1 : bytes.size()));
  if (copy == nullptr)
    return Error{database.name_ + ": out of memory for the SQLite image"};
  if (!bytes.empty())
    std::memcpy(copy, bytes.data(), bytes.size());
  rc = sqlite3_deserialize(
      db, "main", copy, size, size, SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY);
  if (rc != SQLITE_OK)
    return database.MakeError("cannot load");
  Harden(db);
  return database;
}

Database::Database(Database&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), name_(std::move(other.name_)) {}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    sqlite3_close_v2(db_);
    db_ = std::exchange(other.db_, nullptr);
    name_ = std::move(other.name_);
  }
  return *this;
}

Database::~Database() {
  sqlite3_close_v2(db_);
}

Error Database::MakeError(std::string_view what) const {
  const char* message = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
  return Error{OneLine(name_ + ": " + std::string(what) + " SQLite database: " + message)};
}

std::int64_t Database::SizeBytes() const {
  auto stmt = Prepare("SELECT page_count * page_size FROM pragma_page_count, pragma_page_size");
  if (!stmt.ok())
    return 0;
  auto row = stmt->Step();
  if (!row.ok() || !*row)
    return 0;
  return std::max<std::int64_t>(0, stmt->IntOr(0, 0));
}

Result<Statement> Database::Prepare(const std::string& sql) const {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size() + 1), &stmt, nullptr);
  Statement statement(stmt, name_);
  if (rc != SQLITE_OK || stmt == nullptr)
    return MakeError("cannot read");
  return statement;
}

Statement::Statement(Statement&& other) noexcept
    : stmt_(std::exchange(other.stmt_, nullptr)), name_(std::move(other.name_)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    stmt_ = std::exchange(other.stmt_, nullptr);
    name_ = std::move(other.name_);
  }
  return *this;
}

Statement::~Statement() {
  sqlite3_finalize(stmt_);
}

void Statement::BindText(int index, std::string_view text) {
  sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
}

Result<bool> Statement::Step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW)
    return true;
  if (rc == SQLITE_DONE)
    return false;
  return Error{OneLine(
      name_ + ": cannot read SQLite database: " + sqlite3_errmsg(sqlite3_db_handle(stmt_)))};
}

std::optional<std::int64_t> Statement::WholeNumber(double value) {
  // 2^63 is exactly representable; anything at or past it does not fit.
  if (!(value >= -9.2233720368547758e18 && value < 9.2233720368547758e18))
    return std::nullopt;
  if (value != std::trunc(value))
    return std::nullopt;
  return static_cast<std::int64_t>(value);
}

std::optional<double> Statement::Real(int column) const {
  int type = sqlite3_column_type(stmt_, column);
  if (type != SQLITE_INTEGER && type != SQLITE_FLOAT)
    return std::nullopt;
  double value = sqlite3_column_double(stmt_, column);
  if (!std::isfinite(value))
    return std::nullopt;
  return value;
}

std::optional<std::string_view> Statement::Text(int column) const {
  if (sqlite3_column_type(stmt_, column) != SQLITE_TEXT)
    return std::nullopt;
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
  if (text == nullptr)
    return std::nullopt;  // out of memory
  return std::string_view(text, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)));
}

}  // namespace gpuperf::io::nsys
