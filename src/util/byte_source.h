// Byte sources: importers read through this seam so that tests and fuzzers can feed memory and
// gzip is undone transparently. A source is read once, front to back.
#pragma once

#include "gpuperf/result.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace gpuperf::util {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Reads up to `size` bytes into `buffer`. Returns 0 only at the end of the data.
  virtual Result<std::size_t> Read(char* buffer, std::size_t size) = 0;
};

// Reads a regular file. The error names the path; a FIFO, a device or a socket is refused
// ("x: not a regular file (a FIFO)"): reading one could block forever.
Result<std::unique_ptr<ByteSource>> OpenFileSource(const std::string& path);

// Reads a caller-owned buffer that must outlive the source.
std::unique_ptr<ByteSource> MakeMemorySource(std::string_view data);

// The most bytes a gzip input may inflate to, and what to tell the user when it does more
// (the option that raises the limit).
struct InflateLimit {
  std::uint64_t max_bytes = UINT64_MAX;
  std::string hint;  // e.g. "raise --max-decompressed-mib"
};

// Inflates gzip (RFC 1952, concatenated members allowed) from `compressed`. A stream that ends
// before its trailer is an error ("truncated gzip stream"), as is corrupt data, as is content
// beyond `limit` ("x.json.gz: inflates to more than 17179869184 bytes (raise ...)"). `name` is
// used in error messages.
std::unique_ptr<ByteSource> MakeGunzipSource(std::unique_ptr<ByteSource> compressed,
                                             std::string name,
                                             InflateLimit limit = {});

inline bool HasGzipMagic(std::string_view head) {
  return head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
         static_cast<unsigned char>(head[1]) == 0x8b;
}

// Reads everything (for small inputs and formats that need random access).
Result<std::string> ReadAll(ByteSource& source, std::size_t limit_bytes);

// The whole of a regular file (OpenFileSource: FIFOs and devices refused), at most
// `limit_bytes`: "x.json: larger than 1073741824 bytes". Every error names the path.
Result<std::string> ReadFileText(const std::string& path, std::size_t limit_bytes);

// The first `size` bytes of a regular file (fewer when it is shorter).
Result<std::string> ReadFileHead(const std::string& path, std::size_t size);

}  // namespace gpuperf::util
