// libFuzzer target: arbitrary bytes as a rank summary.json (`analyze --summary`, read by
// `ranks`), then through the multi-rank analysis.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "analysis/ranks/ranks.h"
#include "io/report/rank_summary_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  (void)gpuperf::io::LooksLikeRankSummary(bytes);
  auto summary = gpuperf::io::ParseRankSummary(bytes, "fuzz/summary.json");
  if (summary.ok())
    (void)gpuperf::analysis::AnalyzeRanks({*summary, *summary});
  return 0;
}
