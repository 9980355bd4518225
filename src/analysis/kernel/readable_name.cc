#include "analysis/kernel/readable_name.h"

#include "util/utf8.h"

namespace gpuperf::analysis {
namespace {

// A first template argument longer than this is elided: it is a type list, not a name.
constexpr std::size_t kFirstArgumentChars = 64;

// The first template argument of the list that starts after `open` (the '<'), its own template
// arguments dropped; sets *more when other arguments follow it.
std::string FirstArgument(std::string_view name, std::size_t open, bool* more) {
  std::string out;
  int depth = 0;
  *more = false;
  for (std::size_t i = open + 1; i < name.size(); ++i) {
    char c = name[i];
    if (c == '<') {
      ++depth;
      continue;
    }
    if (c == '>') {
      if (depth-- == 0)
        break;
      continue;
    }
    if (depth > 0)
      continue;
    if (c == ',') {
      *more = true;
      break;
    }
    out += c;
  }
  while (!out.empty() && out.front() == ' ')
    out.erase(out.begin());
  return out;
}

}  // namespace

std::string ReadableKernelName(std::string_view name) {
  if (name.starts_with("void "))
    name.remove_prefix(5);
  std::string out;
  int depth = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (c == '<') {
      if (depth++ == 0) {
        bool more = false;
        std::string first = FirstArgument(name, i, &more);
        out += first.empty() || first.size() > kFirstArgumentChars
                   ? "<…"
                   : "<" + first + (more ? ", …" : "");
      }
      continue;
    }
    if (c == '>' && depth > 0) {
      if (--depth == 0)
        out += '>';
      continue;
    }
    if (depth > 0)
      continue;
    // "(anonymous namespace)" and "operator()" stay; any other '(' at depth 0 opens the
    // parameter list.
    constexpr std::string_view kAnonymous = "(anonymous namespace)";
    if (c == '(' && name.substr(i).starts_with(kAnonymous)) {
      out += kAnonymous;
      i += kAnonymous.size() - 1;
      continue;
    }
    if (c == '(' && !std::string_view(out).ends_with("operator"))
      break;
    out += c;
  }
  while (!out.empty() && out.back() == ' ')
    out.pop_back();
  return out.empty() ? std::string(name) : out;
}

std::string KernelWithOperator(std::string_view kernel,
                               std::string_view op,
                               std::size_t max_chars) {
  return util::ShortenWithTag(ReadableKernelName(kernel), op, max_chars);
}

void AttachReadableNames(std::vector<report::KernelRow>& kernels) {
  for (report::KernelRow& row : kernels)
    row.readable_name = ReadableKernelName(row.name);
}

std::string OperatorDisplayName(std::string_view name, std::string_view source) {
  if (source == "launch_call")
    return "(no operator) via " + std::string(name);
  return std::string(name);
}

std::string OperatorDisplayName(const report::FrameworkView& view, std::string_view name) {
  for (const report::OperatorRow& op : view.operators) {
    if (op.name == name)
      return OperatorDisplayName(op.name, op.source);
  }
  return std::string(name);
}

}  // namespace gpuperf::analysis
