#include "inject/buffer_pool.h"

#include <cstdlib>
#include <cstring>

namespace gpuperf::inject {

BufferPool::~BufferPool() {
  for (std::uint8_t* buffer : free_)
    std::free(buffer);
}

std::uint8_t* BufferPool::Take() noexcept {
  {
    std::lock_guard lock(mutex_);
    if (!free_.empty()) {
      std::uint8_t* buffer = free_.back();
      free_.pop_back();
      return buffer;
    }
  }
  // CUPTI requires 8-byte alignment; calloc gives at least 16 on x86-64 and aarch64 Linux, and
  // zero pages straight from the kernel for buffers this large.
  return static_cast<std::uint8_t*>(std::calloc(1, buffer_size_));
}

void BufferPool::Give(std::uint8_t* buffer) noexcept {
  if (buffer == nullptr)
    return;
  std::memset(buffer, 0, buffer_size_);
  try {
    std::lock_guard lock(mutex_);
    if (free_.size() < kMaxFree) {
      free_.push_back(buffer);
      return;
    }
  } catch (...) {
  }
  std::free(buffer);
}

}  // namespace gpuperf::inject
