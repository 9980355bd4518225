#include "util/json_reader.h"

#include <cstring>

#include "util/json_text.h"

namespace gpuperf::util {

using json_text::AppendQuoted;
using json_text::AppendUtf8;
using json_text::ClassOf;
using json_text::Describe;
using json_text::HasStringStop;
using json_text::HexValue;
using json_text::IsDigit;
using json_text::IsJsonNumber;
using json_text::kClass;
using json_text::kNumberByte;
using json_text::kSpace;
using json_text::kStringStop;

JsonReader::JsonReader(ByteSource& source, std::size_t buffer_bytes, std::size_t max_depth)
    : source_(source), max_depth_(max_depth), buffer_(buffer_bytes < 16 ? 16 : buffer_bytes) {}

JsonToken JsonReader::Fail(const std::string& what, std::uint64_t offset) {
  if (state_ != State::kError)
    error_ = what + " at byte " + std::to_string(offset);
  state_ = State::kError;
  return JsonToken::kError;
}

JsonToken JsonReader::FailTruncated() {
  if (state_ == State::kError)
    return JsonToken::kError;  // the source failed
  std::string inside = stack_.empty()         ? "before the value ends"
                       : stack_.back() == '{' ? "inside an object"
                                              : "inside an array";
  return Fail("truncated JSON: the document ends " + inside, base_ + end_);
}

// Makes bytes after end_ available, keeping the unfinished token [pos_, end_). `index` (a
// position in the buffer) is moved along with the bytes. False at the end of input or on error.
bool JsonReader::Fill(std::size_t* index) {
  if (eof_ || state_ == State::kError)
    return false;
  if (pos_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + pos_, end_ - pos_);
    end_ -= pos_;
    *index -= pos_;
    base_ += pos_;
    pos_ = 0;
  }
  if (end_ == buffer_.size())
    buffer_.resize(buffer_.size() * 2);  // one token > the buffer
  auto n = source_.Read(buffer_.data() + end_, buffer_.size() - end_);
  if (!n.ok()) {
    error_ = n.error().message;
    source_failed_ = true;
    state_ = State::kError;
    return false;
  }
  if (*n == 0) {
    eof_ = true;
    return false;
  }
  end_ += *n;
  return true;
}

// Skips white space; returns the next byte without consuming it, -1 at the end, -2 on error.
int JsonReader::PeekSignificant() {
  constexpr std::uint64_t kEightSpaces = 0x2020202020202020ULL;
  for (;;) {
    // Pretty-printed traces are 40% indentation: skip it 8 bytes at a time.
    while (pos_ < end_) {
      std::uint64_t x = 0;
      if (pos_ + 8 <= end_)
        std::memcpy(&x, buffer_.data() + pos_, sizeof(x));
      if (x == kEightSpaces) {
        pos_ += 8;
      } else if (ClassOf(buffer_[pos_]) & kSpace) {
        ++pos_;
      } else {
        break;
      }
    }
    if (pos_ < end_)
      return static_cast<unsigned char>(buffer_[pos_]);
    std::size_t ignored = pos_;
    if (!Fill(&ignored))
      return state_ == State::kError ? -2 : -1;
  }
}

