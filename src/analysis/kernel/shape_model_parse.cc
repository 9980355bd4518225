// Readers of the profiler's compact JSON for op arguments: "Input Dims" ([[4, 3, 224, 224], [],
// [[1, 2], [3]]]), "Input type" and "Concrete Inputs" (arrays of strings), and the concrete values
// inside the latter ("[16, 16]", "1", "False").
#include <string>
#include <utility>

#include "analysis/kernel/shape_model.h"
#include "analysis/kernel/shape_model_ops.h"

namespace gpuperf::analysis {
namespace {

using shape::Dims;

class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}
  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\t' || text_[pos_] == '\r'))
      ++pos_;
  }
  bool Eat(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  char Peek() {
    SkipSpace();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  bool AtEnd() {
    SkipSpace();
    return pos_ == text_.size();
  }
  // A non-negative integer literal.
  std::optional<std::int64_t> Integer() {
    SkipSpace();
    std::int64_t value = 0;
    std::size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      if (__builtin_mul_overflow(value, 10, &value) ||
          __builtin_add_overflow(value, text_[pos_] - '0', &value))
        return std::nullopt;
      ++pos_;
    }
    if (pos_ == start)
      return std::nullopt;
    return value;
  }
  // A JSON string; escapes other than \" and \\ are kept as written.
  std::optional<std::string> String() {
    if (!Eat('"'))
      return std::nullopt;
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size() &&
          (text_[pos_ + 1] == '"' || text_[pos_ + 1] == '\\'))
        ++pos_;
      out += text_[pos_++];
    }
    if (pos_ == text_.size())
      return std::nullopt;
    ++pos_;
    return out;
  }
  // Skips any one JSON value; false when malformed.
  bool SkipValue() {
    char c = Peek();
    if (c == '"')
      return String().has_value();
    if (c == '[' || c == '{') {
      char close = c == '[' ? ']' : '}';
      ++pos_;
      if (Eat(close))
        return true;
      do {
        if (c == '{' && (!String() || !Eat(':')))
          return false;
        if (!SkipValue())
          return false;
      } while (Eat(','));
      return Eat(close);
    }
    std::size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != ']' && text_[pos_] != '}' &&
           text_[pos_] != ' ')
      ++pos_;
    return pos_ > start;
  }
  // A flat list of non-negative integers "[1, 2]" ("[]" included); nullopt, with the position
  // unchanged, for anything else.
  std::optional<Dims> IntList() {
    std::size_t start = pos_;
    if (!Eat('['))
      return std::nullopt;
    Dims dims;
    if (Eat(']'))
      return dims;
    do {
      auto value = Integer();
      if (!value) {
        pos_ = start;
        return std::nullopt;
      }
      dims.push_back(*value);
    } while (Eat(','));
    if (!Eat(']')) {
      pos_ = start;
      return std::nullopt;
    }
    return dims;
  }
  // One "Input Dims" entry: a flat list of integers, or nullopt (after skipping it) for anything
  // else. Sets *ok false when malformed.
  std::optional<Dims> DimsEntry(bool* ok) {
    if (Peek() == '[') {
      if (auto dims = IntList())
        return dims;
    }
    *ok = SkipValue();
    return std::nullopt;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

// A JSON array of strings.
std::optional<std::vector<std::string>> ParseStringArray(std::string_view json) {
  Cursor c(json);
  if (!c.Eat('['))
    return std::nullopt;
  std::vector<std::string> out;
  if (c.Eat(']'))
    return c.AtEnd() ? std::optional(out) : std::nullopt;
  do {
    auto s = c.String();
    if (!s)
      return std::nullopt;
    out.push_back(std::move(*s));
  } while (c.Eat(','));
  if (!c.Eat(']') || !c.AtEnd())
    return std::nullopt;
  return out;
}

}  // namespace

std::optional<InputDims> ParseInputDims(std::string_view json) {
  Cursor c(json);
  if (!c.Eat('['))
    return std::nullopt;
  InputDims out;
  if (c.Eat(']'))
    return c.AtEnd() ? std::optional<InputDims>(out) : std::nullopt;
  do {
    bool ok = true;
    out.push_back(c.DimsEntry(&ok));
    if (!ok)
      return std::nullopt;
  } while (c.Eat(','));
  if (!c.Eat(']') || !c.AtEnd())
    return std::nullopt;
  return out;
}

std::optional<std::vector<std::string>> ParseInputTypes(std::string_view json) {
  return ParseStringArray(json);
}

std::optional<std::vector<std::string>> ParseConcreteInputs(std::string_view json) {
  return ParseStringArray(json);
}

namespace shape {

std::optional<Dims> ParseIntList(std::string_view value) {
  Cursor c(value);
  if (c.Peek() == '[') {
    auto dims = c.IntList();
    return dims && c.AtEnd() ? dims : std::nullopt;
  }
  auto one = c.Integer();
  if (!one || !c.AtEnd())
    return std::nullopt;
  return Dims{*one};
}

Int ParseInt(std::string_view value) {
  Cursor c(value);
  auto v = c.Integer();
  return v && c.AtEnd() ? v : std::nullopt;
}

std::optional<bool> ParseBool(std::string_view value) {
  if (value == "True")
    return true;
  if (value == "False")
    return false;
  return std::nullopt;
}

}  // namespace shape
}  // namespace gpuperf::analysis
