// The evidence tier of a figure or a claim (docs/method.md): measured (counters, SASS, the
// trace's own records), modeled (a byte/FLOP model), inferred (a name, a rule), assumed; kNone
// where there is none. report.json spells them "measured", "modeled", "inferred", "assumed" and
// "" (ToString); ParseEvidenceTier reads them back.
#pragma once

#include <optional>
#include <string_view>

namespace gpuperf::report {

enum class EvidenceTier { kNone, kMeasured, kModeled, kInferred, kAssumed };

inline std::string_view ToString(EvidenceTier tier) {
  switch (tier) {
    case EvidenceTier::kNone:
      return "";
    case EvidenceTier::kMeasured:
      return "measured";
    case EvidenceTier::kModeled:
      return "modeled";
    case EvidenceTier::kInferred:
      return "inferred";
    case EvidenceTier::kAssumed:
      return "assumed";
  }
  return "";
}

// The tier report.json spells `text`; nullopt for a spelling this version does not know.
inline std::optional<EvidenceTier> ParseEvidenceTier(std::string_view text) {
  for (EvidenceTier tier : {EvidenceTier::kNone,
                            EvidenceTier::kMeasured,
                            EvidenceTier::kModeled,
                            EvidenceTier::kInferred,
                            EvidenceTier::kAssumed}) {
    if (ToString(tier) == text)
      return tier;
  }
  return std::nullopt;
}

}  // namespace gpuperf::report
