#include "io/ncu/csv_reader.h"

namespace gpuperf::io::ncu {
namespace {

constexpr std::size_t kChunkBytes = 64 * 1024;

}  // namespace

Result<int> CsvReader::Peek() {
  if (pos_ < buffer_.size())
    return static_cast<unsigned char>(buffer_[pos_]);
  if (eof_)
    return -1;
  buffer_.resize(kChunkBytes);
  auto read = source_.Read(buffer_.data(), buffer_.size());
  if (!read.ok())
    return read.error();
  buffer_.resize(*read);
  pos_ = 0;
  if (*read == 0) {
    eof_ = true;
    return -1;
  }
  return static_cast<unsigned char>(buffer_[pos_]);
}

Result<int> CsvReader::Get() {
  auto c = Peek();
  if (c.ok() && *c >= 0)
    ++pos_;
  return c;
}

Status CsvReader::ReadText(CsvLine& line) {
  for (;;) {
    auto c = Get();
    if (!c.ok())
      return c.error();
    if (*c < 0 || *c == '\n')
      break;
    line.text += static_cast<char>(*c);
  }
  if (!line.text.empty() && line.text.back() == '\r')
    line.text.pop_back();
  return Status::Ok();
}

// Fields: "quoted ""text""" or bare text, separated by commas, up to the end of the line.
Status CsvReader::ReadRecord(CsvLine& line) {
  line.record = true;
  std::string field;
  bool quoted = false;      // inside quotes
  bool was_quoted = false;  // this field was quoted and closed
  for (;;) {
    auto c = Get();
    if (!c.ok())
      return c.error();
    if (*c < 0) {
      if (quoted)
        line.malformed = true;  // the input ends inside a quoted field
      break;
    }
    char ch = static_cast<char>(*c);
    if (quoted) {
      if (ch == '\n')
        ++line_number_;
      if (ch != '"') {
        field += ch;
        continue;
      }
      auto next = Peek();
      if (!next.ok())
        return next.error();
      if (*next == '"') {
        (void)Get();
        field += '"';
      } else {
        quoted = false;
        was_quoted = true;
      }
      continue;
    }
    if (ch == ',') {
      line.fields.push_back(std::move(field));
      field.clear();
      was_quoted = false;
      continue;
    }
    if (ch == '\n')
      break;
    if (ch == '\r')
      continue;
    if (ch == '"' && field.empty() && !was_quoted) {
      quoted = true;
      continue;
    }
    if (was_quoted)
      line.malformed = true;  // text after a closing quote: "a"b
    field += ch;
  }
  line.fields.push_back(std::move(field));
  return Status::Ok();
}

Result<bool> CsvReader::Next(CsvLine& line) {
  line = CsvLine{};
  if (!bom_checked_) {
    bom_checked_ = true;
    auto first = Peek();
    if (!first.ok())
      return first.error();
    if (buffer_.size() >= 3 && buffer_.compare(0, 3, "\xEF\xBB\xBF") == 0)
      pos_ = 3;
  }
  auto c = Peek();
  if (!c.ok())
    return c.error();
  if (*c < 0)
    return false;
  ++line_number_;
  Status status = *c == '"' ? ReadRecord(line) : ReadText(line);
  if (!status.ok())
    return status.error();
  return true;
}

}  // namespace gpuperf::io::ncu
