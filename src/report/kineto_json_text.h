// The text pieces of the Kineto dialect gpuperf writes (report/kineto_trace_writer.h,
// report/trace_export.h): strings as valid UTF-8 JSON, timestamps in relative microseconds with
// exactly three decimals, the comma-separated list of events, the categories of GPU work.
#pragma once

#include "gpuperf/trace.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace gpuperf::report {

// `text` as the inside of a JSON string: valid UTF-8 (an invalid byte becomes U+FFFD, so that
// every JSON reader takes the document), quotes, backslashes and control characters escaped.
std::string EscapeJsonUtf8(std::string_view text);

// Kineto's category of GPU work: "kernel", "gpu_memcpy", "gpu_memset".
std::string_view KinetoCategory(model::ActivityKind kind);

// Appends events to the "traceEvents" array of `out`, one per line.
class KinetoEventList {
 public:
  // `base_ns`: baseTimeNanoseconds, the absolute time "ts" counts from.
  KinetoEventList(std::string& out, std::int64_t base_ns) : out_(out), base_ns_(base_ns) {}
  // "ts" of an absolute time: relative µs with three decimals ("12.345"); a time before the base
  // is clamped to 0, as Kineto does.
  std::string Ts(std::int64_t absolute_ns) const;
  // "dur": µs with three decimals, a negative duration clamped to 0.
  static std::string Dur(std::int64_t ns);
  // One event; `body` is the object's members without the braces.
  void Add(std::string_view body);

 private:
  std::string& out_;
  std::int64_t base_ns_;
  bool first_ = true;
};

}  // namespace gpuperf::report
