// RecordArray<T>: the storage of the model's large record arrays (activities, API calls, host ops,
// Python frames, ...). It grows by whole chunks of about 1 MiB and never moves what it holds.
//
// Why not std::vector: an importer does not know how many records a file holds, and a vector that
// doubles holds the old and the new array at once at each growth (three times the records at the
// last one), then keeps up to half of its capacity unused. On a 1 GB Kineto trace those copies
// were the peak of the import (268 MB for about 160 MB of records). Chunks cost one pointer per
// MiB and are filled in place; the model holds its records and at most one chunk's slack each.
//
// The interface is the subset of std::vector the model's users need: push_back / emplace_back,
// operator[], front / back, size, random-access iterators (std::sort works on them), clear.
// Indexing is one shift, one mask and one more load than a vector's. As with a vector, adding
// records invalidates iterators; references to the records stay valid until clear().
#pragma once

#include <bit>
#include <compare>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace gpuperf::model {

template <typename T>
class RecordArray {
  static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__, "over-aligned records");
  static constexpr std::size_t kTargetChunkBytes = std::size_t{1} << 20;

 public:
  // Records per chunk: the power of two that fills at most kTargetChunkBytes (at least 1).
  static constexpr std::size_t kChunkShift =
      sizeof(T) >= kTargetChunkBytes ? 0 : std::bit_width(kTargetChunkBytes / sizeof(T)) - 1;
  static constexpr std::size_t kChunkSize = std::size_t{1} << kChunkShift;
  static constexpr std::size_t kChunkMask = kChunkSize - 1;

  template <bool kConst>
  class Iterator {
   public:
    using iterator_concept = std::random_access_iterator_tag;
    using iterator_category = std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = std::conditional_t<kConst, const T*, T*>;
    using reference = std::conditional_t<kConst, const T&, T&>;

    Iterator() = default;
    Iterator(T* const* chunks, std::size_t index) : chunks_(chunks), index_(index) {}
    // iterator -> const_iterator
    template <bool kOther>
    requires(kConst && !kOther)
        Iterator(const Iterator<kOther>& other)  // NOLINT(google-explicit-constructor)
        : chunks_(other.chunks_), index_(other.index_) {}

    reference operator*() const { return chunks_[index_ >> kChunkShift][index_ & kChunkMask]; }
    pointer operator->() const { return &**this; }
    reference operator[](difference_type n) const { return *(*this + n); }

    Iterator& operator++() {
      ++index_;
      return *this;
    }
    Iterator operator++(int) {
      Iterator old = *this;
      ++index_;
      return old;
    }
    Iterator& operator--() {
      --index_;
      return *this;
    }
    Iterator operator--(int) {
      Iterator old = *this;
      --index_;
      return old;
    }
    Iterator& operator+=(difference_type n) {
      index_ = static_cast<std::size_t>(static_cast<difference_type>(index_) + n);
      return *this;
    }
    Iterator& operator-=(difference_type n) { return *this += -n; }
    friend Iterator operator+(Iterator it, difference_type n) { return it += n; }
    friend Iterator operator+(difference_type n, Iterator it) { return it += n; }
    friend Iterator operator-(Iterator it, difference_type n) { return it -= n; }
    friend difference_type operator-(const Iterator& a, const Iterator& b) {
      return static_cast<difference_type>(a.index_) - static_cast<difference_type>(b.index_);
    }
    friend bool operator==(const Iterator& a, const Iterator& b) { return a.index_ == b.index_; }
    friend auto operator<=>(const Iterator& a, const Iterator& b) { return a.index_ <=> b.index_; }

   private:
    template <bool>
    friend class Iterator;
    T* const* chunks_ = nullptr;
    std::size_t index_ = 0;
  };

  using value_type = T;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using iterator = Iterator<false>;
  using const_iterator = Iterator<true>;

  RecordArray() = default;
  RecordArray(std::initializer_list<T> records) {
    for (const T& record : records)
      push_back(record);
  }
  RecordArray(const RecordArray& other) {
    for (const T& record : other)
      push_back(record);
  }
  RecordArray(RecordArray&& other) noexcept
      : chunks_(std::move(other.chunks_)), size_(std::exchange(other.size_, 0)) {
    other.chunks_.clear();
  }
  RecordArray& operator=(const RecordArray& other) {
    if (this != &other) {
      clear();
      for (const T& record : other)
        push_back(record);
    }
    return *this;
  }
  RecordArray& operator=(RecordArray&& other) noexcept {
    if (this != &other) {
      clear();
      chunks_ = std::move(other.chunks_);
      other.chunks_.clear();
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  RecordArray& operator=(std::initializer_list<T> records) {
    clear();
    for (const T& record : records)
      push_back(record);
    return *this;
  }
  ~RecordArray() { clear(); }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  T& operator[](std::size_t i) { return chunks_[i >> kChunkShift][i & kChunkMask]; }
  const T& operator[](std::size_t i) const { return chunks_[i >> kChunkShift][i & kChunkMask]; }
  T& front() { return (*this)[0]; }
  const T& front() const { return (*this)[0]; }
  T& back() { return (*this)[size_ - 1]; }
  const T& back() const { return (*this)[size_ - 1]; }

  iterator begin() { return {chunks_.data(), 0}; }
  iterator end() { return {chunks_.data(), size_}; }
  const_iterator begin() const { return {chunks_.data(), 0}; }
  const_iterator end() const { return {chunks_.data(), size_}; }
  const_iterator cbegin() const { return begin(); }
  const_iterator cend() const { return end(); }

  void push_back(const T& record) { emplace_back(record); }
  void push_back(T&& record) { emplace_back(std::move(record)); }
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    if ((size_ & kChunkMask) == 0 && (size_ >> kChunkShift) == chunks_.size())
      chunks_.push_back(static_cast<T*>(::operator new(kChunkSize * sizeof(T))));
    T* slot = &chunks_[size_ >> kChunkShift][size_ & kChunkMask];
    ::new (static_cast<void*>(slot)) T(std::forward<Args>(args)...);
    ++size_;
    return *slot;
  }
  void pop_back() {
    --size_;
    std::destroy_at(&(*this)[size_]);
  }

  // Destroys every record and frees every chunk.
  void clear() {
    if constexpr (!std::is_trivially_destructible_v<T>) {
      for (T& record : *this)
        std::destroy_at(&record);
    }
    for (T* chunk : chunks_)
      ::operator delete(static_cast<void*>(chunk));
    chunks_.clear();
    size_ = 0;
  }
  // Makes room in the chunk table for `n` records; chunks are still allocated as records come.
  void reserve(std::size_t n) { chunks_.reserve((n + kChunkMask) >> kChunkShift); }
  // Frees the chunk table's spare capacity; a chunk is freed only by clear() (its untouched tail
  // costs address space, not resident memory).
  void shrink_to_fit() { chunks_.shrink_to_fit(); }

 private:
  std::vector<T*> chunks_;  // each kChunkSize records of raw storage; all but the last full
  std::size_t size_ = 0;
};

}  // namespace gpuperf::model
