// Exact µs -> ns parsing of Kineto timestamps: never through a double.
#include <catch2/catch.hpp>

#include "io/kineto/numbers.h"

namespace gpuperf::io::kineto {
namespace {

TEST_CASE("ParseMicrosAsNs reads integer and fractional microseconds exactly", "[kineto]") {
  CHECK(ParseMicrosAsNs("0") == 0);
  CHECK(ParseMicrosAsNs("12") == 12000);
  CHECK(ParseMicrosAsNs("1694128201426674") == 1694128201426674000);
  CHECK(ParseMicrosAsNs("3.5") == 3500);
  CHECK(ParseMicrosAsNs("3.05") == 3050);
  CHECK(ParseMicrosAsNs("3.005") == 3005);
  CHECK(ParseMicrosAsNs("30669.0") == 30669000);
  CHECK(ParseMicrosAsNs("-0.5") == -500);
  CHECK(ParseMicrosAsNs("-12.345") == -12345);
  // 19 significant digits (HTA ns_resolution_trace): a double would be off by up to 128 ns.
  CHECK(ParseMicrosAsNs("1712195495519689.047") == 1712195495519689047);
}

TEST_CASE("ParseMicrosAsNs rounds sub-nanosecond digits to nearest, halves away from zero",
          "[kineto]") {
  CHECK(ParseMicrosAsNs("1.0004") == 1000);
  CHECK(ParseMicrosAsNs("1.0005") == 1001);
  CHECK(ParseMicrosAsNs("-1.0005") == -1001);
  CHECK(ParseMicrosAsNs("0.00049999") == 0);
  CHECK(ParseMicrosAsNs("1712195495519689.0474999") == 1712195495519689047);
}

TEST_CASE("ParseMicrosAsNs handles exponent forms exactly", "[kineto]") {
  CHECK(ParseMicrosAsNs("1.5e3") == 1500000);
  CHECK(ParseMicrosAsNs("1.712195495519689047E15") == 1712195495519689047);
  CHECK(ParseMicrosAsNs("2E-3") == 2);
  CHECK(ParseMicrosAsNs("1e-4") == 0);
  CHECK(ParseMicrosAsNs("5e-4") == 1);
  CHECK(ParseMicrosAsNs("0e99999999") == 0);
}

TEST_CASE("ParseMicrosAsNs rejects non-numbers and overflow", "[kineto]") {
  CHECK_FALSE(ParseMicrosAsNs(""));
  CHECK_FALSE(ParseMicrosAsNs("-"));
  CHECK_FALSE(ParseMicrosAsNs("1."));
  CHECK_FALSE(ParseMicrosAsNs(".5"));
  CHECK_FALSE(ParseMicrosAsNs("1e"));
  CHECK_FALSE(ParseMicrosAsNs("12a"));
  CHECK_FALSE(ParseMicrosAsNs("9223372036854776"));  // × 1000 > int64
  CHECK(ParseMicrosAsNs("9223372036854775.807") == 9223372036854775807);
  CHECK(ParseMicrosAsNs("-9223372036854775.808") == INT64_MIN);
  CHECK_FALSE(ParseMicrosAsNs("1e300"));
}

TEST_CASE("ParseInt64 accepts integers only, up to int64", "[kineto]") {
  CHECK(ParseInt64("-42") == -42);
  CHECK(ParseInt64("42.0") == 42);
  CHECK(ParseInt64("1759300074000000000") == 1759300074000000000);
  CHECK(ParseInt64("9223372036854775807") == INT64_MAX);
  CHECK_FALSE(ParseInt64("9223372036854775808"));
  CHECK_FALSE(ParseInt64("10159970886766084423"));  // "Comms Id" > 2^63
  CHECK_FALSE(ParseInt64("42.5"));
  CHECK(ParseInt64("4.2e1") == 42);
}

TEST_CASE("ParseEmbeddedInt normalises string ids", "[kineto]") {
  CHECK(ParseEmbeddedInt("25738") == 25738);
  CHECK(ParseEmbeddedInt("stream 7") == 7);
  CHECK(ParseEmbeddedInt("stream 7 (sync)") == 7);
  CHECK(ParseEmbeddedInt("Stream 1 FW") == 1);
  CHECK_FALSE(ParseEmbeddedInt("PyTorch Profiler"));
  CHECK_FALSE(ParseEmbeddedInt("Spans"));
  CHECK_FALSE(ParseEmbeddedInt(""));
}

}  // namespace
}  // namespace gpuperf::io::kineto
