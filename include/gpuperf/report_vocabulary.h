// The string vocabularies of the report model that are enum classes (report.h): a finding's
// severity, a statement's status and what dominates its window, each with the one ToString the
// writers spell it with (report.json keeps the same strings). The evidence tier, shared with the
// roofline and occupancy structs, is in gpuperf/evidence.h.
#pragma once

#include <string_view>

namespace gpuperf::report {

// How much a finding matters: report.json spells it "info" or "warning" (ToString).
enum class Severity { kInfo, kWarning };
inline std::string_view ToString(Severity severity) {
  switch (severity) {
    case Severity::kInfo:
      return "info";
    case Severity::kWarning:
      return "warning";
  }
  return "info";
}

// Whether a bottleneck statement is a finding (the evidence confirms it) or a hypothesis (it
// names the measurement that would test it); kNone before a statement is made. report.json spells
// them "finding", "hypothesis" and "" (ToString).
enum class DiagnosisStatus { kNone, kFinding, kHypothesis };
inline std::string_view ToString(DiagnosisStatus status) {
  switch (status) {
    case DiagnosisStatus::kNone:
      return "";
    case DiagnosisStatus::kFinding:
      return "finding";
    case DiagnosisStatus::kHypothesis:
      return "hypothesis";
  }
  return "";
}

// What dominates a statement's window: the GPU's idle, a kernel, operators (a framework lever), a
// phase, copies, communication, one-time work, nothing (the trace holds no GPU work: "none"), GPU
// work of unknown duration ("unknown"); kUnset before a statement is made. report.json spells
// them "idle", "kernel", "operators", "phase", "copy", "communication", "initialization", "none",
// "unknown" and "" (ToString, diagnosis.dominant.kind).
enum class DominantKind {
  kUnset,
  kIdle,
  kKernel,
  kOperators,
  kPhase,
  kCopy,
  kCommunication,
  kInitialization,
  kNone,
  kUnknown,
};
inline std::string_view ToString(DominantKind kind) {
  switch (kind) {
    case DominantKind::kUnset:
      return "";
    case DominantKind::kIdle:
      return "idle";
    case DominantKind::kKernel:
      return "kernel";
    case DominantKind::kOperators:
      return "operators";
    case DominantKind::kPhase:
      return "phase";
    case DominantKind::kCopy:
      return "copy";
    case DominantKind::kCommunication:
      return "communication";
    case DominantKind::kInitialization:
      return "initialization";
    case DominantKind::kNone:
      return "none";
    case DominantKind::kUnknown:
      return "unknown";
  }
  return "";
}

}  // namespace gpuperf::report