JsonToken JsonReader::Next() {
  for (;;) {
    if (state_ == State::kError)
      return JsonToken::kError;
    int c = PeekSignificant();
    if (c == -2)
      return JsonToken::kError;
    token_offset_ = base_ + pos_;
    if (c == -1) {
      if (state_ == State::kDone)
        return JsonToken::kEnd;
      if (state_ == State::kStart)
        return Fail("empty document: no JSON value", token_offset_);
      return FailTruncated();
    }
    switch (state_) {
      case State::kStart:
      case State::kValue:
      case State::kArrayFirst:
        if (c == ']' && state_ == State::kArrayFirst)
          return Close(']');
        return Value(c);
      case State::kArrayNext:
        if (c == ']')
          return Fail("trailing comma before ']'", token_offset_);
        return Value(c);
      case State::kObjectFirst:
      case State::kObjectNext:
        if (c == '"')
          return ReadString(JsonToken::kKey);
        if (c == '}' && state_ == State::kObjectFirst)
          return Close('}');
        if (c == '}')
          return Fail("trailing comma before '}'", token_offset_);
        return Fail("expected an object key (a string) but found " + Describe(c), token_offset_);
      case State::kColon:
        if (c != ':')
          return Fail("expected ':' after an object key", token_offset_);
        ++pos_;
        state_ = State::kValue;
        continue;
      case State::kCommaOrEnd: {
        char close = stack_.back() == '{' ? '}' : ']';
        if (c == close)
          return Close(close);
        if (c != ',') {
          return Fail(std::string("expected ',' or '") + close + "' but found " + Describe(c),
                      token_offset_);
        }
        ++pos_;
        state_ = close == '}' ? State::kObjectNext : State::kArrayNext;
        continue;
      }
      case State::kDone:
        return Fail("unexpected data after the JSON document", token_offset_);
      case State::kError:
        return JsonToken::kError;
    }
  }
}

JsonToken JsonReader::Value(int c) {
  switch (c) {
    case '{':
    case '[':
      if (stack_.size() >= max_depth_) {
        return Fail("JSON nested deeper than " + std::to_string(max_depth_) + " levels",
                    token_offset_);
      }
      ++pos_;
      stack_.push_back(static_cast<char>(c));
      state_ = c == '{' ? State::kObjectFirst : State::kArrayFirst;
      return c == '{' ? JsonToken::kBeginObject : JsonToken::kBeginArray;
    case '"':
      return ReadString(JsonToken::kString);
    case 't':
      return ReadLiteral("true", JsonToken::kTrue);
    case 'f':
      return ReadLiteral("false", JsonToken::kFalse);
    case 'n':
      return ReadLiteral("null", JsonToken::kNull);
    default:
      if (c == '-' || IsDigit(static_cast<char>(c)))
        return ReadNumber();
      return Fail("expected a JSON value but found " + Describe(c), token_offset_);
  }
}

JsonToken JsonReader::Close(char c) {
  ++pos_;
  stack_.pop_back();
  AfterValue();
  return c == '}' ? JsonToken::kEndObject : JsonToken::kEndArray;
}

JsonToken JsonReader::ReadString(JsonToken kind) {
  std::size_t i = pos_ + 1;
  bool escaped = false;
  for (;;) {
    if (i >= end_) {
      if (!Fill(&i))
        return FailTruncated();
      continue;
    }
    while (i + 8 <= end_ && !HasStringStop(buffer_.data() + i))
      i += 8;
    if (i >= end_)
      continue;
    auto u = static_cast<unsigned char>(buffer_[i]);
    if (!(kClass[u] & kStringStop)) {
      ++i;
      continue;
    }
    if (u == '"')
      break;
    if (u == '\\') {
      escaped = true;
      i += 2;  // the escaped byte is checked by DecodeEscapes
      continue;
    }
    if (u < 0x20)
      return Fail("control character " + Describe(u) + " in a string", base_ + i);
    ++i;
  }
  if (escaped) {
    if (!DecodeEscapes(pos_ + 1, i))
      return JsonToken::kError;
    text_ = scratch_;
  } else {
    text_ = std::string_view(buffer_.data() + pos_ + 1, i - pos_ - 1);
  }
  pos_ = i + 1;
  if (kind == JsonToken::kKey) {
    state_ = State::kColon;
  } else {
    AfterValue();
  }
  return kind;
}

