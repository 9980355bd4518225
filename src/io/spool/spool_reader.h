// Reading a spool written by the injected library (spool/spool_format.h).
#pragma once

#include "gpuperf/result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "spool/spool_format.h"

namespace gpuperf::io {

// A spool file is one process's recording; larger than this it is not one of ours.
inline constexpr std::size_t kMaxSpoolBytes = std::size_t{64} << 30;

struct SpoolStatus {
  spool::StatusLevel level = spool::StatusLevel::kInfo;
  std::string message;
};

// One process's recording.
struct SpoolContents {
  std::string path;
  spool::FileHeader header;
  std::vector<spool::Event> events;
  std::unordered_map<std::uint32_t, std::string> strings;
  std::vector<spool::DeviceInfo> devices;
  std::vector<SpoolStatus> statuses;
  bool has_footer = false;  // false: the process ended without our exit handler (partial)
  spool::Footer footer;
  std::int64_t truncated_bytes = 0;  // a chunk cut short by a kill, not kept

  // The string for `id`, or "" when it was never written.
  const std::string& String(std::uint32_t id) const;
};

// Reads a whole spool. Fails only when the header is missing or foreign; a cut tail is counted.
Result<SpoolContents> ReadSpoolFile(const std::string& path);

// The same for the bytes of a spool file (tests, the fuzz target); `path` names it in errors.
Result<SpoolContents> ParseSpool(std::string_view data, const std::string& path);

// Every "*.gpuperf" file directly in `dir`, sorted by name.
std::vector<std::string> ListSpoolFiles(const std::string& dir);

}  // namespace gpuperf::io
