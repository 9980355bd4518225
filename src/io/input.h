// An input to import: a file or a memory buffer, with its first bytes already decompressed so that
// importers can probe the content. Content decides the format, never the file name.
#pragma once

#include "gpuperf/result.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "util/byte_source.h"

namespace gpuperf::io {

class Input {
 public:
  // How many decompressed bytes a probe sees.
  static constexpr std::size_t kHeadBytes = 64 * 1024;

  static Result<Input> FromFile(const std::string& path);
  // `data` must outlive the Input. `name` appears in messages.
  static Result<Input> FromMemory(std::string_view data, std::string name);

  // The name to put in front of every message: the path as the user gave it.
  const std::string& name() const { return name_; }
  // The first kHeadBytes (or fewer) of the decompressed content.
  std::string_view head() const { return head_; }
  bool gzip() const { return gzip_; }
  // The file path, for readers that need one (SQLite). Empty for memory input.
  const std::optional<std::string>& path() const { return path_; }
  // The raw (compressed as stored) bytes for memory input.
  std::optional<std::string_view> memory() const { return memory_; }

  // A fresh source over the decompressed content, from the first byte.
  Result<std::unique_ptr<util::ByteSource>> Open() const;

 private:
  std::string name_;
  std::string head_;
  bool gzip_ = false;
  std::optional<std::string> path_;
  std::optional<std::string_view> memory_;
};

}  // namespace gpuperf::io