bool JsonReader::DecodeEscapes(std::size_t begin, std::size_t end) {
  scratch_.clear();
  auto hex4 = [&](std::size_t at) -> long {
    if (at + 4 > end)
      return -1;
    long v = 0;
    for (std::size_t k = at; k < at + 4; ++k) {
      int h = HexValue(buffer_[k]);
      if (h < 0)
        return -1;
      v = v * 16 + h;
    }
    return v;
  };
  for (std::size_t i = begin; i < end; ++i) {
    if (buffer_[i] != '\\') {
      scratch_.push_back(buffer_[i]);
      continue;
    }
    char e = buffer_[++i];
    static constexpr std::string_view kFrom = "\"\\/bfnrt";
    static constexpr std::string_view kTo = "\"\\/\b\f\n\r\t";
    if (auto k = kFrom.find(e); k != std::string_view::npos) {
      scratch_.push_back(kTo[k]);
      continue;
    }
    long cp = e == 'u' ? hex4(i + 1) : -1;
    if (cp < 0) {
      Fail("invalid escape sequence in a string", base_ + i - 1);
      return false;
    }
    i += 4;
    if (cp >= 0xd800 && cp < 0xdc00 && i + 2 < end && buffer_[i + 1] == '\\' &&
        buffer_[i + 2] == 'u') {
      long low = hex4(i + 3);
      if (low >= 0xdc00 && low < 0xe000) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        i += 6;
      }
    }
    if (cp >= 0xd800 && cp < 0xe000)
      cp = 0xfffd;  // lone surrogate: replacement character
    AppendUtf8(static_cast<std::uint32_t>(cp), &scratch_);
  }
  return true;
}

JsonToken JsonReader::ReadNumber() {
  std::size_t i = pos_;
  for (;;) {
    if (i >= end_) {
      if (!Fill(&i)) {
        if (state_ == State::kError)
          return JsonToken::kError;
        break;  // a number may end the input (a bare top-level number)
      }
      continue;
    }
    if (!(ClassOf(buffer_[i]) & kNumberByte))
      break;
    ++i;
  }
  std::string_view lexeme(buffer_.data() + pos_, i - pos_);
  if (!IsJsonNumber(lexeme)) {
    return Fail("invalid number '" + std::string(lexeme.substr(0, 40)) + "'", token_offset_);
  }
  text_ = lexeme;
  pos_ = i;
  AfterValue();
  return JsonToken::kNumber;
}

JsonToken JsonReader::ReadLiteral(std::string_view word, JsonToken kind) {
  std::size_t ignored = pos_;
  while (end_ - pos_ < word.size() && Fill(&ignored)) {
  }
  if (state_ == State::kError)
    return JsonToken::kError;
  if (std::string_view(buffer_.data() + pos_, std::min(word.size(), end_ - pos_)) != word) {
    if (end_ - pos_ < word.size() && eof_)
      return FailTruncated();
    return Fail("invalid literal (expected " + std::string(word) + ")", token_offset_);
  }
  text_ = word;
  pos_ += word.size();
  AfterValue();
  return kind;
}

bool JsonReader::SkipValue(JsonToken first) {
  if (first == JsonToken::kError)
    return false;
  if (first != JsonToken::kBeginObject && first != JsonToken::kBeginArray)
    return true;
  std::size_t target = depth() - 1;
  while (depth() > target) {
    if (Next() == JsonToken::kError)
      return false;
  }
  return true;
}

bool JsonReader::AppendCompact(JsonToken first, std::string* out) {
  bool begins = first == JsonToken::kBeginObject || first == JsonToken::kBeginArray;
  std::size_t target = depth() - (begins ? 1 : 0);
  bool need_comma = false;
  for (JsonToken t = first;; t = Next()) {
    if (t == JsonToken::kError || t == JsonToken::kEnd)
      return false;
    bool closes = t == JsonToken::kEndObject || t == JsonToken::kEndArray;
    if (need_comma && !closes)
      out->push_back(',');
    switch (t) {
      case JsonToken::kBeginObject:
        out->push_back('{');
        break;
      case JsonToken::kBeginArray:
        out->push_back('[');
        break;
      case JsonToken::kEndObject:
        out->push_back('}');
        break;
      case JsonToken::kEndArray:
        out->push_back(']');
        break;
      case JsonToken::kKey:
        AppendQuoted(text_, out);
        out->push_back(':');
        break;
      case JsonToken::kString:
        AppendQuoted(text_, out);
        break;
      default:
        out->append(text_);
        break;
    }
    need_comma =
        t != JsonToken::kBeginObject && t != JsonToken::kBeginArray && t != JsonToken::kKey;
    if (depth() == target)
      return true;
  }
}

}  // namespace gpuperf::util
