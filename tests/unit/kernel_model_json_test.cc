// The user model file reader (io/kernel_model): a valid file, and one one-line error naming the
// file for each class of problem (bad JSON, schema, unknown keys, regex, formula, missing work).
#include "io/kernel_model/kernel_model_json.h"

#include <catch2/catch.hpp>

#include <string>

#include "cli_test_support.h"

namespace {

using gpuperf::io::ParseKernelModelJson;

const std::string kPath = "models/gemm.json";

// The error for `text`, checked to be one line that starts with the path.
std::string ErrorOf(const std::string& text) {
  auto parsed = ParseKernelModelJson(text, kPath);
  INFO(text);
  REQUIRE_FALSE(parsed.ok());
  const std::string& message = parsed.error().message;
  INFO(message);
  CHECK(message.rfind(kPath + ": ", 0) == 0);
  CHECK(message.find('\n') == std::string::npos);
  return message;
}

// A file with one entry whose members are `entry` (JSON members, without braces).
std::string WithEntry(const std::string& entry, const std::string& params = R"({"M": 4})") {
  return R"({"schema": "gpuperf-kernel-model/1", "params": )" + params + R"(, "kernels": [{)" +
         entry + "}]}";
}

}  // namespace

TEST_CASE("kernel model file: a valid file is read with its defaults", "[kernel_model]") {
  auto parsed = ParseKernelModelJson(R"json({
    "schema": "gpuperf-kernel-model/1",
    "params": {"M": 4096, "N": 4096, "K": 4096},
    "kernels": [
      {"pattern": "sgemm_(\\d+)x(\\d+)", "flops": "2*M*N*K", "bytes": "4*(M*K + K*N + M*N)",
       "precision": "fp32", "unit": "vector", "note": "cuBLAS SGEMM"},
      {"pattern": "hgemm_(\\d+)", "flops": "2*M*N*K*g1", "precision": "bf16", "unit": "tensor"},
      {"pattern": "copy", "bytes": "2 * threads * 4"}
    ]})json",
                                     kPath);
  INFO((parsed.ok() ? "" : parsed.error().message));
  REQUIRE(parsed.ok());
  const auto& file = *parsed;
  CHECK(file.path == kPath);
  CHECK(file.params.size() == 3);
  CHECK(file.params.at("K") == 4096);
  REQUIRE(file.kernels.size() == 3);
  CHECK(file.kernels[0].pattern == "sgemm_(\\d+)x(\\d+)");
  CHECK(file.kernels[0].bytes == "4*(M*K + K*N + M*N)");
  CHECK(file.kernels[0].note == "cuBLAS SGEMM");
  CHECK(file.kernels[1].precision == "bf16");
  CHECK(file.kernels[1].unit == "tensor");
  CHECK(file.kernels[1].bytes.empty());
  CHECK(file.kernels[2].flops.empty());
  CHECK(file.kernels[2].precision == "fp32");  // defaults
  CHECK(file.kernels[2].unit == "vector");
}

TEST_CASE("kernel model file: g<N> beyond the pattern's groups is unknown", "[kernel_model]") {
  CHECK(ErrorOf(WithEntry(R"json("pattern": "hgemm_(\\d+)", "flops": "2*M*g1*g2")json")) ==
        kPath + ": kernels[0].flops '2*M*g1*g2': unknown identifier 'g2' at column 8");
}

