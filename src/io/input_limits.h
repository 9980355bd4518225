// How much any input may make gpuperf read: a 3.6 MB .gz can inflate to 1 GiB of events and a
// 73 MB one to 20 GiB, so decompressed size is bounded whatever the file's own size says. The CLI
// sets the limits from its options (--max-decompressed-mib) before importing; the defaults are
// for everyone else (tests, fuzzers, the benchmark).
#pragma once

#include <cstdint>
#include <string>

namespace gpuperf::io {

struct InputLimits {
  // Bytes that a gzip input may inflate to (the SQLite image of a .sqlite.gz included).
  std::uint64_t max_decompressed_bytes = std::uint64_t{16} << 30;
  // The option that raises it, for the error message.
  std::string decompressed_option = "--max-decompressed-mib";
};

// The process-wide limits. Set them before importing; reading them is thread-safe only while
// nobody sets them (the CLI sets them once, after parsing its options).
InputLimits& ProcessInputLimits();

}  // namespace gpuperf::io
