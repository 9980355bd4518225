// The writers on kernels[].tensor_cores: the JSON object's keys and values, and report.md's
// "Tensor cores" table with a hostile kernel name.
#include <catch2/catch.hpp>

#include <string>

#include "report/json_writer.h"
#include "report/markdown_writer.h"
#include "report_fixture.h"

namespace gpuperf::testing {
namespace {

report::AnalysisReport WithEvidence() {
  report::AnalysisReport r = SampleReport();
  for (report::KernelRow& row : r.kernels) {
    if (row.name == kHostileName) {
      row.tensor_cores = report::TensorCoreEvidence{true,
                                                    report::EvidenceTier::kMeasured,
                                                    "sass",
                                                    {{"HGMMA", 96}, {"HMMA", 2}},
                                                    "96 HGMMA, 2 HMMA in the sm_90 SASS"};
    } else {
      row.tensor_cores =
          report::TensorCoreEvidence{false,
                                     report::EvidenceTier::kInferred,
                                     "name",
                                     {},
                                     "the name contains \"sgemm\": a SIMT GEMM; not measured"};
    }
  }
  return r;
}

TEST_CASE(
    "report.json: tensor_cores of a kernel has used, evidence, source, instructions, detail") {
  nlohmann::ordered_json json = report::ToJson(WithEvidence());
  bool hostile_seen = false, other_seen = false;
  for (const auto& kernel : json.at("kernels")) {
    const auto& t = kernel.at("tensor_cores");
    std::vector<std::string> keys;
    for (const auto& item : t.items())
      keys.push_back(item.key());
    CHECK(keys == std::vector<std::string>{"used", "evidence", "source", "instructions", "detail"});
    if (kernel.at("name") == kHostileName) {
      hostile_seen = true;
      CHECK(t.at("used") == true);
      CHECK(t.at("evidence") == "measured");
      CHECK(t.at("source") == "sass");
      CHECK(t.at("instructions").at("HGMMA") == 96);
      CHECK(t.at("instructions").at("HMMA") == 2);
    } else {
      other_seen = true;
      CHECK(t.at("used") == false);
      CHECK(t.at("instructions").is_object());
      CHECK(t.at("instructions").empty());
    }
  }
  CHECK(hostile_seen);
  CHECK(other_seen);
  // Without evidence the key is absent.
  nlohmann::ordered_json plain = report::ToJson(SampleReport());
  CHECK_FALSE(plain.at("kernels")[0].contains("tensor_cores"));
}

TEST_CASE("report.md: the tensor-core table escapes names and lists SASS instructions") {
  std::string md = report::ToMarkdown(WithEvidence(), report::MarkdownOptions{});
  std::size_t section = md.find("## Tensor cores");
  REQUIRE(section != std::string::npos);
  std::string table = md.substr(section);
  CHECK(table.find("| 1 | gemm\\_kernel | no | inferred (name) |  |") != std::string::npos);
  CHECK(table.find("| 2 | a\\|b\\`&lt;script&gt;alert(1)&lt;/script&gt;\\n\\# x | yes | measured "
                   "(sass) | 96 HGMMA, 2 HMMA |") != std::string::npos);
  CHECK(report::ToMarkdown(SampleReport(), report::MarkdownOptions{}).find("## Tensor cores") ==
        std::string::npos);
}

}  // namespace
}  // namespace gpuperf::testing
