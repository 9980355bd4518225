// Evaluation of util/expression.h: one pass over the post-order nodes.
#include "util/expression.h"

#include <algorithm>
#include <cmath>

namespace gpuperf::util {

std::optional<double> Expression::Evaluate(
    const std::function<std::optional<double>(std::string_view)>& lookup,
    ExpressionError& error) const {
  std::vector<double> values(nodes_.size());
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    const Node& n = nodes_[i];
    double l = n.lhs >= 0 ? values[static_cast<std::size_t>(n.lhs)] : 0.0;
    double r = n.rhs >= 0 ? values[static_cast<std::size_t>(n.rhs)] : 0.0;
    double v = 0;
    switch (n.op) {
      case Op::kNumber:
        v = n.value;
        break;
      case Op::kVariable: {
        std::optional<double> found = lookup(n.name);
        if (!found) {
          error = {0, n.name + " has no value"};
          return std::nullopt;
        }
        v = *found;
        break;
      }
      case Op::kAdd:
        v = l + r;
        break;
      case Op::kSub:
        v = l - r;
        break;
      case Op::kMul:
        v = l * r;
        break;
      case Op::kDiv:
        if (r == 0) {
          error = {0, "division by zero"};
          return std::nullopt;
        }
        v = l / r;
        break;
      case Op::kNeg:
        v = -l;
        break;
      case Op::kMin:
        v = std::min(l, r);
        break;
      case Op::kMax:
        v = std::max(l, r);
        break;
      case Op::kCeil:
        v = std::ceil(l);
        break;
      case Op::kFloor:
        v = std::floor(l);
        break;
    }
    if (!std::isfinite(v)) {
      error = {0, "not a finite number"};
      return std::nullopt;
    }
    values[i] = v;
  }
  if (values.empty()) {
    error = {0, "empty expression"};
    return std::nullopt;
  }
  return values.back();
}

std::vector<std::string> Expression::Identifiers() const {
  std::vector<std::string> names;
  for (const Node& n : nodes_) {
    if (n.op == Op::kVariable && std::find(names.begin(), names.end(), n.name) == names.end())
      names.push_back(n.name);
  }
  return names;
}

}  // namespace gpuperf::util
