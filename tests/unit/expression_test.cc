// The formula language of the user model file (util/expression.h): precedence, parentheses,
// unary minus, functions, number forms, and errors with their position, all by hand.
#include "util/expression.h"

#include <catch2/catch.hpp>

#include <map>
#include <optional>
#include <string>

namespace {

using gpuperf::util::Expression;
using gpuperf::util::ExpressionError;

const std::map<std::string, double> kVariables = {{"M", 4096}, {"N", 2}, {"K", 3}, {"zero", 0}};

bool Known(std::string_view name) {
  return kVariables.count(std::string(name)) > 0;
}

std::optional<double> Lookup(std::string_view name) {
  auto it = kVariables.find(std::string(name));
  return it == kVariables.end() ? std::nullopt : std::optional<double>(it->second);
}

double Eval(const std::string& text) {
  ExpressionError error;
  auto e = Expression::Parse(text, Known, error);
  INFO(text << ": " << error.what << " at " << error.position);
  REQUIRE(e.has_value());
  auto value = e->Evaluate(Lookup, error);
  INFO(error.what);
  REQUIRE(value.has_value());
  return *value;
}

ExpressionError ParseError(const std::string& text) {
  ExpressionError error;
  auto e = Expression::Parse(text, Known, error);
  INFO(text);
  CHECK_FALSE(e.has_value());
  return error;
}

}  // namespace

TEST_CASE("expression: precedence, associativity and parentheses", "[kernel_model]") {
  CHECK(Eval("1 + 2 * 3") == 7);
  CHECK(Eval("(1 + 2) * 3") == 9);
  CHECK(Eval("10 - 4 - 3") == 3);  // left-associative: (10 - 4) - 3
  CHECK(Eval("24 / 4 / 2") == 3);
  CHECK(Eval("2 * 3 / 4") == 1.5);
  CHECK(Eval("1 + 2 * 3 - 8 / 4") == 5);
  CHECK(Eval("((((7))))") == 7);
  CHECK(Eval("2*M*N*K") == 2.0 * 4096 * 2 * 3);       // 49152
  CHECK(Eval("4*(M*K + K*N + M*N)") == 4.0 * 20486);  // 12288 + 6 + 8192 = 20486
}

TEST_CASE("expression: unary minus and plus", "[kernel_model]") {
  CHECK(Eval("-3 + 5") == 2);
  CHECK(Eval("2 * -3") == -6);
  CHECK(Eval("--4") == 4);
  CHECK(Eval("-(1 + 2) * 2") == -6);
  CHECK(Eval("+N") == 2);
  CHECK(Eval("1 - -1") == 2);
}

TEST_CASE("expression: functions min, max, ceil, floor", "[kernel_model]") {
  CHECK(Eval("min(3, 4)") == 3);
  CHECK(Eval("max(3, 4)") == 4);
  CHECK(Eval("ceil(7 / 2)") == 4);
  CHECK(Eval("floor(7 / 2)") == 3);
  CHECK(Eval("ceil(-2.5)") == -2);
  CHECK(Eval("max(min(M, 100), 2) * ceil(K / N)") == 200);  // 100 * ceil(1.5)
  CHECK(Eval(" min ( 1 , 2 ) ") == 1);
}

TEST_CASE("expression: numbers with decimals and exponents", "[kernel_model]") {
  CHECK(Eval("1e6") == 1e6);
  CHECK(Eval("2.5E-3 * 1000") == Approx(2.5));
  CHECK(Eval("1.5e+2") == 150);
  CHECK(Eval(".5 + 0.25") == 0.75);
  CHECK(Eval("007") == 7);
}

TEST_CASE("expression: syntax errors say what and where", "[kernel_model]") {
  ExpressionError e = ParseError("2*M*X");
  CHECK(e.what == "unknown identifier 'X'");
  CHECK(e.position == 4);
  e = ParseError("2*M )");
  CHECK(e.what == "unexpected ')'");
  CHECK(e.position == 4);
  e = ParseError("(1 + 2");
  CHECK(e.what == "expected ')'");
  CHECK(e.position == 6);
  e = ParseError("1 +");
  CHECK(e.position == 3);
  e = ParseError("2M");
  CHECK(e.what == "malformed number '2M'");
  CHECK(e.position == 0);
  e = ParseError("M ^ 2");
  CHECK(e.what == "unexpected '^'");
  CHECK(e.position == 2);
  CHECK(ParseError("M ** 2").position == 3);
  e = ParseError("sqrt(M)");
  CHECK(e.what.find("unknown function 'sqrt'") == 0);
  e = ParseError("min(1)");
  CHECK(e.what == "min takes 2 arguments, expected ','");
  e = ParseError("ceil(1, 2)");
  CHECK(e.what == "ceil takes 1 argument, expected ')'");
  CHECK(ParseError("").what == "empty expression");
  CHECK(ParseError("   ").what == "empty expression");
  CHECK(ParseError(std::string(200, '(') + "1" + std::string(200, ')')).what ==
        "nested deeper than 100 levels");
}

TEST_CASE("expression: evaluation errors, long chains evaluate without recursion",
          "[kernel_model]") {
  ExpressionError error;
  auto e = Expression::Parse("M / (K - 3)", Known, error);
  REQUIRE(e.has_value());
  CHECK_FALSE(e->Evaluate(Lookup, error).has_value());
  CHECK(error.what == "division by zero");
  e = Expression::Parse("1e300 * 1e300", Known, error);
  REQUIRE(e.has_value());
  CHECK_FALSE(e->Evaluate(Lookup, error).has_value());
  CHECK(error.what == "not a finite number");
  e = Expression::Parse("M * N", Known, error);
  REQUIRE(e.has_value());
  CHECK(e->Identifiers() == std::vector<std::string>{"M", "N"});
  auto no_n = [](std::string_view name) -> std::optional<double> {
    return name == "M" ? std::optional<double>(1) : std::nullopt;
  };
  CHECK_FALSE(e->Evaluate(no_n, error).has_value());
  CHECK(error.what == "N has no value");

  std::string chain = "1";
  for (int i = 0; i < 100000; ++i)
    chain += "+1";
  CHECK(Eval(chain) == 100001);
}
