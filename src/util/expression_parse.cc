// The parser of util/expression.h: recursive descent, nodes emitted in post-order.
#include <charconv>
#include <cmath>
#include <utility>

#include "util/expression.h"

namespace gpuperf::util {
namespace {

bool IsIdentifierStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

bool IsIdentifierChar(char c) {
  return IsIdentifierStart(c) || IsDigit(c);
}

std::string Quoted(std::string_view text) {
  return "'" + std::string(text) + "'";
}

}  // namespace

// Recursive descent over
//   expr := term (('+' | '-') term)*      term := unary (('*' | '/') unary)*
//   unary := ('-' | '+') unary | primary
//   primary := number | identifier | function '(' expr (',' expr)? ')' | '(' expr ')'
class ExpressionParser {
 public:
  ExpressionParser(std::string_view text,
                   const std::function<bool(std::string_view)>& known,
                   ExpressionError& error)
      : text_(text), known_(known), error_(error) {}

  std::optional<Expression> Run() {
    SkipSpace();
    if (pos_ == text_.size()) {
      Fail("empty expression");
      return std::nullopt;
    }
    if (!ParseExpr())
      return std::nullopt;
    if (pos_ != text_.size()) {
      Fail("unexpected " + Quoted(text_.substr(pos_, 1)));
      return std::nullopt;
    }
    return std::move(out_);
  }

 private:
  using Op = Expression::Op;

  bool Fail(std::string what) { return Fail(pos_, std::move(what)); }
  bool Fail(std::size_t at, std::string what) {
    error_ = {at, std::move(what)};
    return false;
  }
  bool Deeper() {
    if (++depth_ <= Expression::kMaxDepth)
      return true;
    return Fail("nested deeper than " + std::to_string(Expression::kMaxDepth) + " levels");
  }

  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t'))
      ++pos_;
  }
  bool Accept(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      SkipSpace();
      return true;
    }
    return false;
  }
  std::int32_t Top() const { return static_cast<std::int32_t>(out_.nodes_.size()) - 1; }
  void Push(Op op, std::int32_t lhs, std::int32_t rhs = -1) {
    Expression::Node node;
    node.op = op;
    node.lhs = lhs;
    node.rhs = rhs;
    out_.nodes_.push_back(std::move(node));
  }

  bool ParseExpr() {
    if (!Deeper() || !ParseTerm())
      return false;
    for (;;) {
      Op op = Op::kAdd;
      if (Accept('+'))
        op = Op::kAdd;
      else if (Accept('-'))
        op = Op::kSub;
      else
        break;
      std::int32_t lhs = Top();
      if (!ParseTerm())
        return false;
      Push(op, lhs, Top());
    }
    --depth_;
    return true;
  }

  bool ParseTerm() {
    if (!ParseUnary())
      return false;
    for (;;) {
      Op op = Op::kAdd;
      if (Accept('*'))
        op = Op::kMul;
      else if (Accept('/'))
        op = Op::kDiv;
      else
        break;
      std::int32_t lhs = Top();
      if (!ParseUnary())
        return false;
      Push(op, lhs, Top());
    }
    return true;
  }

  bool ParseUnary() {
    SkipSpace();
    if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+')) {
      bool negate = text_[pos_++] == '-';
      if (!Deeper() || !ParseUnary())
        return false;
      --depth_;
      if (negate)
        Push(Op::kNeg, Top());
      return true;
    }
    return ParsePrimary();
  }

  bool ParsePrimary() {
    SkipSpace();
    if (pos_ == text_.size())
      return Fail("unexpected end, expected a number, a name or '('");
    char c = text_[pos_];
    if (IsDigit(c) || c == '.')
      return ParseNumber();
    if (IsIdentifierStart(c))
      return ParseName();
    if (Accept('(')) {
      if (!ParseExpr())
        return false;
      if (!Accept(')'))
        return Fail("expected ')'");
      return true;
    }
    return Fail("unexpected " + Quoted(text_.substr(pos_, 1)));
  }

  bool ParseNumber() {
    std::size_t start = pos_;
    while (pos_ < text_.size() && IsDigit(text_[pos_]))
      ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      while (pos_ < text_.size() && IsDigit(text_[pos_]))
        ++pos_;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      std::size_t exponent = pos_ + 1;
      if (exponent < text_.size() && (text_[exponent] == '+' || text_[exponent] == '-'))
        ++exponent;
      if (exponent < text_.size() && IsDigit(text_[exponent])) {
        pos_ = exponent;
        while (pos_ < text_.size() && IsDigit(text_[pos_]))
          ++pos_;
      }
    }
    // "2x" or "1e" are typos, not a product.
    if (pos_ < text_.size() && IsIdentifierChar(text_[pos_]))
      return Fail(start, "malformed number " + Quoted(text_.substr(start, pos_ + 1 - start)));
    double value = 0;
    std::string_view span = text_.substr(start, pos_ - start);
    auto [end, ec] = std::from_chars(span.data(), span.data() + span.size(), value);
    if (ec != std::errc() || end != span.data() + span.size() || !std::isfinite(value))
      return Fail(start, "malformed number " + Quoted(span));
    Expression::Node node;
    node.value = value;
    out_.nodes_.push_back(std::move(node));
    return true;
  }

  bool ParseName() {
    std::size_t start = pos_;
    while (pos_ < text_.size() && IsIdentifierChar(text_[pos_]))
      ++pos_;
    std::string_view name = text_.substr(start, pos_ - start);
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == '(')
      return ParseCall(start, name);
    if (!known_(name))
      return Fail(start, "unknown identifier " + Quoted(name));
    Expression::Node node;
    node.op = Op::kVariable;
    node.name = std::string(name);
    out_.nodes_.push_back(std::move(node));
    return true;
  }

  bool ParseCall(std::size_t start, std::string_view name) {
    Op op = Op::kMin;
    int arity = 1;
    if (name == "min" || name == "max") {
      op = name == "min" ? Op::kMin : Op::kMax;
      arity = 2;
    } else if (name == "ceil" || name == "floor") {
      op = name == "ceil" ? Op::kCeil : Op::kFloor;
    } else {
      return Fail(start, "unknown function " + Quoted(name) + " (min, max, ceil, floor)");
    }
    Accept('(');
    std::int32_t args[2] = {-1, -1};
    for (int i = 0; i < arity; ++i) {
      if (i > 0 && !Accept(','))
        return Fail(std::string(name) + " takes 2 arguments, expected ','");
      if (!ParseExpr())
        return false;
      args[i] = Top();
    }
    if (!Accept(')')) {
      return Fail(std::string(name) + " takes " + std::to_string(arity) +
                  (arity == 1 ? " argument" : " arguments") + ", expected ')'");
    }
    Push(op, args[0], args[1]);
    return true;
  }

  std::string_view text_;
  const std::function<bool(std::string_view)>& known_;
  ExpressionError& error_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  Expression out_;
};

std::optional<Expression> Expression::Parse(std::string_view text,
                                            const std::function<bool(std::string_view)>& known,
                                            ExpressionError& error) {
  return ExpressionParser(text, known, error).Run();
}

}  // namespace gpuperf::util