TEST_CASE("kernel model file: not JSON, wrong schema, unknown keys", "[kernel_model]") {
  CHECK(ErrorOf("{\"schema\": ").find(": not JSON (") != std::string::npos);
  CHECK(ErrorOf("[]") == kPath + ": not a JSON object");
  CHECK(ErrorOf(R"({"kernels": []})") == kPath + ": schema: missing (\"gpuperf-kernel-model/1\")");
  CHECK(ErrorOf(R"({"schema": "gpuperf-kernel-model/2", "kernels": []})") ==
        kPath + ": schema: \"gpuperf-kernel-model/2\" is not \"gpuperf-kernel-model/1\"");
  CHECK(ErrorOf(R"({"schema": "gpuperf-kernel-model/1", "param": {}, "kernels": []})") ==
        kPath + ": unknown key \"param\" (known: schema, params, kernels)");
  CHECK(ErrorOf(WithEntry(R"("pattern": "x", "flop": "1")")) ==
        kPath +
            ": kernels[0]: unknown key \"flop\" (known: pattern, flops, bytes, precision, unit, "
            "note)");
  CHECK(ErrorOf(R"({"schema": "gpuperf-kernel-model/1", "kernels": []})") ==
        kPath + ": kernels: no entries");
  CHECK(ErrorOf(R"({"schema": "gpuperf-kernel-model/1"})") == kPath + ": kernels: missing");
}

TEST_CASE("kernel model file: bad params, regex, formulas, precision, missing work",
          "[kernel_model]") {
  CHECK(ErrorOf(WithEntry(R"("pattern": "x", "flops": "1")", R"({"M": "4"})")) ==
        kPath + ": params.M: not a finite number");
  CHECK(ErrorOf(WithEntry(R"("pattern": "x", "flops": "1")", R"({"blocks": 4})")) ==
        kPath + ": params.blocks: a reserved name (launch variable, capture group or function)");
  CHECK(ErrorOf(WithEntry(R"("pattern": "x", "flops": "1")", R"({"a-b": 4})"))
            .find("params.a-b: not a name a formula can use") != std::string::npos);
  std::string regex = ErrorOf(WithEntry(R"("pattern": "sgemm_(\\d+", "flops": "1")"));
  CHECK(regex.rfind(kPath + ": kernels[0].pattern 'sgemm_(\\d+': not a valid ECMAScript regex (",
                    0) == 0);
  CHECK(ErrorOf(WithEntry(R"("pattern": "x", "flops": "2*M*X")")) ==
        kPath + ": kernels[0].flops '2*M*X': unknown identifier 'X' at column 5");
  CHECK(ErrorOf(WithEntry(R"("pattern": "x", "bytes": "4*(M + 1")")) ==
        kPath + ": kernels[0].bytes '4*(M + 1': expected ')' at column 9");
  CHECK(ErrorOf(WithEntry(R"("pattern": "x")")) ==
        kPath + ": kernels[0]: needs \"flops\", \"bytes\" or both");
  CHECK(ErrorOf(WithEntry(R"("flops": "1")")) == kPath + ": kernels[0].pattern: missing");
  CHECK(ErrorOf(WithEntry(R"("pattern": "x", "flops": 1)")) ==
        kPath + ": kernels[0].flops: not a non-empty string");
  CHECK(ErrorOf(WithEntry(R"("pattern": "x", "flops": "1", "precision": "fp33")")) ==
        kPath +
            ": kernels[0].precision 'fp33': not one of fp64, fp32, fp16, bf16, tf32, fp8, int8");
  CHECK(ErrorOf(WithEntry(R"("pattern": "x", "flops": "1", "unit": "matrix")")) ==
        kPath + ": kernels[0].unit 'matrix': not \"vector\" or \"tensor\"");
  CHECK(ErrorOf(WithEntry(R"("pattern": "x", "flops": "1", "note": 3)")) ==
        kPath + ": kernels[0].note: not a string");
}

TEST_CASE("kernel model file: a missing file and a directory fail with one line",
          "[kernel_model]") {
  gpuperf::testing::TempDir dir;
  auto missing = gpuperf::io::ReadKernelModelFile(dir / "none.json");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message == dir / "none.json" + ": cannot open: No such file or directory");
  auto directory = gpuperf::io::ReadKernelModelFile(dir.path().string());
  REQUIRE_FALSE(directory.ok());
  CHECK(directory.error().message == dir.path().string() + ": is a directory, not a model file");
}
