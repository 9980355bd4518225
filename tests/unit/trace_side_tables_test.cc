// What the trace model keeps beside its records (gpuperf/trace.h): the sparse columns of facts
// only some records carry, and the record sizes those columns exist to keep (the import of the
// 1 GB benchmark trace must stay under 25% of its size in peak memory, docs/performance.md).
#include "gpuperf/trace.h"

#include <catch2/catch.hpp>

#include <optional>

using gpuperf::model::SparseColumn;

TEST_CASE("a sparse column finds the value of a record and nothing for the others",
          "[trace_model]") {
  SparseColumn column;
  CHECK(column.empty());
  CHECK_FALSE(column.Find(0).has_value());
  column.Add(3, 30);
  column.Add(7, 70);
  column.Add(8, 0);  // a zero value is a value
  CHECK(column.size() == 3);
  CHECK(column.Find(3) == std::optional<std::uint64_t>(30));
  CHECK(column.Find(7) == std::optional<std::uint64_t>(70));
  CHECK(column.Find(8) == std::optional<std::uint64_t>(0));
  for (std::size_t absent : {0, 2, 4, 6, 9, 1000})
    CHECK_FALSE(column.Find(absent).has_value());
}

TEST_CASE("the records every importer fills keep their sizes", "[trace_model]") {
  using namespace gpuperf::model;
  // Facts only some records have go beside the arrays (Trace::graph_node_ids, ...), not into them.
  CHECK(sizeof(GpuActivity) == 112);
  CHECK(sizeof(ApiCall) == 56);
  CHECK(sizeof(SyncEvent) == 64);
  CHECK(sizeof(Range) == 64);
  CHECK(sizeof(HostOp) == 64);
  CHECK(sizeof(PythonFrame) == 24);
  CHECK(sizeof(MemoryEvent) == 48);
  CHECK(sizeof(OsCall) == 40);
  CHECK(sizeof(CpuSample) == 32);
}
