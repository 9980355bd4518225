// The input checked against the model (src/analysis/framework/resized_embeddings.cc,
// src/analysis/diagnosis/input_check.cc): a learned embedding resized in the forward pass.
#include "analysis/diagnosis/input_check.h"

#include "gpuperf/analyze.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analysis/diagnosis/headline.h"
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
  REQUIRE(plain.diagnosis.bottleneck == gpuperf::report::Bottleneck::kHostBound);
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
  CHECK(d.bottleneck == gpuperf::report::Bottleneck::kHostBound);  // the class stands; the check
                                                                   // comes before its lever
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
                 "next experiment: check the input first (its "
                 "TimesformerEmbeddings resize a learned embedding 16x, from 8 to 128 "
                 "positions); for the input as it is, "));
}

namespace {

constexpr std::int64_t kMs = 1'000'000;

// A pipeline call that loads `loads` inputs and runs Model_0 three times, 10 ms apart, each run
// an operator on `shapes[i]` launching a 1 ms kernel, with 8 ms of host preprocessing before it.
TraceBuilder RepeatedRuns(int loads, const std::vector<std::string>& shapes) {
  TraceBuilder b;
  b.Api("cudaGetDevice", 0, 1000);
  b.Frame("pipelines/base.py(1306): __call__", 0, 31 * kMs);
  for (int i = 0; i < loads; ++i)
    b.Frame("transformers/image_utils.py(508): load_image", 10 + i * 100, 60 + i * 100);
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    std::int64_t t = static_cast<std::int64_t>(i) * 10 * kMs;
    b.Frame("image_processing.py(368): preprocess", t + kMs, t + 9 * kMs);
    b.Frame("nn.Module: Model_0", t + 9 * kMs, t + 10 * kMs);
    gpuperf::model::HostOp& op = b.Op("aten::conv2d", t + 9 * kMs + 10, t + 9 * kMs + 9000);
    op.input_dims = b.trace.strings.Intern(shapes[i]);
    auto correlation = static_cast<std::int64_t>(i + 1);
    b.Api("cudaLaunchKernel", t + 9 * kMs + 100, t + 9 * kMs + 5000, correlation);
    b.Kernel("conv", t + 9 * kMs + 6000, t + 10 * kMs, correlation);
  }
  return b;
}

const std::string kImage = "[[1, 3, 1008, 1008], [64, 3, 14, 14]]";

}  // namespace

TEST_CASE("Repeated forward: one loaded input run through the model on the same shapes",
          "[framework][input]") {
  gpuperf::report::AnalysisReport r =
      gpuperf::analysis::Analyze(RepeatedRuns(1, {kImage, kImage, kImage}).trace);
  REQUIRE(r.framework.repeated_forward);
  const gpuperf::report::RepeatedForward& f = *r.framework.repeated_forward;
  CHECK(f.module == "Model");
  CHECK(f.runs == 3);
  CHECK(f.operators == 1);
  CHECK(f.load == "transformers/image_utils.py(508): load_image");
  CHECK(f.loads == 1);
  CHECK(f.within.empty());
  CHECK(f.call == "pipelines/base.py(1306): __call__");
  CHECK(f.repeats_ns == 20 * kMs);  // from the first run's end (10 ms) to the last's (30 ms)

  // Not repeated work: an input loaded per run (a loop over inputs), a run on other shapes, no
  // load inside the window (a timing loop over a tensor), runs marked as steps.
  CHECK_FALSE(gpuperf::analysis::Analyze(RepeatedRuns(3, {kImage, kImage, kImage}).trace)
                  .framework.repeated_forward);
  CHECK_FALSE(gpuperf::analysis::Analyze(
                  RepeatedRuns(1, {kImage, "[[1, 3, 896, 896], [64, 3, 14, 14]]", kImage}).trace)
                  .framework.repeated_forward);
  CHECK_FALSE(gpuperf::analysis::Analyze(RepeatedRuns(0, {kImage, kImage, kImage}).trace)
                  .framework.repeated_forward);
  TraceBuilder stepped = RepeatedRuns(1, {kImage, kImage, kImage});
  for (int i = 0; i < 3; ++i)
    stepped.AddRange(gpuperf::model::RangeKind::kProfilerStep,
                     "ProfilerStep#" + std::to_string(i),
                     i * 10 * kMs,
                     (i + 1) * 10 * kMs);
  gpuperf::report::AnalysisReport with_steps = gpuperf::analysis::Analyze(stepped.trace);
  CHECK(with_steps.framework.steps.size() == 3);
  CHECK_FALSE(with_steps.framework.repeated_forward);
}

