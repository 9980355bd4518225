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
  if (first == '\0' && head.find_first_not_of(" \t\r\n\v\f") == std::string_view::npos)
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

namespace {

// The first line of the CSVs `nsys stats --format csv` writes (2022-2025 report names), e.g.
// "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),..." for cuda_gpu_kern_sum.
bool IsNsysStatsCsv(std::string_view head) {
  std::string_view line = head.substr(0, head.find('\n'));
  return line.find("Total Time (ns)") != std::string_view::npos ||
         line.find("TAvg (ns)") != std::string_view::npos ||
         (line.find("Time (%)") != std::string_view::npos &&
          line.find("Instances") != std::string_view::npos);
}

}  // namespace

std::string DescribeInput(std::string_view name, std::string_view head) {
  std::string what = DescribeContent(head);
  if (what == "binary data") {
    if (name.ends_with(".nsys-rep") || name.ends_with(".qdrep")) {
      return "an Nsight Systems report (binary); export it first: nsys export --type sqlite "
             "--output report.sqlite FILE, then run gpuperf analyze report.sqlite";
    }
    if (name.ends_with(".ncu-rep")) {
      return "an Nsight Compute report (binary); export it first: ncu --import FILE --csv "
             "--page raw > ncu.csv, then run gpuperf analyze ncu.csv";
    }
  }
  if (what == "CSV or other text" && IsNsysStatsCsv(head)) {
    return "an `nsys stats` summary CSV (totals only, no timeline); give gpuperf the report "
           "itself: nsys export --type sqlite --output report.sqlite REPORT.nsys-rep";
  }
  return what;
}

}  // namespace gpuperf::io
