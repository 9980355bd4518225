#include "inject/buffer_pool.h"

#include <cstdlib>

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
  // CUPTI requires 8-byte alignment; malloc gives at least 16 on x86-64 and aarch64 Linux.
  return static_cast<std::uint8_t*>(std::aligned_alloc(8, buffer_size_));
}

void BufferPool::Give(std::uint8_t* buffer) noexcept {
  if (buffer == nullptr)
    return;
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
