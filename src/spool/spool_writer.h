// Writing the spool (see spool_format.h). Used inside the traced process by the injected
// library, so: no exceptions, no stdio buffering, no allocation per chunk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "spool/spool_format.h"

namespace gpuperf::spool {

// "<host>.<pid>.gpuperf", or "<host>.<pid>.r<rank>.gpuperf" when rank >= 0.
std::string SpoolFileName(std::string_view host, std::int64_t pid, std::int64_t rank);

// The process's rank as DetectJob (spool/job_environment.h) reads it from the
// launcher's variables, so that spool names and `gpuperf baseline`'s rank directory agree; -1
// when not under a launcher.
std::int64_t RankFromEnvironment();

// The short host name (uname), at most 63 characters.
std::string HostName();

// Appends whole chunks to one file with write(2). Not thread-safe: one writer thread owns it.
class SpoolFileWriter {
 public:
  SpoolFileWriter() = default;
  ~SpoolFileWriter();
  SpoolFileWriter(const SpoolFileWriter&) = delete;
  SpoolFileWriter& operator=(const SpoolFileWriter&) = delete;

  // Creates `path` (O_EXCL: a pid reused within one run must not clobber a file) and writes the
  // header. Returns false with errno set on failure.
  bool Open(const std::string& path, const FileHeader& header) noexcept;
  bool is_open() const noexcept { return fd_ >= 0; }

  bool WriteEvents(const Event* events, std::size_t count) noexcept;
  bool WriteString(std::uint32_t id, std::string_view text) noexcept;
  bool WriteDevice(const DeviceInfo& device) noexcept;
  bool WriteStatus(StatusLevel level, std::string_view message) noexcept;
  bool WriteFooter(const Footer& footer) noexcept;
  // fsync, then close. Safe to call twice.
  void Close() noexcept;

  std::uint64_t bytes_written() const noexcept { return bytes_written_; }

 private:
  bool WriteChunk(ChunkType type,
                  const void* prefix,
                  std::size_t prefix_size,
                  const void* data,
                  std::size_t size) noexcept;

  int fd_ = -1;
  std::uint64_t bytes_written_ = 0;
};

}  // namespace gpuperf::spool
