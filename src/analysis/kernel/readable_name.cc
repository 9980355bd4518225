#include "analysis/kernel/readable_name.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

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
    // A parameter list inside the argument (a function type, a lambda's) is one unit: its commas
    // do not end the argument, and it reads "(…)", so the name never holds an unclosed '('.
    if (c == '(' && depth == 0) {
      constexpr std::string_view kAnonymous = "(anonymous namespace)";
      if (name.substr(i).starts_with(kAnonymous)) {
        out += kAnonymous;
        i += kAnonymous.size() - 1;
        continue;
      }
      int parens = 0;
      std::size_t j = i;
      for (; j < name.size(); ++j) {
        parens += name[j] == '(' ? 1 : name[j] == ')' ? -1 : 0;
        if (parens == 0)
          break;
      }
      out += "(…)";
      i = j;
      continue;
    }
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

namespace {

// The length of the prefix two names share.
std::size_t SharedPrefix(std::string_view a, std::string_view b) {
  std::size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i])
    ++i;
  return i;
}

// The part of `name` where it stops matching the most similar other name (`at`: the prefix they
// share): the innermost bracketed group around the first difference ("(instance 2)" of a lambda,
// "<128, 4, 1>"), or a window around it when that group is long.
std::string DistinguishingPart(std::string_view name, std::size_t at) {
  if (at >= name.size())
    return "";
  constexpr std::size_t kMaxPart = 40;
  std::size_t open = std::string_view::npos;
  int depth = 0;
  for (std::size_t i = at; i-- > 0;) {
    char c = name[i];
    if (c == ')' || c == ']' || c == '>') {
      ++depth;
    } else if (c == '(' || c == '[' || c == '<') {
      if (depth-- == 0) {
        open = i;
        break;
      }
    }
  }
  auto identifier = [&](std::size_t i) {
    return i < name.size() && (std::isalnum(static_cast<unsigned char>(name[i])) || name[i] == '_');
  };
  if (open != std::string_view::npos) {
    // With the identifier it belongs to: "FillFunctor<int>", not "<int>".
    std::size_t from = open;
    while (from > 0 && identifier(from - 1))
      --from;
    depth = 0;
    for (std::size_t i = open; i < name.size() && i - from < kMaxPart; ++i) {
      char c = name[i];
      depth += (c == '(' || c == '[' || c == '<') ? 1 : (c == ')' || c == ']' || c == '>') ? -1 : 0;
      if (depth == 0)
        return std::string(name.substr(from, i - from + 1));
    }
  }
  // From the start of the word the difference is in: "cutlass_80_wmma_tensorop…", not "utlass…".
  std::size_t start = at;
  while (start > 0 && identifier(start - 1) && at - start < kMaxPart / 2)
    --start;
  std::string part = util::Shorten(name.substr(start), kMaxPart);
  // Never leave a '(' open: the headline cuts sentences at ": " outside parentheses.
  std::vector<std::size_t> open_at;
  for (std::size_t i = 0; i < part.size(); ++i) {
    if (part[i] == '(')
      open_at.push_back(i);
    else if (part[i] == ')' && !open_at.empty())
      open_at.pop_back();
  }
  if (!open_at.empty())
    part = part.substr(0, open_at.front()) + "(…)";
  return part;
}

}  // namespace

void AttachReadableNames(std::vector<report::KernelRow>& kernels) {
  for (report::KernelRow& row : kernels)
    row.readable_name = ReadableKernelName(row.name);
  // Kernels whose readable names coincide (template instances, lambdas of one function) get the
  // part of the full name that tells them apart, so no two rows read the same.
  std::unordered_map<std::string, std::vector<std::size_t>> by_readable;
  for (std::size_t i = 0; i < kernels.size(); ++i)
    by_readable[kernels[i].readable_name].push_back(i);
  for (auto& [readable, rows] : by_readable) {
    if (rows.size() < 2)
      continue;
    // In sorted order the longest prefix a name shares with any other is the one it shares with
    // a neighbour: one comparison each, where all pairs were quadratic in the group (a hundred
    // Kokkos kernels of one readable name).
    std::vector<std::size_t> sorted = rows;
    std::sort(sorted.begin(), sorted.end(), [&](std::size_t a, std::size_t b) {
      return kernels[a].name < kernels[b].name;
    });
    std::vector<std::string> parts;
    for (std::size_t k = 0; k < sorted.size(); ++k) {
      std::string_view name = kernels[sorted[k]].name;
      std::size_t at = 0;
      if (k > 0)
        at = SharedPrefix(name, kernels[sorted[k - 1]].name);
      if (k + 1 < sorted.size())
        at = std::max(at, SharedPrefix(name, kernels[sorted[k + 1]].name));
      parts.push_back(DistinguishingPart(name, at));
    }
    for (std::size_t k = 0; k < sorted.size(); ++k) {
      if (!parts[k].empty())
        kernels[sorted[k]].readable_name = readable + " … " + parts[k];
    }
  }
}

std::string OperatorDisplayName(std::string_view name, report::OperatorSource source) {
  if (source == report::OperatorSource::kLaunchCall)
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

std::string_view LambdaRoutine(std::string_view name) {
  std::size_t lambda = std::string_view::npos;
  for (std::string_view marker : {"::[lambda", "::{lambda"}) {
    std::size_t at = name.find(marker);
    if (at != std::string_view::npos && at < lambda)
      lambda = at;
  }
  if (lambda == std::string_view::npos || lambda == 0)
    return {};
  std::size_t end = lambda;    // one past the routine's name
  if (name[end - 1] == ')') {  // skip its parameter list, nested parentheses included
    int depth = 0;
    std::size_t i = end;
    while (i > 0) {
      char c = name[--i];
      if (c == ')')
        ++depth;
      else if (c == '(' && --depth == 0)
        break;
    }
    if (depth != 0)
      return {};
    end = i;
  }
  auto identifier = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '~';
  };
  std::size_t begin = end;
  while (begin > 0 && identifier(name[begin - 1]))
    --begin;
  while (begin < end && name[begin] == ':')
    ++begin;
  return name.substr(begin, end - begin);
}

}  // namespace gpuperf::analysis
