// Builds tiny Nsight-Systems-shaped SQLite databases in memory for the nsys importer tests.
#pragma once

#include <catch2/catch.hpp>

#include <sqlite3.h>
#include <zlib.h>

#include <string>

namespace gpuperf::testing {

// Runs `sql` (several statements) on a fresh in-memory database and returns its file image.
inline std::string MakeSqliteImage(const std::string& sql) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(":memory:", &db) == SQLITE_OK);
  char* message = nullptr;
  int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
  std::string error = message != nullptr ? message : "";
  sqlite3_free(message);
  INFO(error);
  CHECK(rc == SQLITE_OK);
  sqlite3_int64 size = 0;
  unsigned char* bytes = sqlite3_serialize(db, "main", &size, 0);
  std::string image(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(size));
  sqlite3_free(bytes);
  sqlite3_close(db);
  return image;
}

inline std::string Gzip(const std::string& data) {
  z_stream stream{};
  REQUIRE(deflateInit2(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&stream, data.size()) + 64, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&stream, Z_FINISH) == Z_STREAM_END);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

// Schema fragments in the shape nsys writes them (subsets of the real columns).
inline constexpr char kStringIdsSql[] =
    "CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);";
inline constexpr char kOldMetaSql[] =
    "CREATE TABLE EXPORT_META_DATA (name TEXT NOT NULL, value TEXT);"
    "INSERT INTO EXPORT_META_DATA VALUES ('EXPORT_PRODUCT_VERSION', '2022.2.1.31'),"
    " ('EXPORT_SCHEMA_VERSION', '2.9.1'), ('EXPORT_HOST', 'login03');";
inline constexpr char kNewMetaSql[] =
    "CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT);"
    "INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_PRODUCT_VERSION', '2025.5.1.121'),"
    " ('EXPORT_SCHEMA_VERSION', '3.24.0');";
// No NOT NULL constraints, so that tests can store the damage real files must not contain.
inline constexpr char kKernelSql[] =
    "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER,"
    " contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER,"
    " demangledName INTEGER, shortName INTEGER, mangledName INTEGER, registersPerThread INTEGER,"
    " gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER,"
    " blockZ INTEGER, staticSharedMemory INTEGER, dynamicSharedMemory INTEGER);";
inline constexpr char kMemcpySql[] =
    "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER, end INTEGER, deviceId INTEGER,"
    " contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER,"
    " bytes INTEGER, copyKind INTEGER, srcKind INTEGER, dstKind INTEGER);";
inline constexpr char kRuntimeSql[] =
    "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, eventClass INTEGER,"
    " globalTid INTEGER, correlationId INTEGER, nameId INTEGER, returnValue INTEGER,"
    " callchainId INTEGER);";
inline constexpr char kNvtxSql[] =
    "CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL,"
    " rangeId INTEGER, category INTEGER, color INTEGER, text TEXT, globalTid INTEGER,"
    " endGlobalTid INTEGER, textId INTEGER, domainId INTEGER);";

// globalPid / globalTid as nsys serialises them: pid in bits 24..47, tid in bits 0..23.
inline constexpr long long GlobalTid(long long pid, long long tid) {
  return (1LL << 56) | (pid << 24) | tid;
}

}  // namespace gpuperf::testing
