#include "gpuperf/diagnostics_catalogue.h"

#include <algorithm>

namespace gpuperf::model {

std::string_view ToString(DiagnosticSeverity severity) {
  switch (severity) {
    case DiagnosticSeverity::kInfo:
      return "info";
    case DiagnosticSeverity::kDataLoss:
      return "data-loss";
    case DiagnosticSeverity::kError:
      return "error";
  }
  return "info";
}

std::optional<Diagnostic> FindDiagnostic(std::string_view name) {
  // The catalogue is in byte order of the names (static_assert in the header).
  auto it = std::lower_bound(
      kDiagnosticCatalogue.begin(),
      kDiagnosticCatalogue.end(),
      name,
      [](const DiagnosticInfo& entry, std::string_view key) { return entry.name < key; });
  if (it == kDiagnosticCatalogue.end() || it->name != name)
    return std::nullopt;
  return it->id;
}

}  // namespace gpuperf::model
