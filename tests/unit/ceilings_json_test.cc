// The probe's JSON and the cache file: parsing and validation of hand-written input.
#include "io/ceilings/ceilings_json.h"

#include <catch2/catch.hpp>

#include <string>

#include "ceilings_test_support.h"

namespace {

using gpuperf::io::ceilings::ParseCacheJson;
using gpuperf::io::ceilings::ParseProbeOutput;
using gpuperf::io::ceilings::ToCacheJson;
using gpuperf::testing::ProbeJson;
using gpuperf::testing::Replace;

// The error of parsing `json`; "" when it parses.
std::string ErrorOf(const std::string& json) {
  auto parsed = ParseProbeOutput(json);
  return parsed.ok() ? "" : parsed.error().message;
}

}  // namespace

TEST_CASE("probe output: a complete object parses into every figure", "[ceilings]") {
  auto m = ParseProbeOutput(ProbeJson());
  REQUIRE(m.ok());
  CHECK(m->device_name == "NVIDIA H200");
  CHECK(m->uuid == gpuperf::testing::kProbeUuid);
  CHECK(m->compute_major == 9);
  CHECK(m->compute_minor == 0);
  CHECK(m->sm_count == 132);
  CHECK(m->l2_bytes == 62914560);
  CHECK(m->memory_bytes == 150006595584);
  CHECK(m->max_sm_clock_hz == Approx(1.98e9));
  CHECK(m->cuda_runtime_version == 13000);
  CHECK(m->dram.per_s == Approx(4e12));
  CHECK(m->dram.work_per_launch == Approx(1e11));
  CHECK(m->dram.best_ms == Approx(25));
  CHECK(m->dram.median_ms == Approx(25.5));
  CHECK(m->dram.reps == 10);
  CHECK_FALSE(m->dram.sm_clock_hz);
  CHECK(m->fp32_vector.per_s == Approx(6e13));
  CHECK(*m->fp32_vector.sm_clock_hz == Approx(1.98e9));
  CHECK(m->bf16_tensor.per_s == Approx(6e14));
  CHECK(m->fp16_tensor.per_s == Approx(5e14));
  CHECK(*m->fp16_tensor.sm_clock_hz == Approx(1.96e9));
  CHECK(m->method == "best of 10 cudaEvent-timed launches");
  CHECK(m->date.empty());  // the probe does not date itself
}

TEST_CASE("probe output: an upper-case or prefix-less UUID is normalised", "[ceilings]") {
  auto m = ParseProbeOutput(ProbeJson("NVIDIA H200", "9F8075AA-E02A-0953-1955-32F638FB2993"));
  REQUIRE(m.ok());
  CHECK(m->uuid == gpuperf::testing::kProbeUuid);
}

TEST_CASE("probe output: missing keys are named", "[ceilings]") {
  const std::string good = ProbeJson();
  CHECK(ErrorOf(Replace(good, R"("uuid": )", R"("uid": )")) == "device.uuid: missing");
  CHECK(ErrorOf(Replace(good, R"("dram": )", R"("dram_": )")) == "dram: missing");
  CHECK(ErrorOf(Replace(good, R"("flops_per_s": 6.0e13, )", "")) ==
        "fp32_vector.flops_per_s: missing");
  CHECK(ErrorOf(
            Replace(good, R"("reps": 10, "sm_clock_hz": 1.98e9})", R"("sm_clock_hz": 1.98e9})")) ==
        "bf16_tensor.reps: missing");
  CHECK(ErrorOf(Replace(good, R"("method")", R"("methods")")) == "method: missing");
  CHECK(ErrorOf(Replace(good, R"("cuda": {"runtime_version": 13000, )", R"("cuda": {)")) ==
        "cuda.runtime_version: missing");
  CHECK(ErrorOf(Replace(good, R"("probe": "gpuperf_ceilings_probe")", R"("probe": "other")")) ==
        "probe: not \"gpuperf_ceilings_probe\"");
}

TEST_CASE("probe output: NaN, infinite, negative and zero figures are refused", "[ceilings]") {
  const std::string good = ProbeJson();
  // JSON has no NaN: printf's "nan" makes the text invalid.
  CHECK(ErrorOf(Replace(good, "4.0e12", "nan")).rfind("not JSON (", 0) == 0);
  CHECK(
      ErrorOf(Replace(good, "4.0e12", "-4.0e12")).rfind("dram.bytes_per_s: -4e+12 is outside", 0) ==
      0);
  CHECK(ErrorOf(Replace(good, "4.0e12", "0")).rfind("dram.bytes_per_s: 0 is outside", 0) == 0);
  // Infinity does not parse either (nlohmann: number overflow).
  CHECK(ErrorOf(Replace(good, "6.0e13", "1e400")).find("number overflow") != std::string::npos);
  CHECK(ErrorOf(Replace(good, "6.0e14", "\"fast\"")) == "bf16_tensor.flops_per_s: not a number");
  CHECK(ErrorOf(Replace(good, "\"sm_count\": 132", "\"sm_count\": 0")) ==
        "device.sm_count: 0 is outside [1, 100000]");
  CHECK(ErrorOf(Replace(good, "\"sm_count\": 132", "\"sm_count\": 132.5")) ==
        "device.sm_count: not an integer");
}

