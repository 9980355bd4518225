// gpuperf compare's analysis on synthesized sides with known effects.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cmath>
#include <cstdint>

#include "analysis/compare/compare.h"
#include "report/compare_writer.h"

namespace gpuperf::analysis {
namespace {

// Deterministic noise: a fixed pseudo-random sequence, 1% relative spread.
std::vector<double> Samples(double median, int n, std::uint64_t seed, double shift = 1.0) {
  std::vector<double> out;
  std::uint64_t state = seed;
  for (int i = 0; i < n; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    double u = static_cast<double>(state >> 11) / 9007199254740992.0;  // [0, 1)
    out.push_back(median * shift * (1.0 + 0.02 * (u - 0.5)));
  }
  return out;
}

report::KernelRow Row(const std::string& name, const std::vector<double>& samples) {
  report::KernelRow row;
  row.name = name;
  row.duration_ns.count = static_cast<std::int64_t>(samples.size());
  double total = 0;
  for (double s : samples)
    total += s;
  row.duration_ns.total = static_cast<std::int64_t>(total);
  row.duration_ns.avg = total / static_cast<double>(samples.size());
  row.duration_ns.med = samples[samples.size() / 2];
  return row;
}

compare::Side MakeSide(double wall_shift, double gemm_shift, std::uint64_t seed) {
  compare::Side side;
  side.kind = compare::SideKind::kBaseline;
  side.path = "side";
  side.wall_samples_ns = Samples(1e8, 10, seed, wall_shift);
  side.wall_samples_source = "measured runs";
  side.kernel_samples_ns["gemm"] = Samples(1e6, 40, seed + 1, gemm_shift);
  side.kernel_samples_ns["relu"] = Samples(1e4, 40, seed + 2);
  side.report.kernels = {Row("gemm", side.kernel_samples_ns["gemm"]),
                         Row("relu", side.kernel_samples_ns["relu"])};
  side.fingerprint.gpus = {"NVIDIA H200"};
  side.fingerprint.driver = "580.65";
  return side;
}

}  // namespace

TEST_CASE("compare: a 3% end-to-end slowdown is a regression", "[compare]") {
  compare::Options options;
  compare::CompareReport r = Compare(MakeSide(1.0, 1.0, 1), MakeSide(1.03, 1.05, 2), options);
  CHECK(r.verdict == gpuperf::compare::Verdict::kSlower);
  CHECK(r.verdict_basis == gpuperf::compare::VerdictBasis::kEndToEnd);
  CHECK(r.end_to_end.n_before == 10);
  REQUIRE(r.end_to_end.ratio.has_value());
  CHECK(*r.end_to_end.ratio > 1.02);
  REQUIRE(r.kernels.size() == 2);
  CHECK(r.kernels[0].name == "gemm");
  CHECK(r.kernels[0].statistic.verdict == gpuperf::compare::Verdict::kSlower);
  CHECK(r.summary.find("**gpuperf compare: SLOWER**") == 0);
  CHECK(r.summary.find('\n') != std::string::npos);  // two lines
}

TEST_CASE("compare: identical sides are the same", "[compare]") {
  compare::Side side = MakeSide(1.0, 1.0, 7);
  compare::CompareReport r = Compare(side, side, {});
  CHECK(r.verdict == gpuperf::compare::Verdict::kSame);
  CHECK(r.env_differences.empty());
  CHECK(r.workload_overlap == 1.0);
}

TEST_CASE("compare: a different GPU makes the sides incomparable unless allowed", "[compare]") {
  compare::Side before = MakeSide(1.0, 1.0, 3);
  compare::Side after = MakeSide(0.9, 0.8, 4);
  after.fingerprint.gpus = {"NVIDIA H100 80GB HBM3"};
  after.fingerprint.executable_sha256 = "abc";
  before.fingerprint.executable_sha256 = "def";
  compare::CompareReport r = Compare(before, after, {});
  CHECK(r.verdict == gpuperf::compare::Verdict::kIncomparable);
  REQUIRE(r.env_differences.size() == 2);
  CHECK(r.env_differences[0].field == "gpus");
  CHECK(r.env_differences[0].gating);
  CHECK(r.env_differences[1].field == "executable_sha256");
  CHECK(!r.env_differences[1].gating);  // the change under test
  compare::Options allow;
  allow.allow_different_env = true;
  compare::CompareReport allowed = Compare(before, after, allow);
  CHECK(allowed.verdict == gpuperf::compare::Verdict::kFaster);
  CHECK(!allowed.limitations.empty());
}

TEST_CASE("compare: different workloads are incomparable", "[compare]") {
  compare::Side before = MakeSide(1.0, 1.0, 5);
  compare::Side after = MakeSide(1.0, 1.0, 6);
  for (auto& row : after.report.kernels)
    row.name = "other_" + row.name;
  compare::CompareReport r = Compare(before, after, {});
  CHECK(r.verdict == gpuperf::compare::Verdict::kIncomparable);
  CHECK(r.workload_overlap == 0.0);
  CHECK(r.only_before.size() == 2);
  CHECK(r.only_after.size() == 2);
}

TEST_CASE("compare: without end-to-end samples the kernels decide", "[compare]") {
  compare::Side before = MakeSide(1.0, 1.0, 8);
  compare::Side after = MakeSide(1.0, 0.9, 9);
  before.wall_samples_ns.clear();
  after.wall_samples_ns.clear();
  compare::CompareReport r = Compare(before, after, {});
  CHECK(r.verdict_basis == gpuperf::compare::VerdictBasis::kKernels);
  CHECK(r.verdict ==
        gpuperf::compare::Verdict::kFaster);  // gemm holds ~99% of kernel time and got 10% faster
  CHECK(r.end_to_end.verdict == gpuperf::compare::Verdict::kInconclusive);
}

TEST_CASE("compare: too few end-to-end repeats fall back to the kernels", "[compare]") {
  compare::Side before = MakeSide(1.0, 1.0, 10);
  compare::Side after = MakeSide(1.2, 1.0, 11);
  before.wall_samples_ns.resize(3);
  after.wall_samples_ns.resize(3);
  compare::CompareReport r = Compare(before, after, {});
  CHECK(r.end_to_end.verdict == gpuperf::compare::Verdict::kInconclusive);
  CHECK(r.verdict_basis == gpuperf::compare::VerdictBasis::kKernels);
}

TEST_CASE("compare: a faster kernel with an unchanged program is flagged", "[compare]") {
  compare::Side before = MakeSide(1.0, 1.0, 12);
  compare::Side after = MakeSide(1.0, 0.8, 13);
  report::CriticalShare share;
  share.name = "gemm";
  share.fraction = 0.01;
  before.report.predictions.kernels.push_back(share);
  compare::CompareReport r = Compare(before, after, {});
  REQUIRE(r.reconciliation.size() == 1);
  const compare::Reconciliation& c = r.reconciliation[0];
  CHECK(c.kernel == "gemm");
  CHECK(c.kernel_speedup > 1.2);
  // Amdahl with f = 0.01: the program can gain at most ~0.2%.
  CHECK_THAT(c.predicted_end_to_end_speedup,
             Catch::Matchers::WithinRel(1.0 / (0.99 + 0.01 / c.kernel_speedup), 1e-12));
  REQUIRE(c.measured_end_to_end_speedup);
  CHECK(r.end_to_end.verdict != gpuperf::compare::Verdict::kFaster);
  CHECK(c.flag.find("end-to-end priority rule") != std::string::npos);
}

TEST_CASE("compare: report inputs use summaries", "[compare]") {
  compare::Side before = MakeSide(1.0, 1.0, 14);
  compare::Side after = MakeSide(1.0, 1.0, 15);
  before.kind = after.kind = compare::SideKind::kReport;
  before.kernel_samples_ns.clear();
  after.kernel_samples_ns.clear();
  for (auto* side : {&before, &after}) {
    for (auto& row : side->report.kernels)
      row.duration_ns.stddev = row.duration_ns.avg * 0.005;
  }
  compare::CompareReport r = Compare(before, after, {});
  REQUIRE(!r.kernels.empty());
  CHECK(r.kernels[0].statistic.method.find("welch") != std::string::npos);
  bool noted = false;
  for (const auto& l : r.limitations)
    noted |= l.find("summaries only") != std::string::npos;
  CHECK(noted);
}

}  // namespace gpuperf::analysis

