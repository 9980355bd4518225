// The Nsight Systems SQLite importer: opens the database read-only (a file in place, or a copy
// of memory / gunzipped bytes), checks that it is an nsys export, and runs one reader per table.
#include "io/nsys/nsys_importer.h"

#include <array>
#include <new>
#include <string>

#include "io/nsys/nsys_readers.h"
#include "io/nsys/nsys_schema.h"
#include "io/nsys/nsys_strings.h"
#include "io/nsys/sqlite_db.h"

namespace gpuperf::io {
namespace {

// Every SQLite 3 database starts with these 16 bytes, the terminating NUL included.
constexpr std::string_view kSqliteMagic{"SQLite format 3\0", 16};
// A gzip'd export is inflated into memory; more than this is refused rather than swapped.
constexpr std::size_t kMaxInflatedBytes = std::size_t{16} << 30;

Result<nsys::Database> OpenDatabase(const Input& input) {
  if (input.path() && !input.gzip())
    return nsys::Database::OpenFile(*input.path(), input.name());
  if (input.memory() && !input.gzip()) {
    return nsys::Database::OpenImage(*input.memory(), input.name());
  }
  auto source = input.Open();
  if (!source.ok())
    return source.error();
  auto bytes = util::ReadAll(**source, kMaxInflatedBytes);
  if (!bytes.ok()) {
    const std::string& message = bytes.error().message;
    if (message.rfind(input.name(), 0) == 0)
      return bytes.error();
    return Error{input.name() + ": " + message};
  }
  return nsys::Database::OpenImage(*bytes, input.name());
}

Result<model::Trace> ReadExport(const nsys::Database& db) {
  auto schema = nsys::Schema::Load(db);
  if (!schema.ok())
    return schema.error();
  model::Trace trace;
  nsys::StringIds strings;
  Status loaded = strings.Load(db, trace.diagnostics);
  if (!loaded.ok())
    return loaded.error();
  nsys::ReadContext context{db, *schema, strings, trace};
  nsys::ReserveCapacity(context);
  using Reader = Status (*)(nsys::ReadContext&);
  static constexpr std::array<Reader, 10> kReaders = {
      nsys::ReadMetadata,
      nsys::ReadDevices,
      nsys::ReadProcesses,
      nsys::ReadKernels,
      nsys::ReadMemcpys,
      nsys::ReadMemsets,
      nsys::ReadRuntimeCalls,
      nsys::ReadSyncs,
      nsys::ReadNvtxRanges,
      nsys::ReadMemoryEvents,
  };
  for (Reader reader : kReaders) {
    Status status = reader(context);
    if (!status.ok())
      return status.error();
  }
  return trace;
}

class NsysImporter final : public Importer {
 public:
  std::string_view FormatName() const override { return "nsys-sqlite"; }

  bool Probe(std::string_view head) const override {
    return head.substr(0, kSqliteMagic.size()) == kSqliteMagic;
  }

  Result<model::Trace> Import(const Input& input) const override {
    // SQLite and our vectors allocate by what the file claims; a hostile file must not turn
    // into an exception escaping the importer.
    try {
      auto db = OpenDatabase(input);
      if (!db.ok())
        return db.error();
      return ReadExport(*db);
    } catch (const std::bad_alloc&) {
      return Error{input.name() + ": out of memory while reading the SQLite database"};
    }
  }
};

}  // namespace

std::unique_ptr<Importer> MakeNsysImporter() {
  return std::make_unique<NsysImporter>();
}

}  // namespace gpuperf::io
