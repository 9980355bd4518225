#include "io/kineto/prefetch_source.h"

#include <condition_variable>
#include <cstring>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace gpuperf::io::kineto {
namespace {

class PrefetchSource final : public util::ByteSource {
 public:
  PrefetchSource(std::unique_ptr<util::ByteSource> inner, std::size_t chunk_bytes)
      : inner_(std::move(inner)) {
    for (Chunk& chunk : chunks_)
      chunk.data.resize(chunk_bytes);
    worker_ = std::thread([this] { Produce(); });
  }
  ~PrefetchSource() override {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    changed_.notify_all();
    worker_.join();
  }
  PrefetchSource(const PrefetchSource&) = delete;
  PrefetchSource& operator=(const PrefetchSource&) = delete;

  Result<std::size_t> Read(char* buffer, std::size_t size) override {
    Chunk& chunk = chunks_[current_];
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return chunk.ready; });
    }
    // The worker does not touch a ready chunk: no lock needed until it is handed back.
    std::size_t n = std::min(size, chunk.size - chunk.consumed);
    std::memcpy(buffer, chunk.data.data() + chunk.consumed, n);
    chunk.consumed += n;
    if (n > 0 || size == 0) {
      if (chunk.consumed == chunk.size && !chunk.last)
        Release(chunk);
      return n;
    }
    if (chunk.error)
      return *chunk.error;
    return std::size_t{0};  // chunk.last and drained: the end
  }

 private:
  struct Chunk {
    std::vector<char> data;
    std::size_t size = 0;
    std::size_t consumed = 0;
    bool ready = false;
    bool last = false;  // the end of the data or an error follows this chunk
    std::optional<Error> error;
  };

  void Release(Chunk& chunk) {
    {
      std::lock_guard lock(mutex_);
      chunk.ready = false;
    }
    changed_.notify_all();
    current_ ^= 1;
  }

  // Worker: fills the chunks in turn until the inner source ends or fails.
  void Produce() {
    for (std::size_t k = 0;; k ^= 1) {
      Chunk& chunk = chunks_[k];
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return stop_ || !chunk.ready; });
        if (stop_)
          return;
      }
      Fill(chunk);
      bool last = chunk.last;
      {
        std::lock_guard lock(mutex_);
        chunk.ready = true;
      }
      changed_.notify_all();
      if (last)
        return;
    }
  }

  void Fill(Chunk& chunk) {
    chunk.size = 0;
    chunk.consumed = 0;
    while (chunk.size < chunk.data.size()) {
      auto n = inner_->Read(chunk.data.data() + chunk.size, chunk.data.size() - chunk.size);
      if (!n.ok()) {
        chunk.error = n.error();
        chunk.last = true;
        return;
      }
      if (*n == 0) {
        chunk.last = true;
        return;
      }
      chunk.size += *n;
    }
  }

  std::unique_ptr<util::ByteSource> inner_;
  Chunk chunks_[2];
  std::size_t current_ = 0;  // the chunk the reader takes bytes from
  std::mutex mutex_;
  std::condition_variable changed_;
  bool stop_ = false;
  std::thread worker_;
};

}  // namespace

std::unique_ptr<util::ByteSource> MakePrefetchSource(std::unique_ptr<util::ByteSource> inner,
                                                     std::size_t chunk_bytes) {
  return std::make_unique<PrefetchSource>(std::move(inner), chunk_bytes);
}

}  // namespace gpuperf::io::kineto