namespace gpuperf::analysis {
namespace {

report::OperatorRow Op(const std::string& name, std::int64_t calls, double avg_ns) {
  report::OperatorRow op;
  op.name = name;
  op.calls = calls;
  op.call_avg_ns = avg_ns;
  op.call_med_ns = avg_ns;
  op.call_stddev_ns = avg_ns * 0.01;
  op.kernel_ns = static_cast<std::int64_t>(avg_ns * static_cast<double>(calls));
  return op;
}

report::CategoryRow Category(const std::string& name, std::int64_t ns) {
  report::CategoryRow row;
  row.category = report::ParseFrameworkCategory(name).value();
  row.kernel_ns = ns;
  return row;
}

report::ModuleRow Module(const std::string& name, std::int64_t ns) {
  report::ModuleRow row;
  row.name = name;
  row.kernel_ns = ns;
  return row;
}

}  // namespace
}  // namespace gpuperf::analysis

TEST_CASE("compare: operators, categories and modules match by name across kernel renames",
          "[compare][framework]") {
  using namespace gpuperf;
  compare::Side before = analysis::MakeSide(1.0, 1.0, 1);
  compare::Side after = analysis::MakeSide(1.0, 1.0, 2);
  // The change fused aten::gelu into the GEMM: the kernel names differ, aten::addmm is matched.
  before.report.framework.operators = {analysis::Op("aten::addmm", 50, 1e6),
                                       analysis::Op("aten::gelu", 50, 1e5)};
  after.report.framework.operators = {analysis::Op("aten::addmm", 50, 0.8e6)};
  before.report.framework.categories = {analysis::Category("gemm", 50'000'000),
                                        analysis::Category("elementwise", 5'000'000)};
  after.report.framework.categories = {analysis::Category("gemm", 40'000'000)};
  before.report.framework.modules = {analysis::Module("Block", 55'000'000)};
  after.report.framework.modules = {analysis::Module("Block", 40'000'000)};
  compare::CompareReport r = analysis::Compare(before, after, compare::Options{});
  REQUIRE(r.operators.size() == 1);
  CHECK(r.operators[0].name == "aten::addmm");
  CHECK(r.operators[0].statistic.verdict == gpuperf::compare::Verdict::kFaster);
  CHECK(r.operators[0].statistic.n_before == 50);
  CHECK(r.only_before_operators == std::vector<std::string>{"aten::gelu"});
  CHECK(r.only_after_operators.empty());
  REQUIRE(r.categories.size() == 2);
  CHECK(r.categories[0].name == "gemm");
  REQUIRE(r.categories[0].ratio);
  CHECK(*r.categories[0].ratio == Approx(0.8));
  CHECK(r.categories[1].name == "elementwise");
  CHECK(r.categories[1].after_ns == 0);
  REQUIRE(r.modules.size() == 1);
  CHECK(*r.modules[0].ratio == Approx(40.0 / 55.0));
  // The change compare.md prints is in the model (and compare.json), not derived by the writer.
  REQUIRE(r.categories[0].relative_change);
  CHECK(*r.categories[0].relative_change == Approx(-0.2));
  REQUIRE(r.categories[1].relative_change);
  CHECK(*r.categories[1].relative_change == Approx(-1.0));
}

