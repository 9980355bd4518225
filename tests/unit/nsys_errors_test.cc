// The nsys importer on inputs that are not (whole) nsys exports: one-line errors naming the file.
#include "gpuperf/import.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "nsys_test_db.h"

namespace {

using gpuperf::io::ImportTraceFile;
using gpuperf::io::ImportTraceMemory;
using gpuperf::testing::MakeSqliteImage;
namespace t = gpuperf::testing;

std::string WriteTemp(const std::string& name, const std::string& bytes) {
  auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path.string();
}

std::string ValidExport() {
  std::string sql = std::string(t::kStringIdsSql) + t::kOldMetaSql + t::kKernelSql;
  // Enough rows that the table spans several pages, so truncation cuts real data.
  sql += "INSERT INTO StringIds VALUES (1, 'k');";
  sql +=
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) "
      "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, demangledName) "
      "SELECT i * 10, i * 10 + 5, 1 FROM n;";
  return MakeSqliteImage(sql);
}

TEST_CASE("nsys importer rejects a SQLite database of another schema", "[nsys]") {
  std::string image = MakeSqliteImage("CREATE TABLE users (id INTEGER, name TEXT);");
  auto trace = ImportTraceMemory(image, "app.db");
  REQUIRE_FALSE(trace.ok());
  CHECK(trace.error().message ==
        "app.db: SQLite database is not an Nsight Systems export (no StringIds table)");
}

TEST_CASE("nsys importer rejects a StringIds table without any nsys table beside it", "[nsys]") {
  auto trace = ImportTraceMemory(MakeSqliteImage(t::kStringIdsSql), "strings.db");
  REQUIRE_FALSE(trace.ok());
  CHECK(trace.error().message ==
        "strings.db: SQLite database is not an Nsight Systems export (no metadata, TARGET_INFO "
        "or CUPTI tables)");
}

TEST_CASE("nsys importer reports a truncated database in one line naming the input", "[nsys]") {
  std::string image = ValidExport();
  REQUIRE(image.size() > 8192);
  for (std::size_t size : {std::size_t{100}, std::size_t{4096}, image.size() / 2}) {
    std::string cut = image.substr(0, size);
    auto from_memory = ImportTraceMemory(cut, "cut.sqlite");
    REQUIRE_FALSE(from_memory.ok());
    INFO(from_memory.error().message);
    CHECK(from_memory.error().message.rfind("cut.sqlite: ", 0) == 0);
    CHECK(from_memory.error().message.find('\n') == std::string::npos);

    std::string path = WriteTemp("gpuperf_nsys_truncated.sqlite", cut);
    auto from_file = ImportTraceFile(path);
    REQUIRE_FALSE(from_file.ok());
    INFO(from_file.error().message);
    CHECK(from_file.error().message.rfind(path + ": ", 0) == 0);
    CHECK(from_file.error().message.find('\n') == std::string::npos);
    std::filesystem::remove(path);
  }
}

TEST_CASE("nsys importer reads the same export from a file, memory and gzip", "[nsys]") {
  std::string image = ValidExport();
  std::string path = WriteTemp("gpuperf_nsys_whole.sqlite", image);
  std::string gz_path = WriteTemp("gpuperf_nsys_whole.sqlite.gz", t::Gzip(image));
  auto from_file = ImportTraceFile(path);
  auto from_gzip = ImportTraceFile(gz_path);
  auto from_memory = ImportTraceMemory(image, "whole.sqlite");
  std::filesystem::remove(path);
  std::filesystem::remove(gz_path);
  REQUIRE(from_file.ok());
  REQUIRE(from_gzip.ok());
  REQUIRE(from_memory.ok());
  for (const auto* trace : {&*from_file, &*from_gzip, &*from_memory}) {
    REQUIRE(trace->activities.size() == 2000);
    CHECK(trace->activities.back().start_ns == 20000);
    CHECK(trace->activities.back().end_ns == 20005);
  }
}

TEST_CASE("nsys importer reports a truncated gzip'd export", "[nsys]") {
  std::string gz = t::Gzip(ValidExport());
  auto trace = ImportTraceMemory(gz.substr(0, gz.size() / 2), "half.sqlite.gz");
  REQUIRE_FALSE(trace.ok());
  CHECK(trace.error().message == "half.sqlite.gz: truncated gzip stream");
}

}  // namespace
