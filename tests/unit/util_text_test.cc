#include <catch2/catch.hpp>

#include "util/text.h"

using gpuperf::util::ToLower;
using gpuperf::util::Trim;

TEST_CASE("util text: Trim drops the C locale's white space at both ends only", "[util]") {
  CHECK(Trim(" \t\n\v\f\r k  l \r\n") == "k  l");
  CHECK(Trim("k") == "k");
  CHECK(Trim(" \t ").empty());
  CHECK(Trim("").empty());
  // A UTF-8 no-break space (C2 A0) is not white space to the parsers.
  CHECK(Trim("\xC2\xA0k") == "\xC2\xA0k");
}

TEST_CASE("util text: ToLower lowers ASCII letters and leaves other bytes", "[util]") {
  CHECK(ToLower("MSecond/Byte_9") == "msecond/byte_9");
  CHECK(ToLower("\xC3\x89t\xC3\xA9") == "\xC3\x89t\xC3\xA9");
  CHECK(ToLower("").empty());
}
