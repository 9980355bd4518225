#include "analysis/sass_match.h"

#include <cctype>

namespace gpuperf::analysis {
namespace {

bool IsSpace(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && IsSpace(text.front()))
    text.remove_prefix(1);
  while (!text.empty() && IsSpace(text.back()))
    text.remove_suffix(1);
  return text;
}

// The name without a trailing balanced "(...)" and without a leading "void ".
std::string_view Signatureless(std::string_view name) {
  name = Trim(name);
  if (!name.empty() && name.back() == ')') {
    int depth = 0;
    for (std::size_t i = name.size(); i-- > 0;) {
      if (name[i] == ')') {
        ++depth;
      } else if (name[i] == '(' && --depth == 0) {
        name = Trim(name.substr(0, i));
        break;
      }
    }
  }
  if (name.substr(0, 5) == "void ")
    name = Trim(name.substr(5));
  return name;
}

bool IsBare(std::string_view name) {
  return !name.empty() && name.find_first_of("<(: ") == std::string_view::npos;
}

void Add(std::map<std::string, std::vector<const model::SassFunction*>, std::less<>>& index,
         std::string key,
         const model::SassFunction* function) {
  if (!key.empty())
    index[std::move(key)].push_back(function);
}

}  // namespace

std::string SassKey(std::string_view name) {
  std::string key;
  for (char c : Signatureless(name)) {
    if (!IsSpace(c))
      key += c;
  }
  return key;
}

std::string SassBaseName(std::string_view name) {
  std::string_view base = Signatureless(name);
  base = Trim(base.substr(0, base.find('<')));
  if (std::size_t space = base.find_last_of(' '); space != std::string_view::npos)
    base = base.substr(space + 1);  // a return type other than void
  if (std::size_t colons = base.rfind("::"); colons != std::string_view::npos)
    base = base.substr(colons + 2);
  return std::string(base);
}

SassIndex::SassIndex(const std::vector<model::SassFunction>& functions) {
  for (const model::SassFunction& f : functions) {
    Add(mangled_, f.mangled_name, &f);
    Add(demangled_, f.demangled_name, &f);
    Add(key_, SassKey(f.demangled_name), &f);
    Add(base_, SassBaseName(f.demangled_name), &f);
  }
}

SassMatch SassIndex::Find(std::string_view kernel_name) const {
  std::string_view name = Trim(kernel_name);
  if (name.empty())
    return {};
  auto lookup = [](const Index& index, std::string_view key) -> const auto* {
    auto it = index.find(key);
    return it == index.end() ? nullptr : &it->second;
  };
  if (const auto* found = lookup(mangled_, name))
    return {SassMatchTier::kMangled, *found};
  if (const auto* found = lookup(demangled_, name))
    return {SassMatchTier::kDemangled, *found};
  if (const auto* found = lookup(key_, SassKey(name)))
    return {SassMatchTier::kSignature, *found};
  if (IsBare(name)) {
    if (const auto* found = lookup(base_, name))
      return {SassMatchTier::kBaseName, *found};
  }
  return {};
}

std::string_view ToString(SassMatchTier tier) {
  switch (tier) {
    case SassMatchTier::kMangled:
      return "mangled name";
    case SassMatchTier::kDemangled:
      return "demangled name";
    case SassMatchTier::kSignature:
      return "name without parameters";
    case SassMatchTier::kBaseName:
      return "base name";
    case SassMatchTier::kNone:
      break;
  }
  return "none";
}

}  // namespace gpuperf::analysis