TEST_CASE("probe output: implausible or inconsistent figures are refused", "[ceilings]") {
  const std::string good = ProbeJson();
  // 4 PB/s of DRAM is a unit error.
  CHECK(ErrorOf(Replace(good, "\"bytes_per_s\": 4.0e12", "\"bytes_per_s\": 4.0e15"))
            .rfind("dram.bytes_per_s: 4e+15 is outside", 0) == 0);
  // The rate must be its own work over its best time (1e11 B / 25 ms = 4e12 B/s).
  CHECK(ErrorOf(Replace(good, "\"bytes_per_launch\": 1.0e11", "\"bytes_per_launch\": 2.0e11")) ==
        "dram: bytes_per_launch / best_ms is 8e+12/s, not the 4e+12/s of bytes_per_s");
  // Launches under 10 ms are not sustained.
  CHECK(ErrorOf(Replace(good,
                        R"("best_ms": 25.0,
   "median_ms": 25.5)",
                        R"("best_ms": 2.5,
   "median_ms": 25.5)"))
            .rfind("dram.best_ms: 2.5 is outside [10,", 0) == 0);
  CHECK(ErrorOf(Replace(good, "\"median_ms\": 25.5", "\"median_ms\": 20")) ==
        "dram.median_ms: 20 is outside [25, 1e+07]");
  CHECK(ErrorOf(Replace(good,
                        "\"sm_clock_hz\": 1.98e9, \"iterations\"",
                        "\"sm_clock_hz\": 1.98e12, \"iterations\""))
            .rfind("fp32_vector.sm_clock_hz: 1.98e+12 is outside", 0) == 0);
  CHECK(ErrorOf(Replace(good, gpuperf::testing::kProbeUuid, "GPU-12345")) ==
        "device.uuid: 'GPU-12345' is not a GPU UUID (GPU-xxxxxxxx-xxxx-...)");
  CHECK(ErrorOf(Replace(good, gpuperf::testing::kProbeUuid, "../../etc/passwd"))
            .rfind("device.uuid: '../../etc/passwd' is not a GPU UUID", 0) == 0);
}

TEST_CASE("probe output: garbage, other JSON and huge input are refused", "[ceilings]") {
  CHECK(ErrorOf("").rfind("not JSON (", 0) == 0);
  CHECK(ErrorOf("cudaErrorNoDevice").rfind("not JSON (", 0) == 0);
  CHECK(ErrorOf(ProbeJson().substr(0, 200)).rfind("not JSON (", 0) == 0);
  CHECK(ErrorOf("[1, 2, 3]") == "not a JSON object");
  CHECK(ErrorOf("{}") == "probe: missing");
  CHECK(ErrorOf(ProbeJson() + "{}").rfind("not JSON (", 0) == 0);  // two objects
  std::string huge = ProbeJson();
  huge.insert(huge.size() - 2, ", \"pad\": \"" + std::string(2 << 20, 'x') + "\"");
  CHECK(ErrorOf(huge) ==
        std::to_string(huge.size()) + " bytes, more than the 1048576 a ceilings file has");
}

TEST_CASE("cache file: written and read back unchanged", "[ceilings]") {
  auto m = ParseProbeOutput(ProbeJson());
  REQUIRE(m.ok());
  m->date = "2026-12-01T11:36:05Z";
  m->gpuperf_version = "0.1.0";
  const std::string text = ToCacheJson(*m);
  CHECK(text.find("\"schema_version\": \"1.0.0\"") != std::string::npos);
  CHECK(text.find("\"evidence\": \"measured\"") != std::string::npos);
  auto back = ParseCacheJson(text, "/c/x.json");
  REQUIRE(back.ok());
  CHECK(back->date == "2026-12-01T11:36:05Z");
  CHECK(back->gpuperf_version == "0.1.0");
  CHECK(back->path == "/c/x.json");
  CHECK(back->uuid == m->uuid);
  CHECK(back->device_name == m->device_name);
  CHECK(back->dram.per_s == m->dram.per_s);
  CHECK(back->bf16_tensor.work_per_launch == m->bf16_tensor.work_per_launch);
  CHECK(*back->fp16_tensor.sm_clock_hz == *m->fp16_tensor.sm_clock_hz);
  CHECK(back->method == m->method);
  CHECK(ToCacheJson(*back) == text);
}

TEST_CASE("cache file: schema, evidence and date are checked", "[ceilings]") {
  auto m = ParseProbeOutput(ProbeJson());
  REQUIRE(m.ok());
  m->date = "2026-12-01T11:36:05Z";
  const std::string text = ToCacheJson(*m);
  auto error = [](const std::string& json) {
    auto parsed = ParseCacheJson(json, "c.json");
    return parsed.ok() ? "" : parsed.error().message;
  };
  CHECK(error(Replace(text, "\"1.0.0\"", "\"2.0.0\"")) ==
        "c.json: not a gpuperf ceilings cache file: schema_version 2.0.0 (this gpuperf reads 1.x)");
  CHECK(error(Replace(text, "\"measured\"", "\"datasheet\"")) ==
        "c.json: not a gpuperf ceilings cache file: evidence is \"datasheet\", not \"measured\"");
  CHECK(error(Replace(text, "2026-12-01T11:36:05Z", "yesterday")) ==
        "c.json: not a gpuperf ceilings cache file: date 'yesterday' is not UTC ISO 8601 "
        "(YYYY-MM-DDThh:mm:ssZ)");
  CHECK(error(ProbeJson()) == "c.json: not a gpuperf ceilings cache file: schema_version: missing");
  CHECK(error("{").rfind("c.json: not a gpuperf ceilings cache file: not JSON (", 0) == 0);
}