TEST_CASE("Input check: repeated runs of one loaded input come before the experiment",
          "[diagnosis][input]") {
  TraceBuilder b = RepeatedRuns(1, {kImage, kImage, kImage});
  gpuperf::report::AnalysisReport r = gpuperf::analysis::Analyze(b.trace);
  const gpuperf::report::Diagnosis& d = r.diagnosis;
  INFO(d.next_experiment);
  CHECK(d.bottleneck == gpuperf::report::Bottleneck::kHostBound);  // the class stands; the check
                                                                   // comes before its lever
  // Everything after the first run's end goes: the window keeps its first 10 ms.
  std::int64_t window = r.initialization.steady_window_ns;
  REQUIRE(window == 30 * kMs);
  REQUIRE(d.input_check_bound_speedup);
  CHECK(*d.input_check_bound_speedup == Approx(3.0));
  CHECK(d.input_check ==
        "it runs Model 3 times on the same shapes from 1 loaded input: at most 3.00x faster if "
        "the runs repeat one computation");
  CHECK(d.next_experiment.starts_with(
      "Check the work against its input first: Model runs 3 times, all inside one call of "
      "pipelines/base.py(1306): __call__, each the same 1 operator call on the same input "
      "shapes, while the window loads its input once (transformers/image_utils.py(508): "
      "load_image)"));
  CHECK(Contains(d.next_experiment,
                 "that removes at most the 20.0 ms from the end of the first run"));
  CHECK(Contains(d.next_experiment, "For the input as it is: "));
  CHECK(Contains(d.scope, "1 loaded input runs through Model 3 times"));
  CHECK(Contains(r.headline,
                 "next experiment: check the input first (it runs Model 3 times on the same "
                 "shapes from 1 loaded input: at most 3.00x faster if the runs repeat one "
                 "computation); for the input as it is, "));
  // The host lever bounds more than the repeats here (the preprocessing is 24 of 30 ms), so the
  // class leads.
  REQUIRE(d.bound_speedup);
  CHECK(*d.bound_speedup > 3.0);
  CHECK(d.lead == gpuperf::report::DiagnosisLead::kBottleneck);
  // The per-run preprocessing between the first run's end and the last's is part of the repeats.
  // The idle from the first run's end (10 ms) to the last's (30 ms): 2 x 9 ms.
  CHECK(Contains(d.next_experiment,
                 "18.0 ms of the idle this host work fills lies inside the repeated runs that the "
                 "input check above names"));
  bool named = false;
  for (const std::string& line : d.support)
    named = named || Contains(line,
                              "image_processing.py(368): preprocess runs 3 times, 2 of them "
                              "(16.0 ms) inside the repeats");
  CHECK(named);
}

TEST_CASE("Input check: repeats that bound more than the lever lead the diagnosis",
          "[diagnosis][input]") {
  gpuperf::report::FrameworkView view;
  gpuperf::report::RepeatedForward f;
  f.module = "Model";
  f.runs = 5;
  f.operators = 10;
  f.load = "load_image";
  f.loads = 1;
  f.repeats_ns = 800;  // of a 1000 ns window: at most 5x
  view.repeated_forward = f;
  gpuperf::report::Diagnosis lever_smaller;
  lever_smaller.next_experiment = "Move the host work.";
  lever_smaller.bound_speedup = 2.0;
  gpuperf::analysis::PrependInputCheck(lever_smaller, view, 1000);
  CHECK(lever_smaller.lead == gpuperf::report::DiagnosisLead::kInputCheck);
  gpuperf::report::Diagnosis lever_larger = lever_smaller;
  lever_larger.lead = gpuperf::report::DiagnosisLead::kNone;
  lever_larger.input_check.clear();
  lever_larger.next_experiment = "Move the host work.";
  lever_larger.bound_speedup = 6.0;
  gpuperf::analysis::PrependInputCheck(lever_larger, view, 1000);
  CHECK(lever_larger.lead == gpuperf::report::DiagnosisLead::kNone);  // Diagnose sets "bottleneck"

  // The headline and report.md then say the repeats first, then the window's class as it is.
  gpuperf::report::AnalysisReport r;
  r.diagnosis = lever_smaller;
  r.diagnosis.bottleneck = gpuperf::report::Bottleneck::kHostBound;
  r.diagnosis.label = "host-bound";
  r.diagnosis.status = gpuperf::report::DiagnosisStatus::kFinding;
  r.timeline.activities = 1;
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 5, 1);
  b.Kernel("A", 10, 1000, 1);
  std::string headline = gpuperf::analysis::Headline(b.trace, r);
  INFO(headline);
  CHECK(headline.starts_with(
      "Diagnosis: the work may repeat on one input (it runs Model 5 times on the same shapes from "
      "1 loaded input: at most 5.00x faster if the runs repeat one computation; a check: the "
      "trace records shapes, not values); the window as it is: host-bound (finding); next "
      "experiment: settle that check first; for the input as it is, move the host work"));
}

