#include "io/kernel_model/kernel_model_json.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <memory>
#include <optional>
#include <utility>

#include "model/kernel_model.h"
#include "util/byte_source.h"

namespace gpuperf::io {
namespace {

using Json = nlohmann::json;

// The first key of `object` not in `allowed`, as an error; "" when all are known.
std::string UnknownKey(const Json& object,
                       const std::string& where,
                       std::initializer_list<const char*> allowed) {
  for (const auto& [key, value] : object.items()) {
    bool known = false;
    for (const char* name : allowed)
      known = known || key == name;
    if (known)
      continue;
    std::string list;
    for (const char* name : allowed)
      list += (list.empty() ? "" : ", ") + std::string(name);
    return (where.empty() ? "" : where + ": ") + "unknown key \"" + key + "\" (known: " + list +
           ")";
  }
  return "";
}

// A non-empty string member; nullopt and `error` set when it is present but not one.
std::optional<std::string> Text(const Json& object,
                                const char* key,
                                const std::string& where,
                                std::string& error) {
  auto it = object.find(key);
  if (it == object.end())
    return std::nullopt;
  if (!it->is_string() || it->get_ref<const std::string&>().empty()) {
    if (error.empty())  // the first problem
      error = where + "." + key + ": not a non-empty string";
    return std::nullopt;
  }
  return it->get<std::string>();
}

std::string ReadEntry(const Json& item, std::size_t index, model::KernelModelEntry& entry) {
  const std::string where = "kernels[" + std::to_string(index) + "]";
  if (!item.is_object())
    return where + ": not an object";
  if (std::string unknown =
          UnknownKey(item, where, {"pattern", "flops", "bytes", "precision", "unit", "note"});
      !unknown.empty())
    return unknown;
  std::string error;
  auto pattern = Text(item, "pattern", where, error);
  if (!pattern && error.empty())
    error = where + ".pattern: missing";
  entry.pattern = pattern.value_or("");
  entry.flops = Text(item, "flops", where, error).value_or("");
  entry.bytes = Text(item, "bytes", where, error).value_or("");
  entry.precision = Text(item, "precision", where, error).value_or("fp32");
  entry.unit = Text(item, "unit", where, error).value_or("vector");
  if (auto note = item.find("note"); note != item.end()) {
    if (note->is_string())
      entry.note = note->get<std::string>();
    else if (error.empty())
      error = where + ".note: not a string";
  }
  return error;
}

std::string ReadRoot(const Json& root, model::KernelModelFile& file) {
  if (!root.is_object())
    return "not a JSON object";
  if (std::string unknown = UnknownKey(root, "", {"schema", "params", "kernels"}); !unknown.empty())
    return unknown;
  auto schema = root.find("schema");
  if (schema == root.end())
    return std::string("schema: missing (\"") + model::kKernelModelSchema + "\")";
  if (!schema->is_string() || schema->get_ref<const std::string&>() != model::kKernelModelSchema)
    return "schema: " + schema->dump() + " is not \"" + model::kKernelModelSchema + "\"";
  if (auto params = root.find("params"); params != root.end()) {
    if (!params->is_object())
      return "params: not an object";
    for (const auto& [name, value] : params->items()) {
      if (!value.is_number() || !std::isfinite(value.get<double>()))
        return "params." + name + ": not a finite number";
      file.params[name] = value.get<double>();
    }
  }
  auto kernels = root.find("kernels");
  if (kernels == root.end())
    return "kernels: missing";
  if (!kernels->is_array())
    return "kernels: not an array";
  for (std::size_t i = 0; i < kernels->size(); ++i) {
    model::KernelModelEntry entry;
    if (std::string error = ReadEntry((*kernels)[i], i, entry); !error.empty())
      return error;
    file.kernels.push_back(std::move(entry));
  }
  return "";
}

}  // namespace

Result<model::KernelModelFile> ParseKernelModelJson(std::string_view text,
                                                    const std::string& path) {
  if (text.size() > kMaxKernelModelBytes) {
    return Error{path + ": larger than the " + std::to_string(kMaxKernelModelBytes >> 20) +
                 " MiB a model file may have"};
  }
  Json root;
  try {
    root = Json::parse(text);
  } catch (const Json::exception& e) {
    return Error{path + ": not JSON (" + e.what() + ")"};
  }
  model::KernelModelFile file;
  file.path = path;
  if (std::string error = ReadRoot(root, file); !error.empty())
    return Error{path + ": " + error};
  // Compiled here to fail early; the analysis uses this compilation.
  auto compiled = model::CompileKernelModel(file);
  if (!compiled.ok())
    return Error{path + ": " + compiled.error().message};
  file.compiled = std::make_shared<const model::CompiledKernelModel>(std::move(compiled).value());
  return file;
}

Result<model::KernelModelFile> ReadKernelModelFile(const std::string& path) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored))
    return Error{path + ": is a directory, not a model file"};
  // One byte more than allowed, so that the parser sees an oversized file as such.
  auto text = util::ReadFileHead(path, kMaxKernelModelBytes + 1);
  if (!text.ok())
    return text.error();
  return ParseKernelModelJson(*text, path);
}

}  // namespace gpuperf::io
