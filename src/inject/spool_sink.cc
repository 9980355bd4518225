#include "inject/spool_sink.h"

namespace gpuperf::inject {
namespace {

// Free batches kept for reuse; more than this are released (a burst should not pin memory).
constexpr std::size_t kMaxFreeBatches = 8;

}  // namespace

SpoolSink::~SpoolSink() {
  // Normally closed by the exit handler; a sink destroyed open gets a footer-less close so the
  // CLI still reports the run as partial rather than complete.
  std::unique_lock lock(mutex_);
  if (thread_.joinable()) {
    stopping_ = true;
    lock.unlock();
    wake_.notify_all();
    thread_.join();
  }
}

bool SpoolSink::Open(const std::string& path, const spool::FileHeader& header) noexcept {
  if (!writer_.Open(path, header))
    return false;
  try {
    thread_ = std::thread([this] { WriterLoop(); });
  } catch (...) {
    // No thread: Submit() writes synchronously instead (still correct, only slower).
  }
  return true;
}

std::unique_ptr<Batch> SpoolSink::Acquire() noexcept {
  try {
    std::lock_guard lock(mutex_);
    if (!free_.empty()) {
      auto batch = std::move(free_.back());
      free_.pop_back();
      batch->Clear();
      return batch;
    }
    return std::make_unique<Batch>();
  } catch (...) {
    return nullptr;
  }
}

void SpoolSink::Submit(std::unique_ptr<Batch> batch) noexcept {
  if (!batch)
    return;
  std::unique_lock lock(mutex_);
  if (closed_)
    return;
  if (!thread_.joinable()) {
    WriteBatch(*batch);  // under the lock: the file has one writer at a time
    return;
  }
  try {
    queue_.push_back(std::move(batch));
  } catch (...) {
    return;  // the batch is lost; the CLI sees fewer events than CUPTI records in the footer
  }
  lock.unlock();
  wake_.notify_one();
}

void SpoolSink::Status(spool::StatusLevel level, const std::string& message) noexcept {
  auto batch = Acquire();
  if (!batch)
    return;
  try {
    batch->statuses.emplace_back(level, message);
  } catch (...) {
    return;
  }
  Submit(std::move(batch));
}

void SpoolSink::WriteBatch(const Batch& batch) noexcept {
  // Strings before the events that name them, although the reader does not depend on it.
  for (const auto& [id, text] : batch.strings)
    writer_.WriteString(id, text);
  for (const auto& device : batch.devices)
    writer_.WriteDevice(device);
  for (const auto& [level, message] : batch.statuses)
    writer_.WriteStatus(level, message);
  if (!batch.events.empty() && writer_.WriteEvents(batch.events.data(), batch.events.size())) {
    events_written_ += batch.events.size();
  }
}

void SpoolSink::WriterLoop() noexcept {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty() && stopping_)
      return;
    auto batch = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    WriteBatch(*batch);
    lock.lock();
    if (free_.size() < kMaxFreeBatches) {
      try {
        free_.push_back(std::move(batch));
      } catch (...) {
      }
    }
  }
}

void SpoolSink::Close(const spool::Footer& footer) noexcept {
  std::unique_lock lock(mutex_);
  if (closed_)
    return;
  stopping_ = true;
  lock.unlock();
  wake_.notify_all();
  if (thread_.joinable())
    thread_.join();
  lock.lock();
  closed_ = true;
  for (auto& batch : queue_)
    WriteBatch(*batch);  // only when the thread never started
  queue_.clear();
  spool::Footer final_footer = footer;
  final_footer.events_written = events_written_;
  writer_.WriteFooter(final_footer);
  writer_.Close();
}

}  // namespace gpuperf::inject
