#include "spool/spool_writer.h"

#include <fcntl.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "spool/job_environment.h"

namespace gpuperf::spool {
namespace {

// Chunks stay well under the uint32 size limit; a big batch becomes several chunks.
constexpr std::size_t kMaxEventsPerChunk = 1 << 20;

}  // namespace

std::string SpoolFileName(std::string_view host, std::int64_t pid, std::int64_t rank) {
  std::string name(host);
  name += '.';
  name += std::to_string(pid);
  if (rank >= 0) {
    name += ".r";
    name += std::to_string(rank);
  }
  name += kFileSuffix;
  return name;
}

std::int64_t RankFromEnvironment() {
  return DetectJob().rank;
}

std::string HostName() {
  struct utsname names {};
  if (uname(&names) != 0)
    return "unknown-host";
  std::string host(names.nodename);
  // Short name only, and nothing that could make the file name a path.
  host = host.substr(0, host.find('.'));
  for (char& c : host) {
    if (c == '/' || c == ' ')
      c = '_';
  }
  if (host.size() > 63)
    host.resize(63);
  return host.empty() ? "unknown-host" : host;
}

SpoolFileWriter::~SpoolFileWriter() {
  Close();
}

bool SpoolFileWriter::Open(const std::string& path, const FileHeader& header) noexcept {
  Close();
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd_ < 0)
    return false;
  const auto* bytes = reinterpret_cast<const char*>(&header);
  std::size_t done = 0;
  while (done < sizeof(header)) {
    const ssize_t n = ::write(fd_, bytes + done, sizeof(header) - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      Close();
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  bytes_written_ = sizeof(header);
  return true;
}

bool SpoolFileWriter::WriteChunk(ChunkType type,
                                 const void* prefix,
                                 std::size_t prefix_size,
                                 const void* data,
                                 std::size_t size) noexcept {
  if (fd_ < 0)
    return false;
  ChunkHeader chunk{static_cast<std::uint32_t>(type),
                    static_cast<std::uint32_t>(prefix_size + size)};
  iovec parts[3] = {{&chunk, sizeof(chunk)},
                    {const_cast<void*>(prefix), prefix_size},
                    {const_cast<void*>(data), size}};
  int first = 0;
  while (first < 3) {
    const ssize_t n = ::writev(fd_, parts + first, 3 - first);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return false;
    bytes_written_ += static_cast<std::uint64_t>(n);
    auto left = static_cast<std::size_t>(n);
    while (first < 3 && left >= parts[first].iov_len) {
      left -= parts[first].iov_len;
      ++first;
    }
    if (first < 3) {
      parts[first].iov_base = static_cast<char*>(parts[first].iov_base) + left;
      parts[first].iov_len -= left;
    }
  }
  return true;
}

bool SpoolFileWriter::WriteEvents(const Event* events, std::size_t count) noexcept {
  while (count > 0) {
    const std::size_t take = count < kMaxEventsPerChunk ? count : kMaxEventsPerChunk;
    if (!WriteChunk(ChunkType::kEvents, nullptr, 0, events, take * sizeof(Event)))
      return false;
    events += take;
    count -= take;
  }
  return true;
}

bool SpoolFileWriter::WriteString(std::uint32_t id, std::string_view text) noexcept {
  return WriteChunk(ChunkType::kString, &id, sizeof(id), text.data(), text.size());
}

bool SpoolFileWriter::WriteDevice(const DeviceInfo& device) noexcept {
  return WriteChunk(ChunkType::kDevice, nullptr, 0, &device, sizeof(device));
}

bool SpoolFileWriter::WriteStatus(StatusLevel level, std::string_view message) noexcept {
  const auto raw = static_cast<std::uint32_t>(level);
  return WriteChunk(ChunkType::kStatus, &raw, sizeof(raw), message.data(), message.size());
}

bool SpoolFileWriter::WriteFooter(const Footer& footer) noexcept {
  return WriteChunk(ChunkType::kFooter, nullptr, 0, &footer, sizeof(footer));
}

void SpoolFileWriter::Close() noexcept {
  if (fd_ < 0)
    return;
  ::fsync(fd_);
  ::close(fd_);
  fd_ = -1;
}

}  // namespace gpuperf::spool
