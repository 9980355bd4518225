// A streaming JSON pull tokenizer (RFC 8259, strict) over a ByteSource. It never builds a DOM:
// callers pull one token at a time, so a document of any size is read with one buffer of a few
// MiB. Tokens may straddle reads from the source; the reader keeps the unfinished token.
//
// Example: {"a": [1, "x"]} yields kBeginObject, kKey("a"), kBeginArray, kNumber("1"),
// kString("x"), kEndArray, kEndObject, kEnd.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/byte_source.h"

namespace gpuperf::util {

enum class JsonToken : std::uint8_t {
  kBeginObject,
  kEndObject,
  kBeginArray,
  kEndArray,
  kKey,     // text(): the unescaped key; a value follows
  kString,  // text(): the unescaped string
  kNumber,  // text(): the literal as written ("-1.5e3"); never converted here
  kTrue,
  kFalse,
  kNull,
  kEnd,    // the document ended cleanly (only white space after it)
  kError,  // error() says what is wrong; every later call returns kError again
};

class JsonReader {
 public:
  static constexpr std::size_t kDefaultBufferBytes = std::size_t{1} << 20;
  static constexpr std::size_t kDefaultMaxDepth = 512;

  // `source` must outlive the reader. The buffer grows only for a single token longer than it.
  explicit JsonReader(ByteSource& source,
                      std::size_t buffer_bytes = kDefaultBufferBytes,
                      std::size_t max_depth = kDefaultMaxDepth);

  JsonToken Next();

  // The text of the last kKey/kString/kNumber/kTrue/kFalse/kNull token. Valid until Next().
  std::string_view text() const { return text_; }
  // Open containers after the last token (a kBeginObject at the top level gives 1).
  std::size_t depth() const { return stack_.size(); }
  // Absolute byte offset (0-based, decompressed) where the last token starts.
  std::uint64_t token_offset() const { return token_offset_; }

  // After kError: "<what is wrong> at byte N" (for example "trailing comma before ']' at byte
  // 812"), or the byte source's own message when reading failed (see source_failed()).
  const std::string& error() const { return error_; }
  // True when the error came from the byte source (it names the input itself).
  bool source_failed() const { return source_failed_; }

  // Skips the rest of the value whose first token `first` Next() just returned (nothing to do
  // for a scalar). Returns false on a syntax or read error.
  bool SkipValue(JsonToken first);
  // Appends that value to `out` as compact JSON (no white space), e.g. [[1,2],[]].
  bool AppendCompact(JsonToken first, std::string* out);

 private:
  enum class State : std::uint8_t {
    kStart,        // before the document
    kValue,        // after ':'
    kArrayFirst,   // after '['
    kArrayNext,    // after ',' in an array
    kObjectFirst,  // after '{'
    kObjectNext,   // after ',' in an object
    kColon,        // after a key
    kCommaOrEnd,   // after a value inside a container
    kDone,         // after the top-level value
    kError,
  };

  int PeekSignificant();
  bool Fill(std::size_t* index);
  JsonToken Value(int c);
  JsonToken Close(char c);
  JsonToken ReadString(JsonToken kind);
  JsonToken ReadNumber();
  JsonToken ReadLiteral(std::string_view word, JsonToken kind);
  bool DecodeEscapes(std::size_t begin, std::size_t end);
  void AfterValue() { state_ = stack_.empty() ? State::kDone : State::kCommaOrEnd; }
  JsonToken Fail(const std::string& what, std::uint64_t offset);
  JsonToken FailTruncated();

  ByteSource& source_;
  std::size_t max_depth_;
  std::vector<char> buffer_;
  std::size_t pos_ = 0;     // next unread byte in buffer_
  std::size_t end_ = 0;     // end of valid bytes in buffer_
  std::uint64_t base_ = 0;  // absolute offset of buffer_[0]
  bool eof_ = false;
  State state_ = State::kStart;
  std::vector<char> stack_;  // '{' or '[' per open container
  std::string scratch_;      // strings with escapes, decoded
  std::string_view text_;
  std::uint64_t token_offset_ = 0;
  std::string error_;
  bool source_failed_ = false;
};

}  // namespace gpuperf::util
