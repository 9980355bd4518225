#include "analysis/kernel/sass_match.h"

#include "util/kernel_name_keys.h"
#include "util/text.h"

namespace gpuperf::analysis {
namespace {

void Add(std::map<std::string, std::vector<const model::SassFunction*>, std::less<>>& index,
         std::string key,
         const model::SassFunction* function) {
  if (!key.empty())
    index[std::move(key)].push_back(function);
}

}  // namespace

SassIndex::SassIndex(const std::vector<model::SassFunction>& functions) {
  for (const model::SassFunction& f : functions) {
    Add(mangled_, f.mangled_name, &f);
    Add(demangled_, f.demangled_name, &f);
    Add(key_, util::SignatureKey(f.demangled_name), &f);
    Add(base_, util::BaseName(f.demangled_name), &f);
  }
}

SassMatch SassIndex::Find(std::string_view kernel_name) const {
  std::string_view name = util::Trim(kernel_name);
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
  if (const auto* found = lookup(key_, util::SignatureKey(name)))
    return {SassMatchTier::kSignature, *found};
  if (util::IsBareName(name)) {
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
