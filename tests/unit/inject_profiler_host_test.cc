// The counter pass's metric sets against CUPTI's offline host API (no GPU needed): every metric
// of every built-in set must be valid on the chips we support, and the pass counts stay what
// docs/recorder.md states, so that a set that would silently need many replays fails here.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "inject/profiler_host.h"
#include "spool/metric_sets.h"

using gpuperf::inject::ProfilerHost;

namespace {

// CUPTI's host API dlopens libnvperf_host.so with RTLD_DEEPBIND, which AddressSanitizer refuses
// (it aborts the process; google/sanitizers#611): these tests run in the optimised build only.
#if defined(__SANITIZE_ADDRESS__)
#define GPUPERF_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GPUPERF_TEST_ASAN 1
#endif
#endif

bool HostApiUsable() {
#if defined(GPUPERF_TEST_ASAN)
  WARN(
      "SKIPPED under AddressSanitizer: CUPTI loads libnvperf_host.so with RTLD_DEEPBIND, which "
      "ASan aborts on; the optimised build runs this test");
  return false;
#else
  return true;
#endif
}

std::vector<std::string> SetMetrics(std::string_view name) {
  auto expanded = gpuperf::spool::ExpandMetricList(name);
  REQUIRE(expanded.error.empty());
  return expanded.metrics;
}

}  // namespace

TEST_CASE("profiler host: the roofline set is valid on GH100 and needs a few passes",
          "[inject][counters]") {
  if (!HostApiUsable())
    return;
  auto created = ProfilerHost::CreateForChip("GH100", {}, SetMetrics("roofline"));
  INFO(created.error);
  REQUIRE(created.host);
  CHECK_FALSE(created.host->config_image().empty());
  WARN("roofline set on GH100: " << created.host->passes() << " passes");
  CHECK(created.host->passes() >= 2);  // the SASS op counters always take their own pass
  CHECK(created.host->passes() <= 8);  // 7 with CUDA 13.0 (docs/recorder.md)
}

TEST_CASE("profiler host: the memory set is one pass on GH100", "[inject][counters]") {
  if (!HostApiUsable())
    return;
  auto created = ProfilerHost::CreateForChip("GH100", {}, SetMetrics("memory"));
  INFO(created.error);
  REQUIRE(created.host);
  CHECK(created.host->passes() == 1);
}

TEST_CASE("profiler host: on other chips the set keeps the tensor names the chip has",
          "[inject][counters]") {
  if (!HostApiUsable())
    return;
  struct Expect {
    const char* chip;
    std::vector<std::string> dropped;
  };
  const std::vector<Expect> expected = {
      {"GH100",
       {"sm__ops_path_tensor_src_fp16_dst_fp16.sum", "sm__ops_path_tensor_src_fp16_dst_fp32.sum"}},
      {"GA100", {"sm__ops_path_tensor_src_fp16.sum", "sm__ops_path_tensor_src_fp8.sum"}},
      {"AD102", {"sm__ops_path_tensor_src_fp16.sum"}},
      {"GB100", {"sm__ops_path_tensor_src_fp16.sum", "sm__ops_path_tensor_src_fp8.sum"}},
  };
  for (const Expect& e : expected) {
    auto created = ProfilerHost::CreateForChip(e.chip, {}, SetMetrics("roofline"));
    INFO(e.chip << ": " << created.error);
    REQUIRE(created.host);
    CHECK(created.host->dropped() == e.dropped);
    CHECK(created.host->metrics().size() + e.dropped.size() == SetMetrics("roofline").size());
    // Each chip keeps a way to count fp16 tensor work.
    bool fp16 = false;
    for (const std::string& m : created.host->metrics())
      fp16 |= m.rfind("sm__ops_path_tensor_src_fp16", 0) == 0;
    CHECK(fp16);
    auto memory = ProfilerHost::CreateForChip(e.chip, {}, SetMetrics("memory"));
    CHECK(memory.host);
    CHECK(memory.host->dropped().empty());
  }
}

TEST_CASE("profiler host: a bad metric name is named in the error", "[inject][counters]") {
  if (!HostApiUsable())
    return;
  auto created =
      ProfilerHost::Create("GH100", {}, {"dram__bytes_read.sum", "dram__no_such_metric.sum"});
  CHECK_FALSE(created.host);
  CHECK(created.error.find("GH100") != std::string::npos);
  auto alone = ProfilerHost::Create("GH100", {}, {"dram__no_such_metric.sum"});
  CHECK(alone.error.find("dram__no_such_metric.sum") != std::string::npos);
  // CreateForChip drops it and keeps the rest.
  auto kept = ProfilerHost::CreateForChip(
      "GH100", {}, {"dram__bytes_read.sum", "dram__no_such_metric.sum"});
  REQUIRE(kept.host);
  CHECK(kept.host->dropped() == std::vector<std::string>{"dram__no_such_metric.sum"});
}

TEST_CASE("profiler host: an unknown chip fails with a message", "[inject][counters]") {
  if (!HostApiUsable())
    return;
  auto created = ProfilerHost::Create("NOT_A_CHIP", {}, {"dram__bytes_read.sum"});
  CHECK_FALSE(created.host);
  CHECK(created.error.find("cuptiProfilerHostInitialize") != std::string::npos);
}

TEST_CASE("metric lists: sets expand, raw names stay, words are checked", "[record][counters]") {
  using gpuperf::spool::ExpandMetricList;
  auto both = ExpandMetricList("memory, lts__t_bytes.sum,l1tex__t_bytes.sum");
  REQUIRE(both.error.empty());
  CHECK(both.metrics == std::vector<std::string>{"gpu__time_duration.sum",
                                                 "dram__bytes_read.sum",
                                                 "dram__bytes_write.sum",
                                                 "lts__t_bytes.sum",
                                                 "l1tex__t_bytes.sum"});
  CHECK(ExpandMetricList("rooflin").error.find("\"rooflin\"") != std::string::npos);
  CHECK_FALSE(ExpandMetricList(" , ").error.empty());
  CHECK_FALSE(ExpandMetricList("dram__bytes`|<b>.sum").error.empty());  // reaches report.md
  CHECK(gpuperf::spool::SplitMetrics(gpuperf::spool::JoinMetrics(both.metrics)) == both.metrics);
}