TEST_CASE("Input check: the other half's statement is for the input as it is",
          "[diagnosis][input]") {
  gpuperf::report::Diagnosis d;
  d.next_experiment = "Move the host work.";
  gpuperf::report::Diagnosis gpu_phase;
  gpu_phase.next_experiment = "Replace the eager attention.";
  d.secondary = {gpu_phase};
  gpuperf::report::FrameworkView view;
  gpuperf::analysis::PrependInputCheck(d, view, 1'000'000);  // nothing to check: unchanged
  CHECK(d.secondary.front().next_experiment == "Replace the eager attention.");
  CHECK(d.secondary.front().support.empty());

  view.resized_embeddings = {{"TimesformerEmbeddings", "aten::upsample_nearest1d", {8}, {128}, 1}};
  gpuperf::analysis::PrependInputCheck(d, view, 1'000'000);
  const gpuperf::report::Diagnosis& s = d.secondary.front();
  CHECK(s.next_experiment == "For the input as it is: Replace the eager attention.");
  REQUIRE(s.support.size() == 1);
  CHECK(s.support.front() ==
        "This statement is for the input as it is: the input check above (its "
        "TimesformerEmbeddings resize a learned embedding 16x, from 8 to 128 positions) changes "
        "the work its bound rests on, so settle the check before acting on it.");
}

TEST_CASE("Repeated forward: a part that repeats whole beside a part that differs",
          "[framework][input]") {
  // Three runs of Model_0 on one loaded image: its Vision_0 sees the same shapes each time, its
  // Text_0 a prompt of another length each time (labels of other token counts).
  TraceBuilder b;
  b.Api("cudaGetDevice", 0, 1000);
  b.Frame("pipelines/base.py(1306): __call__", 0, 31 * kMs);
  b.Frame("transformers/image_utils.py(508): load_image", 10, 60);
  for (int i = 0; i < 3; ++i) {
    std::int64_t t = i * 10 * kMs;
    b.Frame("nn.Module: Model_0", t + 5 * kMs, t + 10 * kMs);
    b.Frame("nn.Module: Text_0", t + 5 * kMs, t + 6 * kMs);
    b.Op("aten::embedding", t + 5 * kMs + 10, t + 6 * kMs - 10).input_dims =
        b.trace.strings.Intern("[[1, " + std::to_string(4 + i) + "]]");
    b.Frame("nn.Module: Vision_0", t + 6 * kMs, t + 10 * kMs);
    b.Op("aten::conv2d", t + 6 * kMs + 10, t + 10 * kMs - 10).input_dims =
        b.trace.strings.Intern(kImage);
  }
  gpuperf::report::AnalysisReport r = gpuperf::analysis::Analyze(b.trace);
  REQUIRE(r.framework.repeated_forward);
  const gpuperf::report::RepeatedForward& f = *r.framework.repeated_forward;
  CHECK(f.module == "Vision");
  CHECK(f.within == "Model");
  CHECK(f.runs == 3);
  CHECK(f.operators == 1);
  CHECK(f.repeats_ns == 20 * kMs);  // the runs of Model_0: ends at 10, 20 and 30 ms
}

TEST_CASE("Loader owner: a Hugging Face pipeline's loader is set through its call",
          "[diagnosis][loader]") {
  TraceBuilder b = RepeatedRuns(1, {kImage, kImage, kImage});
  // The first run's preprocessing is fetched by a single-process DataLoader that the
  // pipeline's iterator drives.
  b.Frame("transformers/pipelines/pt_utils.py(249): __next__", kMs - 50, 9 * kMs - 10);
  b.Frame("torch/utils/data/dataloader.py(703): __next__", kMs - 40, 9 * kMs - 20);
  gpuperf::model::Range& fetch =
      b.AddRange(gpuperf::model::RangeKind::kUserAnnotation,
                 "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
                 kMs - 30,
                 9 * kMs - 30);
  fetch.pid = 100;
  fetch.tid = 101;
  gpuperf::report::AnalysisReport r = gpuperf::analysis::Analyze(b.trace);
  INFO(r.diagnosis.next_experiment);
  CHECK(Contains(r.diagnosis.next_experiment,
                 "transformers/pipelines/pt_utils.py(249): __next__ iterates it (trace: Python "
                 "frames): a Hugging Face pipeline builds that loader itself on every call, so "
                 "the setting is the call's num_workers"));
  CHECK_FALSE(Contains(r.diagnosis.next_experiment, "(with pin_memory=True)"));
}
