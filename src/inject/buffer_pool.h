// Host buffers for CUPTI activity records. CUPTI asks for one when a per-thread buffer fills,
// which is rare; reusing them keeps malloc off that path after the first few.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace gpuperf::inject {

class BufferPool {
 public:
  ~BufferPool();
  void SetBufferSize(std::size_t bytes) { buffer_size_ = bytes; }
  std::size_t buffer_size() const { return buffer_size_; }
  // An 8-byte-aligned, zero-filled buffer of buffer_size() bytes, or nullptr when memory is
  // exhausted (CUPTI then drops records and counts them). Zeroed so that CUPTI need not zero it
  // on the program's thread (CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER).
  std::uint8_t* Take() noexcept;
  // Returns a buffer from Take(); it is zeroed here, on CUPTI's buffer-completed thread. nullptr
  // is ignored.
  void Give(std::uint8_t* buffer) noexcept;

 private:
  static constexpr std::size_t kMaxFree = 16;
  std::mutex mutex_;
  std::vector<std::uint8_t*> free_;
  std::size_t buffer_size_ = 8u << 20;
};

}  // namespace gpuperf::inject