TEST_CASE("compare: an audit row's relative change is after / before - 1, none from 0",
          "[compare]") {
  using namespace gpuperf;
  compare::Side before = analysis::MakeSide(1.0, 1.0, 1);
  compare::Side after = analysis::MakeSide(1.0, 1.0, 2);
  before.report.audit.kernel_launches = 100;
  after.report.audit.kernel_launches = 80;
  before.report.audit.allocations = 0;
  after.report.audit.allocations = 5;
  before.report.audit.peak_allocated_bytes = -1;  // not recorded
  after.report.audit.peak_allocated_bytes = 1000;
  compare::CompareReport r = analysis::Compare(before, after, compare::Options{});
  auto row = [&](const std::string& metric) -> const compare::AuditRow& {
    for (const compare::AuditRow& a : r.audit) {
      if (a.metric == metric)
        return a;
    }
    FAIL("no audit row " << metric);
    return r.audit.front();
  };
  REQUIRE(row("kernel launches").relative_change);
  CHECK(*row("kernel launches").relative_change == Approx(-0.2));
  CHECK_FALSE(row("device allocations").relative_change);  // from 0: new
  CHECK_FALSE(row("peak device memory").relative_change);  // a side unknown
}

TEST_CASE("compare: each ratio and its interval are read once, as compare.md prints them",
          "[compare]") {
  using namespace gpuperf;
  // gemm 4x faster, the program 3% slower.
  compare::CompareReport r =
      analysis::Compare(analysis::MakeSide(1.0, 1.0, 1), analysis::MakeSide(1.03, 0.25, 2), {});
  const compare::Statistic& e2e = r.end_to_end;
  REQUIRE(e2e.ratio);
  REQUIRE(e2e.change);
  CHECK(e2e.change->relative_change == Approx(*e2e.ratio - 1));
  CHECK(e2e.change->factor == Approx(*e2e.ratio));  // slower: the ratio itself
  REQUIRE(e2e.ci_low_change);
  CHECK(e2e.ci_low_change->ratio == *e2e.ci_low);
  CHECK_FALSE(e2e.ci_too_wide);
  const compare::Statistic* gemm = nullptr;
  for (const compare::KernelResult& k : r.kernels)
    gemm = k.name == "gemm" ? &k.statistic : gemm;
  REQUIRE(gemm);
  REQUIRE(gemm->change);
  CHECK(gemm->change->factor == Approx(1.0 / *gemm->ratio));  // faster: its inverse
  CHECK(gemm->change->factor == Approx(4.0).epsilon(0.02));
  const std::string md = report::CompareToMarkdown(r, report::ToolInfo{}, 10);
  CHECK(md.find(fmt::format("{:.3g}× faster", gemm->change->factor)) != std::string::npos);
  const nlohmann::ordered_json json = report::CompareToJson(r, report::ToolInfo{});
  CHECK(json["end_to_end"]["relative_change"].get<double>() ==
        Approx(e2e.change->relative_change).margin(1e-6));
  CHECK(json["end_to_end"]["ci_too_wide"] == false);

  // An interval over a factor of four says nothing: "too wide", and the flag says so.
  compare::Side noisy = analysis::MakeSide(1.0, 1.0, 3);
  noisy.kernel_samples_ns["gemm"] = {1e5, 1e7, 1e5, 1e7, 1e5, 1e7, 1e5, 1e7, 1e5, 1e7, 1e5, 1e7};
  compare::CompareReport wide = analysis::Compare(analysis::MakeSide(1.0, 1.0, 4), noisy, {});
  for (const compare::KernelResult& k : wide.kernels) {
    if (k.name != "gemm")
      continue;
    REQUIRE(k.statistic.ci_low);
    REQUIRE(k.statistic.ci_high);
    CHECK(k.statistic.ci_too_wide == (*k.statistic.ci_high > 4 * *k.statistic.ci_low));
    CHECK(k.statistic.ci_too_wide);
  }
}
