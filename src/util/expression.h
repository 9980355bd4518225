// Arithmetic expressions of the user model file (docs/metrics.md, "User model file"): numbers
// (1, 2.5, 1e6), identifiers, + - * /, unary minus, parentheses and min(a,b), max(a,b), ceil(a),
// floor(a). Parsed once by recursive descent into a flat node list in post-order (children before
// parents), so that evaluation is one loop, whatever the length of a chain like 1+1+...+1.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuperf::util {

// Why parsing or evaluation failed; `position` is the 0-based offset into the text (parsing
// only: evaluation failures have no position).
struct ExpressionError {
  std::size_t position = 0;
  std::string what;  // "unknown identifier 'X'", "expected ')'", "division by zero", ...
};

class Expression {
 public:
  // Nesting (parentheses, unary minus, function calls) deeper than this is refused: the parser
  // recurses once per level.
  static constexpr int kMaxDepth = 100;

  // Parses `text`; every identifier that is not a function call must satisfy `known`. On failure
  // returns nullopt and fills `error`.
  static std::optional<Expression> Parse(std::string_view text,
                                         const std::function<bool(std::string_view)>& known,
                                         ExpressionError& error);

  // The value with identifiers from `lookup` (nullopt: the variable has no value here, an
  // error naming it). Fails on division by zero and on a non-finite intermediate result.
  std::optional<double> Evaluate(
      const std::function<std::optional<double>(std::string_view)>& lookup,
      ExpressionError& error) const;

  // The distinct identifiers the expression reads, in first-use order.
  std::vector<std::string> Identifiers() const;

 private:
  enum class Op : std::uint8_t {
    kNumber,
    kVariable,
    kAdd,
    kSub,
    kMul,
    kDiv,
    kNeg,
    kMin,
    kMax,
    kCeil,
    kFloor
  };
  struct Node {
    Op op = Op::kNumber;
    double value = 0;  // kNumber
    std::string name;  // kVariable
    std::int32_t lhs = -1, rhs = -1;
  };
  friend class ExpressionParser;

  std::vector<Node> nodes_;  // post-order; the last node is the root
};

}  // namespace gpuperf::util
