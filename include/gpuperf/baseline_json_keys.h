// The keys of baseline.json that gpuperf also reads back (`compare` and `ranks`, through
// io/report/baseline_json_reader.h), declared once for the writer (src/report/baseline_json.cc)
// and the reader; the round-trip test (tests/unit/baseline_json_roundtrip_test.cc) holds them
// together. Every key is documented in docs/recorder.md.
#pragma once

namespace gpuperf::baseline::json_keys {

inline constexpr const char* kSchemaVersion = "schema_version";

inline constexpr const char* kHardware = "hardware";
inline constexpr const char* kGpus = "gpus";  // hardware.gpus[]
inline constexpr const char* kGpuName = "name";
inline constexpr const char* kMaxSmClockKhz = "max_sm_clock_khz";
inline constexpr const char* kMaxMemoryClockKhz = "max_memory_clock_khz";
inline constexpr const char* kDeviceInUse = "device_in_use";  // hardware.device_in_use
inline constexpr const char* kStateBefore = "state_before";   // in both of them

inline constexpr const char* kSoftware = "software";
inline constexpr const char* kDriverRelease = "driver_release";
inline constexpr const char* kCudaRuntimeVersion = "cuda_runtime_version";

inline constexpr const char* kWorkload = "workload";
inline constexpr const char* kCommand = "command";
inline constexpr const char* kExecutableSha256 = "executable_sha256";
inline constexpr const char* kInputs = "inputs";  // workload.inputs[]
inline constexpr const char* kInputPath = "path";
inline constexpr const char* kInputSha256 = "sha256";

inline constexpr const char* kRuns = "runs";  // runs[]
inline constexpr const char* kRunIndex = "index";
inline constexpr const char* kRunWallTimeS = "wall_time_s";
inline constexpr const char* kRunComplete = "complete";
inline constexpr const char* kRunTraces = "traces";

inline constexpr const char* kAnalysis = "analysis";
inline constexpr const char* kAnalyzedRun = "run";  // analysis.run

}  // namespace gpuperf::baseline::json_keys
