// The input checked against the model (src/analysis/framework/resized_embeddings.cc,
// src/analysis/diagnosis/input_check.cc): a learned embedding resized in the forward pass.
#include "gpuperf/analyze.h"

#include <catch2/catch.hpp>

#include <string>

#include "analysis_builder.h"

namespace {

using gpuperf::testing::TraceBuilder;

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// An interpolation operator with its recorded shapes inside module frame `module`.
void Resize(TraceBuilder& b,
            const std::string& module,
            const std::string& op,
            const std::string& dims,
            const std::string& concrete,
            std::int64_t t) {
  b.Frame("nn.Module: " + module, t, t + 100);
  gpuperf::model::HostOp& host = b.Op(op, t + 10, t + 90);
  host.input_dims = b.trace.strings.Intern(dims);
  host.concrete_inputs = b.trace.strings.Intern(concrete);
}

}  // namespace

TEST_CASE("Resized embeddings: an interpolation in an embedding module, growing a parameter",
          "[framework][input]") {
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 5, 1);
  b.Kernel("A", 10, 1000, 1);
  // TimeSformer's time embeddings, 8 -> 128 frames, twice.
  Resize(b,
         "TimesformerEmbeddings_0",
         "aten::upsample_nearest1d",
         R"([[1, 768, 8], [], []])",
         R"(["", "[128]", ""])",
         2000);
  Resize(b,
         "TimesformerEmbeddings_0",
         "aten::upsample_nearest1d",
         R"([[1, 768, 8], [], []])",
         R"(["", "[128]", ""])",
         3000);
  // A dispatcher re-entry records the same operator inside the call: still one call.
  gpuperf::model::HostOp& inner = b.Op("aten::upsample_nearest1d", 3020, 3080);
  inner.input_dims = b.trace.strings.Intern(R"([[1, 768, 8], [], []])");
  inner.concrete_inputs = b.trace.strings.Intern(R"(["", "[128]", ""])");
  // A ViT position grid by scale factors: 14x14 -> 28x28 (4x).
  Resize(b,
         "PatchEmbed_0",
         "aten::upsample_bicubic2d",
         R"([[1, 768, 14, 14], [], [], []])",
         R"(["", "", "False", "[2.0, 2.0]"])",
         4000);
  // Not embeddings: a decoder's feature map, a batch of 8, and a resize that only rounds.
  Resize(b,
         "Decoder_0",
         "aten::upsample_nearest2d",
         R"([[1, 64, 32, 32], [], []])",
         R"(["", "[64, 64]", ""])",
         5000);
  Resize(b,
         "PatchEmbeddings_0",
         "aten::upsample_nearest1d",
         R"([[8, 768, 8], [], []])",
         R"(["", "[128]", ""])",
         6000);
  Resize(b,
         "PositionEmbedding_0",
         "aten::upsample_bilinear2d",
         R"([[1, 768, 14, 14], [], [], []])",
         R"(["", "[16, 16]", "False", ""])",
         7000);
  gpuperf::report::AnalysisReport r = gpuperf::analysis::Analyze(b.trace);
  const auto& rows = r.framework.resized_embeddings;
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].module == "TimesformerEmbeddings");
  CHECK(rows[0].op == "aten::upsample_nearest1d");
  CHECK(rows[0].from == std::vector<std::int64_t>{8});
  CHECK(rows[0].to == std::vector<std::int64_t>{128});
  CHECK(rows[0].calls == 2);
  CHECK(rows[0].Growth() == Approx(16.0));
  CHECK(rows[1].module == "PatchEmbed");
  CHECK(rows[1].to == std::vector<std::int64_t>{28, 28});
  CHECK(rows[1].Growth() == Approx(4.0));
}

TEST_CASE("Input check: a resized embedding puts the check before the experiment",
          "[diagnosis][input]") {
  // Host-bound: 8 ms of preprocessing between two kernels.
  TraceBuilder b;
  b.Api("cudaGetDevice", 0, 1000);
  b.Api("cudaLaunchKernel", 1000, 6000, 1);
  b.Kernel("A", 10'000, 1'000'000, 1);
  b.Frame("preprocess.py(10): normalize", 1'000'000, 9'000'000);
  b.Api("cudaLaunchKernel", 9'000'000, 9'005'000, 2);
  b.Kernel("B", 9'010'000, 10'000'000, 2);
  gpuperf::report::AnalysisReport plain = gpuperf::analysis::Analyze(b.trace);
  REQUIRE(plain.diagnosis.bottleneck == "host_bound");
  CHECK(plain.diagnosis.input_check.empty());
  CHECK_FALSE(Contains(plain.diagnosis.next_experiment, "Check the input"));

  Resize(b,
         "TimesformerEmbeddings_0",
         "aten::upsample_nearest1d",
         R"([[1, 768, 8], [], []])",
         R"(["", "[128]", ""])",
         500'000);  // while kernel A runs
  gpuperf::report::AnalysisReport r = gpuperf::analysis::Analyze(b.trace);
  const gpuperf::report::Diagnosis& d = r.diagnosis;
  INFO(d.next_experiment);
  CHECK(d.bottleneck == "host_bound");  // the class stands; the check comes before its lever
  CHECK(d.input_check ==
        "its TimesformerEmbeddings resize a learned embedding 16x, from 8 to 128 positions");
  CHECK(Contains(d.next_experiment,
                 "Check the input against the model first: its TimesformerEmbeddings resize a "
                 "learned embedding 16x, from 8 to 128 positions (aten::upsample_nearest1d, 1 "
                 "call; trace: operator shapes), so the input holds 16x the positions"));
  // The experiment for an intended input follows, unchanged.
  const std::string as_is = "For the input as it is: ";
  std::size_t at = d.next_experiment.find(as_is);
  REQUIRE(at != std::string::npos);
  CHECK(d.next_experiment.substr(at + as_is.size()) == plain.diagnosis.next_experiment);
  CHECK(Contains(d.next_experiment, "Feed it inputs of that size (8), or configure the model"));
  CHECK(Contains(d.scope,
                 "the input holds 16x the positions along its sequence (frames or "
                 "tokens) the model's TimesformerEmbeddings were built for"));
  CHECK(Contains(r.headline,
                 "next experiment: check the input against the model first (its "
                 "TimesformerEmbeddings resize a learned embedding 16x, from 8 to 128 "
                 "positions); for the input as it is, "));
}
