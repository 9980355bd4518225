#include "io/input.h"

#include "io/input_limits.h"

namespace gpuperf::io {
namespace {

Result<std::unique_ptr<util::ByteSource>> OpenRaw(const std::optional<std::string>& path,
                                                  std::optional<std::string_view> memory) {
  if (path)
    return util::OpenFileSource(*path);
  return util::MakeMemorySource(*memory);
}

Result<std::string> ReadHead(util::ByteSource& source, const std::string& name) {
  std::string head(Input::kHeadBytes, '\0');
  std::size_t filled = 0;
  while (filled < head.size()) {
    auto n = source.Read(head.data() + filled, head.size() - filled);
    if (!n.ok()) {
      // A short gzip that is truncated inside the head still has a usable head for probing;
      // the importer meets the same error again and reports it.
      if (filled > 0)
        break;
      return Error{n.error().message.rfind(name, 0) == 0 ? n.error().message
                                                         : name + ": " + n.error().message};
    }
    if (*n == 0)
      break;
    filled += *n;
  }
  head.resize(filled);
  return head;
}

}  // namespace

Result<Input> Input::FromFile(const std::string& path) {
  Input input;
  input.name_ = path;
  input.path_ = path;
  auto raw = OpenRaw(input.path_, std::nullopt);
  if (!raw.ok())
    return raw.error();
  char magic[2] = {0, 0};
  auto n = (*raw)->Read(magic, 2);
  if (!n.ok())
    return n.error();
  input.gzip_ = util::HasGzipMagic(std::string_view(magic, *n));
  auto decoded = input.Open();
  if (!decoded.ok())
    return decoded.error();
  auto head = ReadHead(**decoded, path);
  if (!head.ok())
    return head.error();
  input.head_ = std::move(*head);
  return input;
}

Result<Input> Input::FromMemory(std::string_view data, std::string name) {
  Input input;
  input.name_ = std::move(name);
  input.memory_ = data;
  input.gzip_ = util::HasGzipMagic(data);
  auto decoded = input.Open();
  if (!decoded.ok())
    return decoded.error();
  auto head = ReadHead(**decoded, input.name_);
  if (!head.ok())
    return head.error();
  input.head_ = std::move(*head);
  return input;
}

Result<std::unique_ptr<util::ByteSource>> Input::Open() const {
  auto raw = OpenRaw(path_, memory_);
  if (!raw.ok())
    return raw.error();
  if (!gzip_)
    return std::move(*raw);
  const InputLimits& limits = ProcessInputLimits();
  util::InflateLimit limit;
  limit.max_bytes = limits.max_decompressed_bytes;
  limit.hint = "the limit of " + limits.decompressed_option + "; raise it to read this input";
  return util::MakeGunzipSource(std::move(*raw), name_, std::move(limit));
}

}  // namespace gpuperf::io
