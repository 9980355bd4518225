#include "gpuperf/record_array.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

using gpuperf::model::RecordArray;

namespace {

struct Wide {
  std::int64_t value = 0;
  char padding[100] = {};
};

}  // namespace

TEST_CASE("RecordArray holds records across chunk boundaries without moving them",
          "[record_array]") {
  RecordArray<Wide> records;
  const std::size_t n = 3 * RecordArray<Wide>::kChunkSize + 7;
  records.push_back({0, {}});
  const Wide* first = &records[0];
  for (std::size_t i = 1; i < n; ++i)
    records.emplace_back().value = static_cast<std::int64_t>(i);
  REQUIRE(records.size() == n);
  CHECK(&records[0] == first);  // growth copies nothing
  CHECK(records.front().value == 0);
  CHECK(records.back().value == static_cast<std::int64_t>(n - 1));
  std::int64_t expected = 0;
  for (const Wide& w : records)
    CHECK(w.value == expected++);
  CHECK(records.end() - records.begin() == static_cast<std::ptrdiff_t>(n));
  records.pop_back();
  CHECK(records.size() == n - 1);
  records.clear();
  CHECK(records.empty());
}

TEST_CASE("RecordArray iterators are random access: std::sort and lower_bound work",
          "[record_array]") {
  RecordArray<std::int32_t> values;
  const std::int32_t n = static_cast<std::int32_t>(2 * RecordArray<std::int32_t>::kChunkSize + 3);
  for (std::int32_t i = 0; i < n; ++i)
    values.push_back(static_cast<std::int32_t>((std::int64_t{i} * 7919) % n));  // a permutation
  std::sort(values.begin(), values.end());
  CHECK(std::is_sorted(values.begin(), values.end()));
  CHECK(values.front() == 0);
  CHECK(values.back() == n - 1);
  auto it = std::lower_bound(values.begin(), values.end(), n / 2);
  CHECK(*it == n / 2);
  CHECK(it - values.begin() == n / 2);
  CHECK(std::accumulate(values.cbegin(), values.cend(), std::int64_t{0}) ==
        std::int64_t{n} * (n - 1) / 2);
}

TEST_CASE("RecordArray copies, moves and holds non-trivial records", "[record_array]") {
  RecordArray<std::string> names{"a", "b"};
  for (int i = 0; i < 1000; ++i)
    names.push_back(std::string(40, static_cast<char>('c' + i % 20)));
  RecordArray<std::string> copy = names;
  REQUIRE(copy.size() == names.size());
  CHECK(copy[1] == "b");
  CHECK(copy.back() == names.back());
  RecordArray<std::string> moved = std::move(copy);
  CHECK(moved.size() == names.size());
  CHECK(copy.empty());  // NOLINT(bugprone-use-after-move): a moved-from array is empty
  moved = {"x"};
  REQUIRE(moved.size() == 1);
  CHECK(moved[0] == "x");
  names = moved;
  CHECK(std::vector<std::string>(names.begin(), names.end()) == std::vector<std::string>{"x"});
}
