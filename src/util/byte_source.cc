#include "util/byte_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace gpuperf::util {
namespace {

class FileSource final : public ByteSource {
 public:
  FileSource(std::FILE* file, std::string path) : file_(file), path_(std::move(path)) {}
  ~FileSource() override { std::fclose(file_); }
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;

  Result<std::size_t> Read(char* buffer, std::size_t size) override {
    std::size_t n = std::fread(buffer, 1, size, file_);
    if (n < size && std::ferror(file_)) {
      return Error{path_ + ": read error: " + std::strerror(errno)};
    }
    return n;
  }

 private:
  std::FILE* file_;
  std::string path_;
};

class MemorySource final : public ByteSource {
 public:
  explicit MemorySource(std::string_view data) : data_(data) {}
  Result<std::size_t> Read(char* buffer, std::size_t size) override {
    std::size_t n = std::min(size, data_.size() - offset_);
    std::memcpy(buffer, data_.data() + offset_, n);
    offset_ += n;
    return n;
  }

 private:
  std::string_view data_;
  std::size_t offset_ = 0;
};

class GunzipSource final : public ByteSource {
 public:
  GunzipSource(std::unique_ptr<ByteSource> inner, std::string name, InflateLimit limit)
      : inner_(std::move(inner)), name_(std::move(name)), limit_(std::move(limit)), input_(kChunk) {
    std::memset(&stream_, 0, sizeof(stream_));
    // 15 + 32: zlib or gzip header, detected automatically.
    init_ok_ = inflateInit2(&stream_, 15 + 32) == Z_OK;
  }
  ~GunzipSource() override { inflateEnd(&stream_); }
  GunzipSource(const GunzipSource&) = delete;
  GunzipSource& operator=(const GunzipSource&) = delete;

  Result<std::size_t> Read(char* buffer, std::size_t size) override {
    if (!init_ok_)
      return Error{name_ + ": cannot initialise zlib"};
    stream_.next_out = reinterpret_cast<Bytef*>(buffer);
    stream_.avail_out = static_cast<uInt>(std::min<std::size_t>(size, 1u << 30));
    while (stream_.avail_out > 0 && !finished_) {
      if (stream_.avail_in == 0) {
        auto n = inner_->Read(reinterpret_cast<char*>(input_.data()), input_.size());
        if (!n.ok())
          return n.error();
        if (*n == 0) {
          if (in_member_)
            return Error{name_ + ": truncated gzip stream"};
          finished_ = true;
          break;
        }
        stream_.next_in = input_.data();
        stream_.avail_in = static_cast<uInt>(*n);
      }
      in_member_ = true;
      int rc = inflate(&stream_, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) {
        in_member_ = false;
        // Concatenated gzip members are one stream (RFC 1952 §2.2).
        if (inflateReset(&stream_) != Z_OK)
          return Error{name_ + ": corrupt gzip stream"};
        continue;
      }
      if (rc == Z_BUF_ERROR)
        continue;  // needs more input
      if (rc != Z_OK) {
        return Error{name_ + ": corrupt gzip stream (" +
                     std::string(stream_.msg ? stream_.msg : "inflate failed") + ")"};
      }
    }
    const std::size_t produced = size - stream_.avail_out;
    total_ += produced;
    if (total_ > limit_.max_bytes) {
      return Error{name_ + ": inflates to more than " + std::to_string(limit_.max_bytes) +
                   " bytes" + (limit_.hint.empty() ? std::string() : " (" + limit_.hint + ")")};
    }
    return produced;
  }

 private:
  static constexpr std::size_t kChunk = 1 << 18;
  std::unique_ptr<ByteSource> inner_;
  std::string name_;
  InflateLimit limit_;
  std::uint64_t total_ = 0;  // bytes inflated so far
  std::vector<Bytef> input_;
  z_stream stream_;
  bool init_ok_ = false;
  bool in_member_ = false;
  bool finished_ = false;
};

}  // namespace

Result<std::unique_ptr<ByteSource>> OpenFileSource(const std::string& path) {
  // O_NONBLOCK: opening a FIFO without a writer must not block before the check below.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return Error{path + ": cannot open: " + std::strerror(errno)};
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    const char* kind = S_ISFIFO(info.st_mode)                           ? "a FIFO"
                       : S_ISDIR(info.st_mode)                          ? "a directory"
                       : S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode) ? "a device"
                       : S_ISSOCK(info.st_mode)                         ? "a socket"
                                                                        : "unknown kind";
    ::close(fd);
    return Error{path + ": not a regular file (" + kind + ")"};
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  std::FILE* file = ::fdopen(fd, "rb");
  if (file == nullptr) {
    ::close(fd);
    return Error{path + ": cannot open: " + std::strerror(errno)};
  }
  return std::unique_ptr<ByteSource>(new FileSource(file, path));
}

std::unique_ptr<ByteSource> MakeMemorySource(std::string_view data) {
  return std::make_unique<MemorySource>(data);
}

std::unique_ptr<ByteSource> MakeGunzipSource(std::unique_ptr<ByteSource> compressed,
                                             std::string name,
                                             InflateLimit limit) {
  return std::make_unique<GunzipSource>(std::move(compressed), std::move(name), std::move(limit));
}

Result<std::string> ReadAll(ByteSource& source, std::size_t limit_bytes) {
  std::string out;
  std::vector<char> chunk(1 << 16);
  while (true) {
    auto n = source.Read(chunk.data(), chunk.size());
    if (!n.ok())
      return n.error();
    if (*n == 0)
      break;
    if (out.size() + *n > limit_bytes) {
      return Error{"larger than " + std::to_string(limit_bytes) + " bytes"};
    }
    out.append(chunk.data(), *n);
  }
  return out;
}

Result<std::string> ReadFileText(const std::string& path, std::size_t limit_bytes) {
  auto source = OpenFileSource(path);
  if (!source.ok())
    return source.error();
  auto text = ReadAll(**source, limit_bytes);
  if (!text.ok() && text.error().message.rfind(path, 0) != 0)
    return Error{path + ": " + text.error().message};
  return text;
}

Result<std::string> ReadFileHead(const std::string& path, std::size_t size) {
  auto source = OpenFileSource(path);
  if (!source.ok())
    return source.error();
  std::string head(size, '\0');
  std::size_t filled = 0;
  while (filled < size) {
    auto n = (*source)->Read(head.data() + filled, size - filled);
    if (!n.ok())
      return n.error();
    if (*n == 0)
      break;
    filled += *n;
  }
  head.resize(filled);
  return head;
}

}  // namespace gpuperf::util
