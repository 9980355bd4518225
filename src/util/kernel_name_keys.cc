#include "util/kernel_name_keys.h"

#include <cctype>

#include "util/text.h"

namespace gpuperf::util {
namespace {

bool IsIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

std::string WithoutSpace(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (!IsSpace(c))
      out += c;
  }
  return out;
}

// The start of the function name: after the last space outside template brackets and
// parentheses ("void ns::f<int>" -> "ns::f<int>", "enable_if<!T7, void>::type k<a, b>" ->
// "k<a, b>").
std::size_t FunctionStart(std::string_view name) {
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (c == '<' || c == '(')
      ++depth;
    else if ((c == '>' || c == ')') && depth > 0)
      --depth;
    else if (c == ' ' && depth == 0)
      start = i + 1;
  }
  return start;
}

}  // namespace

std::string_view WithoutParameters(std::string_view kernel_name) {
  std::string_view name = Trim(kernel_name);
  if (name.empty() || name.back() != ')')
    return name;
  int depth = 0;
  for (std::size_t i = name.size(); i-- > 0;) {
    if (name[i] == ')')
      ++depth;
    else if (name[i] == '(' && --depth == 0)
      return Trim(name.substr(0, i));
  }
  return name;
}

std::string SignatureKey(std::string_view kernel_name) {
  std::string_view name = WithoutParameters(kernel_name);
  if (name.substr(0, 5) == "void ")
    name = Trim(name.substr(5));
  return WithoutSpace(name);
}

std::string NormalKey(std::string_view kernel_name) {
  std::string_view name = WithoutParameters(kernel_name);
  name.remove_prefix(FunctionStart(name));
  std::string compact = WithoutSpace(name);
  // Drop every "identifier::" qualifier, at any template depth ("cutlass::Kernel2<a::B>" ->
  // "Kernel2<B>"), and "(anonymous namespace)::".
  std::string key;
  for (std::size_t i = 0; i < compact.size();) {
    if (compact.compare(i, 22, "(anonymousnamespace)::") == 0) {
      i += 22;
      continue;
    }
    std::size_t j = i;
    while (j < compact.size() && IsIdentifierChar(compact[j]))
      ++j;
    if (j > i && compact.compare(j, 2, "::") == 0) {
      i = j + 2;
      continue;
    }
    if (j > i) {
      key.append(compact, i, j - i);
      i = j;
    } else {
      key += compact[i++];
    }
  }
  return key;
}

std::string BaseName(std::string_view kernel_name) {
  std::string_view name = WithoutParameters(kernel_name);
  name = Trim(name.substr(0, name.find('<')));
  if (std::size_t space = name.find_last_of(' '); space != std::string_view::npos)
    name = name.substr(space + 1);  // "void ns::f" -> "ns::f"
  if (std::size_t colons = name.rfind("::"); colons != std::string_view::npos)
    name = name.substr(colons + 2);
  return std::string(name);
}

bool IsBareName(std::string_view kernel_name) {
  return !kernel_name.empty() && kernel_name.find_first_of("<(: ") == std::string_view::npos;
}

}  // namespace gpuperf::util
