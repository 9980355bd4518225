// The Nsight Systems SQLite importer: opens the database read-only (a file in place, or a copy
// of memory / gunzipped bytes), checks that it is an nsys export, and runs one reader per table.
#include "io/nsys/nsys_importer.h"

#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "io/nsys/nsys_readers.h"
#include "io/nsys/nsys_schema.h"
#include "io/nsys/nsys_strings.h"
#include "io/nsys/sqlite_db.h"

namespace gpuperf::io {
namespace {

// Every SQLite 3 database starts with these 16 bytes, the terminating NUL included.
constexpr std::string_view kSqliteMagic{"SQLite format 3\0", 16};
// A gzip'd export is inflated into an unlinked temporary file, never into memory: SQLite then
// pages it in as it reads (a 2 GiB image took 4.2 GB of RAM when inflated in memory). The size
// is bounded by io::InputLimits through Input::Open().
Result<nsys::Database> OpenInflated(const Input& input) {
  auto source = input.Open();
  if (!source.ok())
    return source.error();
  const char* dir = std::getenv("TMPDIR");
  std::string path =
      std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/gpuperf-nsys-XXXXXX";
  const int fd = ::mkstemp(path.data());
  if (fd < 0)
    return Error{input.name() +
                 ": cannot create a temporary file for the SQLite image: " + std::strerror(errno)};
  std::vector<char> chunk(std::size_t{1} << 20);
  Status copied = Status::Ok();
  while (copied.ok()) {
    auto n = (*source)->Read(chunk.data(), chunk.size());
    if (!n.ok())
      copied = n.error().message.rfind(input.name(), 0) == 0
                   ? n.error()
                   : Error{input.name() + ": " + n.error().message};
    else if (*n == 0)
      break;
    else if (::write(fd, chunk.data(), *n) != static_cast<ssize_t>(*n))
      copied = Error{input.name() + ": cannot write the inflated SQLite image to " + path + ": " +
                     std::strerror(errno)};
  }
  auto db = copied.ok() ? nsys::Database::OpenFile(path, input.name())
                        : Result<nsys::Database>(copied.error());
  ::close(fd);
  ::unlink(path.c_str());  // SQLite keeps its own descriptor; the space goes when it closes
  return db;
}

Result<nsys::Database> OpenDatabase(const Input& input) {
  if (input.path() && !input.gzip())
    return nsys::Database::OpenFile(*input.path(), input.name());
  if (input.memory() && !input.gzip()) {
    return nsys::Database::OpenImage(*input.memory(), input.name());
  }
  return OpenInflated(input);
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
  static constexpr std::array<Reader, 12> kReaders = {
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
      nsys::ReadOsCalls,
      nsys::ReadCpuSamples,
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
