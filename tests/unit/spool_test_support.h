// A recording's spool built in memory for the tests of its importer (io_spool_test.cc) and of the
// Kineto writer that writes recordings (report_kineto_trace_writer_test.cc), and a trace printed
// as sorted lines, so that two traces compare as text and a difference prints as its line.
#pragma once

#include "gpuperf/trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "io/spool/spool_reader.h"

namespace gpuperf::testing {

inline constexpr std::int64_t kSpoolT0 = 1'759'300'074'000'000'000;  // a Kineto base: small "ts"
inline constexpr std::int64_t kSpoolPid = 4242;
inline constexpr std::int64_t kSpoolTid = 4243;

class SpoolBuilder {
 public:
  SpoolBuilder() {
    std::memcpy(contents_.header.magic, spool::kMagic, sizeof(spool::kMagic));
    contents_.header.event_size = sizeof(spool::Event);
    contents_.header.pid = kSpoolPid;
    contents_.header.start_time_ns = kSpoolT0;
    std::strncpy(contents_.header.host, "testhost", sizeof(contents_.header.host) - 1);
    contents_.has_footer = true;
  }

  std::uint32_t String(const std::string& text) {
    const auto id = static_cast<std::uint32_t>(contents_.strings.size() + 1);
    contents_.strings[id] = text;
    return id;
  }

  spool::Event& Add(spool::EventKind kind, std::int64_t start, std::int64_t end) {
    spool::Event e;
    e.kind = kind;
    e.start_ns = kSpoolT0 + start;
    e.end_ns = kSpoolT0 + end;
    e.pid = kSpoolPid;
    e.tid = kSpoolTid;
    contents_.events.push_back(e);
    return contents_.events.back();
  }

  spool::Event& Gpu(spool::EventKind kind,
                    std::int64_t start,
                    std::int64_t end,
                    std::int64_t corr) {
    spool::Event& e = Add(kind, start, end);
    e.device = 0;
    e.context = 1;
    e.stream = 7;
    e.correlation = corr;
    e.pid = -1;
    e.tid = -1;
    return e;
  }

  io::SpoolContents& contents() { return contents_; }

 private:
  io::SpoolContents contents_;
};

// A process that did a bit of everything the recorder keeps: runtime and driver launches, a
// kernel of each, a pageable copy whose driver correlation differs from the runtime one, two
// memsets, a graph launch with a kernel and a memset node, a context sync, an NVTX range around
// it all, an allocation and its release, and CUPTI overhead. Events [1] is the first kernel.
io::SpoolContents EverythingSpool();

// One line per record of the kinds the Kineto dialect carries back (and the properties its
// importer reads), times made absolute, sorted.
std::vector<std::string> TraceLines(const model::Trace& t);

// The lines of `a` that `b` lacks.
inline std::vector<std::string> MissingLines(const std::vector<std::string>& a,
                                             const std::vector<std::string>& b) {
  std::vector<std::string> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

}  // namespace gpuperf::testing
