// Exact parsing of the JSON number literals Kineto writes, never through a double:
// timestamps of 19 significant digits ("1712195495519689.047" µs) do not fit a double's 53 bits.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace gpuperf::io::kineto {

// Parses a JSON number literal of microseconds into int64 nanoseconds: integer part × 1000 plus
// the first three fraction digits. More fraction digits (sub-ns) round to the nearest ns, halves
// away from zero. Exponent forms from re-serializers ("1.5e3", "2E-3") are exact as well.
// Returns nullopt for anything that is not a number or does not fit int64 ns.
//   "12" -> 12000, "-0.5" -> -500, "1712195495519689.047" -> 1712195495519689047, "1e-4" -> 0
std::optional<std::int64_t> ParseMicrosAsNs(std::string_view literal);

// An integer literal ("-42", also "42.0" from re-serializers) as int64. Nullopt when it is not an
// integer or out of range (e.g. "Comms Id": 10159970886766084423).
std::optional<std::int64_t> ParseInt64(std::string_view literal);

// A string id as int64: "25738" -> 25738 (2021 string tids), "stream 7" -> 7 and
// "stream 7 (sync)" -> 7 (GPU tids). Nullopt for other text ("PyTorch Profiler", "Spans").
std::optional<std::int64_t> ParseEmbeddedInt(std::string_view text);

}  // namespace gpuperf::io::kineto
