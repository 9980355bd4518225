#include "io/sniff.h"

#include <cctype>

namespace gpuperf::io {

char FirstSignificantByte(std::string_view head) {
  if (head.substr(0, 3) == "\xEF\xBB\xBF")
    head.remove_prefix(3);
  for (char c : head) {
    if (!std::isspace(static_cast<unsigned char>(c)))
      return c;
  }
  return '\0';
}

std::string DescribeContent(std::string_view head) {
  if (head.empty())
    return "the file is empty";
  if (head.substr(0, 16) == std::string_view("SQLite format 3\0", 16)) {
    return "a SQLite database that is not an Nsight Systems export";
  }
  char first = FirstSignificantByte(head);
  if (first == '{' || first == '[') {
    if (head.find("\"nodes\"") != std::string_view::npos &&
        head.find("\"schema\"") != std::string_view::npos) {
      return "a PyTorch Execution Trace (operator graph, no timeline); record a Kineto trace with "
             "torch.profiler instead";
    }
    if (head.find("rocprofiler-sdk-tool") != std::string_view::npos) {
      return "a rocprofv3 JSON file (not supported yet)";
    }
    return "JSON without Chrome-trace events (no \"traceEvents\" and no array of events)";
  }
  if (first == '\0')
    return "the file holds only white space";
  std::size_t printable = 0;
  std::size_t commas = 0;
  for (char c : head) {
    auto u = static_cast<unsigned char>(c);
    if (std::isprint(u) || std::isspace(u))
      ++printable;
    if (c == ',')
      ++commas;
  }
  if (printable * 10 < head.size() * 9)
    return "binary data";
  if (commas > 0 && head.find('\n') != std::string_view::npos)
    return "CSV or other text";
  return "text that is not a trace";
}

}  // namespace gpuperf::io
