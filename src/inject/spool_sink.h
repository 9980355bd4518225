// The writer side of the injected recorder: CUPTI's buffer-completed thread decodes into a
// Batch and hands it here; one writer thread appends it to the spool file. Batches are
// recycled so steady state allocates nothing. The launch path never touches this class.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "inject/activity_decoder.h"
#include "spool/spool_writer.h"

namespace gpuperf::inject {

class SpoolSink {
 public:
  SpoolSink() = default;
  ~SpoolSink();
  SpoolSink(const SpoolSink&) = delete;
  SpoolSink& operator=(const SpoolSink&) = delete;

  // Creates the spool file and starts the writer thread. False when the file cannot be created.
  bool Open(const std::string& path, const spool::FileHeader& header) noexcept;
  bool is_open() const noexcept { return writer_.is_open(); }

  // A cleared batch to fill (recycled when one is free).
  std::unique_ptr<Batch> Acquire() noexcept;
  // Queues a filled batch for writing; takes ownership. No-op after Close().
  void Submit(std::unique_ptr<Batch> batch) noexcept;
  // Convenience: queues one status message.
  void Status(spool::StatusLevel level, const std::string& message) noexcept;

  // Writes everything queued, then the footer, then fsyncs and closes. Idempotent.
  void Close(const spool::Footer& footer) noexcept;

  std::uint64_t events_written() const noexcept { return events_written_; }

 private:
  void WriterLoop() noexcept;
  void WriteBatch(const Batch& batch) noexcept;

  spool::SpoolFileWriter writer_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::unique_ptr<Batch>> queue_;
  std::vector<std::unique_ptr<Batch>> free_;
  bool stopping_ = false;
  bool closed_ = false;
  std::thread thread_;
  std::uint64_t events_written_ = 0;  // writer thread only, read after join
};

}  // namespace gpuperf::inject
