// A streaming reader for Nsight Compute's CSV output, one line (record) at a time.
//
// ncu quotes every field, so a line that starts with '"' is a CSV record (RFC 4180: quoted fields
// with "" as an escaped quote, which may span lines); any other line is text that ncu or the
// profiled program printed in between (==PROF== ..., the program's stdout) and is returned whole.
#pragma once

#include "gpuperf/result.h"

#include <cstddef>
#include <string>
#include <vector>

#include "util/byte_source.h"

namespace gpuperf::io::ncu {

struct CsvLine {
  bool record = false;              // a CSV record; otherwise `text` holds a plain line
  std::vector<std::string> fields;  // record fields, unquoted
  std::string text;                 // the line without its end, for plain lines
  bool malformed = false;           // unterminated quote at the end of input, or text after a
                                    // closing quote
};

class CsvReader {
 public:
  explicit CsvReader(util::ByteSource& source) : source_(source) {}

  // Reads the next line into `line`. Returns false at the end of the input; an error when the
  // source fails (truncated gzip, I/O).
  Result<bool> Next(CsvLine& line);

  // Lines read so far (physical lines, for messages).
  std::size_t line_number() const { return line_number_; }

 private:
  // The next byte, or -1 at the end; refills from the source.
  Result<int> Get();
  Result<int> Peek();
  Status ReadRecord(CsvLine& line);
  Status ReadText(CsvLine& line);

  util::ByteSource& source_;
  std::string buffer_;
  std::size_t pos_ = 0;
  bool eof_ = false;
  bool bom_checked_ = false;
  std::size_t line_number_ = 0;
};

}  // namespace gpuperf::io::ncu
