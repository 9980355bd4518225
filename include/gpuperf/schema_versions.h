// The semver of every JSON file gpuperf writes, in one place so that a bump is one edit and a
// reviewer sees them side by side. Bump minor for added keys, major for removed or renamed ones;
// every reader accepts its format's major version 1.
#pragma once

namespace gpuperf {

namespace report {
inline constexpr const char* kReportSchemaVersion =
    "1.26.0";  // report.json (docs/report-schema.md)
}  // namespace report

namespace baseline {
inline constexpr const char* kBaselineSchemaVersion = "1.3.0";  // baseline.json (docs/recorder.md)
}  // namespace baseline

namespace compare {
inline constexpr const char* kCompareSchemaVersion = "1.3.0";  // compare --format json
}  // namespace compare

namespace ranks {
inline constexpr const char* kSummarySchemaVersion = "1.0.0";  // summary.json
inline constexpr const char* kRanksSchemaVersion = "1.0.0";    // ranks.json
}  // namespace ranks

namespace io::ceilings {
inline constexpr const char* kCacheSchemaVersion = "1.0.0";  // the measured-ceilings cache file
}  // namespace io::ceilings

}  // namespace gpuperf
