#include "io/spool/spool_reader.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <iterator>

#include "util/byte_source.h"

namespace gpuperf::io {
namespace {

const std::string kEmpty;

// Applies one complete chunk; returns false on a chunk that cannot be what it says it is.
bool ApplyChunk(spool::ChunkType type,
                const char* payload,
                std::uint32_t size,
                SpoolContents& out) {
  switch (type) {
    case spool::ChunkType::kEvents: {
      if (size % sizeof(spool::Event) != 0)
        return false;
      const std::size_t count = size / sizeof(spool::Event);
      const std::size_t first = out.events.size();
      out.events.resize(first + count);
      std::memcpy(out.events.data() + first, payload, size);
      return true;
    }
    case spool::ChunkType::kString: {
      if (size < sizeof(std::uint32_t))
        return false;
      std::uint32_t id = 0;
      std::memcpy(&id, payload, sizeof(id));
      out.strings[id].assign(payload + sizeof(id), size - sizeof(id));
      return true;
    }
    case spool::ChunkType::kDevice: {
      if (size != sizeof(spool::DeviceInfo))
        return false;
      spool::DeviceInfo device;
      std::memcpy(&device, payload, size);
      device.name[sizeof(device.name) - 1] = '\0';
      out.devices.push_back(device);
      return true;
    }
    case spool::ChunkType::kStatus: {
      if (size < sizeof(std::uint32_t))
        return false;
      std::uint32_t level = 0;
      std::memcpy(&level, payload, sizeof(level));
      out.statuses.push_back({static_cast<spool::StatusLevel>(level),
                              std::string(payload + sizeof(level), size - sizeof(level))});
      return true;
    }
    case spool::ChunkType::kFooter:
      if (size != sizeof(spool::Footer))
        return false;
      std::memcpy(&out.footer, payload, size);
      out.has_footer = true;
      return true;
  }
  return false;
}

}  // namespace

const std::string& SpoolContents::String(std::uint32_t id) const {
  const auto it = strings.find(id);
  return it == strings.end() ? kEmpty : it->second;
}

Result<SpoolContents> ReadSpoolFile(const std::string& path) {
  auto text = util::ReadFileText(path, kMaxSpoolBytes);
  if (!text.ok())
    return Error{text.error().message + " (the recording)"};
  return ParseSpool(*text, path);
}

Result<SpoolContents> ParseSpool(std::string_view data, const std::string& path) {
  SpoolContents out;
  out.path = path;
  if (data.size() < sizeof(spool::FileHeader)) {
    return Error{path + ": recording too short for its header (" + std::to_string(data.size()) +
                 " bytes)"};
  }
  std::memcpy(&out.header, data.data(), sizeof(out.header));
  if (std::memcmp(out.header.magic, spool::kMagic, sizeof(spool::kMagic)) != 0) {
    return Error{path + ": not a gpuperf recording (bad magic)"};
  }
  if (out.header.version != spool::kVersion || out.header.event_size != sizeof(spool::Event)) {
    return Error{path + ": recording version " + std::to_string(out.header.version) +
                 " is not the version this gpuperf reads (" + std::to_string(spool::kVersion) +
                 ")"};
  }
  out.header.host[sizeof(out.header.host) - 1] = '\0';
  out.header.session[sizeof(out.header.session) - 1] = '\0';
  std::size_t offset = sizeof(spool::FileHeader);
  while (offset < data.size()) {
    spool::ChunkHeader chunk;
    if (data.size() - offset < sizeof(chunk))
      break;
    std::memcpy(&chunk, data.data() + offset, sizeof(chunk));
    if (data.size() - offset - sizeof(chunk) < chunk.size)
      break;
    if (!ApplyChunk(static_cast<spool::ChunkType>(chunk.type),
                    data.data() + offset + sizeof(chunk),
                    chunk.size,
                    out)) {
      return Error{path + ": corrupt chunk at byte " + std::to_string(offset)};
    }
    offset += sizeof(chunk) + chunk.size;
  }
  out.truncated_bytes = static_cast<std::int64_t>(data.size() - offset);
  return out;
}

std::vector<std::string> ListSpoolFiles(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file(error) && name.ends_with(spool::kFileSuffix)) {
      files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace gpuperf::io
