// The streaming JSON tokenizer: tokens, escapes, chunk boundaries and one-line errors with offsets.
#include "util/json_reader.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "util/byte_source.h"

namespace gpuperf::util {
namespace {

// Hands out at most `step` bytes per Read, so that every token straddles reads.
class TrickleSource final : public ByteSource {
 public:
  TrickleSource(std::string data, std::size_t step) : data_(std::move(data)), step_(step) {}
  Result<std::size_t> Read(char* buffer, std::size_t size) override {
    std::size_t n = std::min({size, step_, data_.size() - offset_});
    data_.copy(buffer, n, offset_);
    offset_ += n;
    return n;
  }

 private:
  std::string data_;
  std::size_t step_;
  std::size_t offset_ = 0;
};

// Renders the token stream as text: "{ k:a [ 1 s:x ] } END", or "... ERROR(<message>)".
std::string Tokens(const std::string& json, std::size_t step = 1 << 20, std::size_t buffer = 16) {
  TrickleSource source(json, step);
  JsonReader reader(source, buffer);
  std::string out;
  for (;;) {
    JsonToken t = reader.Next();
    if (!out.empty())
      out += ' ';
    switch (t) {
      case JsonToken::kBeginObject:
        out += '{';
        break;
      case JsonToken::kEndObject:
        out += '}';
        break;
      case JsonToken::kBeginArray:
        out += '[';
        break;
      case JsonToken::kEndArray:
        out += ']';
        break;
      case JsonToken::kKey:
        out += "k:" + std::string(reader.text());
        break;
      case JsonToken::kString:
        out += "s:" + std::string(reader.text());
        break;
      case JsonToken::kNumber:
      case JsonToken::kTrue:
      case JsonToken::kFalse:
      case JsonToken::kNull:
        out += reader.text();
        break;
      case JsonToken::kEnd:
        return out + "END";
      case JsonToken::kError:
        return out + "ERROR(" + reader.error() + ")";
    }
  }
}

std::string ErrorOf(const std::string& json) {
  std::string tokens = Tokens(json);
  auto at = tokens.find("ERROR(");
  return at == std::string::npos ? "no error" : tokens.substr(at + 6, tokens.size() - at - 7);
}

TEST_CASE("JsonReader yields every token kind in order", "[json_reader]") {
  CHECK(Tokens(R"({"a": [1, -2.5e3, "x", true, false, null], "b": {}})") ==
        "{ k:a [ 1 -2.5e3 s:x true false null ] k:b { } } END");
  CHECK(Tokens("[]") == "[ ] END");
  CHECK(Tokens("  42  ") == "42 END");
}

TEST_CASE("JsonReader gives the same tokens when every byte arrives alone", "[json_reader]") {
  std::string json =
      R"({"traceEvents": [{"ph": "X", "name": "a long kernel name \"quoted\" \u00e9", )"
      R"("ts": 1712195495519689.047, "args": {"grid": [1, 2, 3]}}]})";
  std::string whole = Tokens(json);
  CHECK(whole.find("ERROR") == std::string::npos);
  CHECK(Tokens(json, 1, 16) == whole);  // tiny buffer: grows for the long string
  CHECK(Tokens(json, 3, 64) == whole);
  CHECK(whole.find("s:a long kernel name \"quoted\" \xc3\xa9") != std::string::npos);
  CHECK(whole.find(" 1712195495519689.047 ") != std::string::npos);
}

TEST_CASE("JsonReader decodes escapes and surrogate pairs", "[json_reader]") {
  CHECK(Tokens(R"(["a\nb\t\/\\", "\ud83d\ude00", "\ud800x"])") ==
        "[ s:a\nb\t/\\ s:\xf0\x9f\x98\x80 s:\xef\xbf\xbdx ] END");
}

TEST_CASE("JsonReader keeps huge integers as lexemes", "[json_reader]") {
  CHECK(Tokens(R"({"Comms Id": 10159970886766084423})") ==
        "{ k:Comms Id 10159970886766084423 } END");
}

TEST_CASE("JsonReader reports syntax errors with their byte offset", "[json_reader]") {
  CHECK(ErrorOf("[1, 2,]") == "trailing comma before ']' at byte 6");
  CHECK(ErrorOf(R"({"a": 1,})") == "trailing comma before '}' at byte 8");
  CHECK(ErrorOf(R"([{"a": 1)") == "truncated JSON: the document ends inside an object at byte 8");
  CHECK(ErrorOf("[1, 2") == "truncated JSON: the document ends inside an array at byte 5");
  CHECK(ErrorOf(R"(["abc)") == "truncated JSON: the document ends inside an array at byte 5");
  CHECK(ErrorOf("") == "empty document: no JSON value at byte 0");
  CHECK(ErrorOf("   ") == "empty document: no JSON value at byte 3");
  CHECK(ErrorOf("[1] x") == "unexpected data after the JSON document at byte 4");
  CHECK(ErrorOf("[1 2]") == "expected ',' or ']' but found '2' at byte 3");
  CHECK(ErrorOf(R"({"a" 1})") == "expected ':' after an object key at byte 5");
  CHECK(ErrorOf("{1: 2}") == "expected an object key (a string) but found '1' at byte 1");
  CHECK(ErrorOf("[01]") == "invalid number '01' at byte 1");
  CHECK(ErrorOf("[1.]") == "invalid number '1.' at byte 1");
  CHECK(ErrorOf("[-]") == "invalid number '-' at byte 1");
  CHECK(ErrorOf("[tru]") == "invalid literal (expected true) at byte 1");
  CHECK(ErrorOf("[nul") == "truncated JSON: the document ends inside an array at byte 4");
  CHECK(ErrorOf("[NaN]") == "expected a JSON value but found 'N' at byte 1");
  CHECK(ErrorOf("[\"a\x01\"]") == "control character byte 0x01 in a string at byte 3");
  CHECK(ErrorOf(R"(["\x"])") == "invalid escape sequence in a string at byte 2");
  CHECK(ErrorOf(R"(["\u12"])") == "invalid escape sequence in a string at byte 2");
}

TEST_CASE("JsonReader limits nesting depth", "[json_reader]") {
  TrickleSource source(std::string(10, '[') + std::string(10, ']'), 1 << 20);
  JsonReader reader(source, 64, /*max_depth=*/4);
  for (int i = 0; i < 4; ++i)
    REQUIRE(reader.Next() == JsonToken::kBeginArray);
  CHECK(reader.Next() == JsonToken::kError);
  CHECK(reader.error() == "JSON nested deeper than 4 levels at byte 4");
  CHECK(reader.Next() == JsonToken::kError);  // stays failed
}

TEST_CASE("JsonReader skips and re-serializes values compactly", "[json_reader]") {
  TrickleSource source(
      R"({"skip": {"x": [1, {"y": "]"}]}, "keep": [ [1, 2], "q\"" , {"k": null} ]})", 2);
  JsonReader reader(source, 16);
  REQUIRE(reader.Next() == JsonToken::kBeginObject);
  REQUIRE(reader.Next() == JsonToken::kKey);
  REQUIRE(reader.SkipValue(reader.Next()));
  REQUIRE(reader.Next() == JsonToken::kKey);
  CHECK(reader.text() == "keep");
  std::string compact;
  REQUIRE(reader.AppendCompact(reader.Next(), &compact));
  CHECK(compact == R"([[1,2],"q\"",{"k":null}])");
  CHECK(reader.depth() == 1);
  CHECK(reader.Next() == JsonToken::kEndObject);
  CHECK(reader.Next() == JsonToken::kEnd);
}

TEST_CASE("JsonReader passes on the byte source's error", "[json_reader]") {
  // A gzip header followed by garbage: the gunzip source fails, the reader says so verbatim.
  std::string bad("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03garbage", 18);
  auto source = MakeGunzipSource(MakeMemorySource(bad), "t.json.gz");
  JsonReader reader(*source);
  CHECK(reader.Next() == JsonToken::kError);
  CHECK(reader.source_failed());
  CHECK(reader.error().rfind("t.json.gz: corrupt gzip stream", 0) == 0);
}

}  // namespace
}  // namespace gpuperf::util
