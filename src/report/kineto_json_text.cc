#include "report/kineto_json_text.h"

#include <fmt/format.h>

#include <algorithm>

#include "util/utf8.h"

namespace gpuperf::report {

std::string EscapeJsonUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (static_cast<unsigned char>(c) >= 0x80) {
      const util::CodePoint point = util::DecodeUtf8(text.substr(i));
      if (point.length == 0) {
        out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
      } else {
        out.append(text.substr(i, point.length));
        i += point.length - 1;
      }
      continue;
    }
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<unsigned char>(c));
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string_view KinetoCategory(model::ActivityKind kind) {
  switch (kind) {
    case model::ActivityKind::kKernel:
      return "kernel";
    case model::ActivityKind::kMemcpy:
      return "gpu_memcpy";
    case model::ActivityKind::kMemset:
      break;
  }
  return "gpu_memset";
}

std::string KinetoEventList::Ts(std::int64_t absolute_ns) const {
  const std::int64_t relative = std::max<std::int64_t>(absolute_ns - base_ns_, 0);
  return fmt::format("{}.{:03}", relative / 1000, relative % 1000);
}

std::string KinetoEventList::Dur(std::int64_t ns) {
  ns = std::max<std::int64_t>(ns, 0);
  return fmt::format("{}.{:03}", ns / 1000, ns % 1000);
}

void KinetoEventList::Add(std::string_view body) {
  out_ += first_ ? "\n  {" : ",\n  {";
  out_ += body;
  out_ += '}';
  first_ = false;
}

}  // namespace gpuperf::report
