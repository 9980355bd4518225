#include "record/environment.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "record/launcher.h"
#include "util/sha256.h"
#include "util/text.h"

extern char** environ;

namespace gpuperf::record {
namespace {

constexpr const char* kQueryFields =
    "index,uuid,name,pci.bus_id,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,temperature.gpu,"
    "power.draw,power.limit,clocks_event_reasons.active,persistence_mode,compute_mode";

std::vector<std::string> SplitCsv(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream stream(line);
  std::string cell;
  while (std::getline(stream, cell, ','))
    cells.emplace_back(util::Trim(cell));
  return cells;
}

}  // namespace

HostInfo CaptureHost() {
  HostInfo info;
  struct utsname names {};
  if (uname(&names) == 0) {
    info.host = names.nodename;
    info.os = std::string(names.sysname) + " " + names.release + " " + names.version + " " +
              names.machine;
  }
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.starts_with("model name")) {
      info.cpu = util::Trim(std::string_view(line).substr(line.find(':') + 1));
      break;
    }
  }
  if (info.cpu.empty())
    info.cpu = kNotAvailable;
  info.logical_cpus = static_cast<int>(std::thread::hardware_concurrency());
  std::ifstream version("/proc/driver/nvidia/version");
  if (version && std::getline(version, line)) {
    // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  Sun Jul ..."
    std::stringstream words(
        line.substr(line.find("Module") == std::string::npos ? 0 : line.find("Module") + 6));
    words >> info.driver_release;
  }
  if (info.driver_release.empty())
    info.driver_release = std::string(kNotAvailable) + " (no /proc/driver/nvidia/version)";
  return info;
}

std::map<std::string, std::string> RelevantEnvironment() {
  static constexpr const char* kPrefixes[] = {
      "CUDA_",   "NVIDIA_",         "NCCL_",      "CUBLAS", "CUDNN", "OMP_",
      "MKL_",    "PYTORCH_",        "TORCH",      "XLA_",   "JAX_",  "TF_",
      "TRITON_", "LD_LIBRARY_PATH", "LD_PRELOAD", "SLURM_", "OMPI_", "PMI_",
      "RANK",    "LOCAL_RANK",      "WORLD_SIZE", "NVTX_"};
  std::map<std::string, std::string> found;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text(*entry);
    const std::string name = text.substr(0, text.find('='));
    for (const char* prefix : kPrefixes) {
      if (name.starts_with(prefix)) {
        found[name] = text.substr(name.size() + 1);
        break;
      }
    }
  }
  return found;
}

nlohmann::ordered_json GpuStateSnapshot() {
  using nlohmann::ordered_json;
  if (ResolveProgram("nvidia-smi").empty()) {
    return ordered_json::array(
        {{{"status", std::string(kNotAvailable) + ": nvidia-smi not on PATH"}}});
  }
  const std::string command = std::string("nvidia-smi --query-gpu=") + kQueryFields +
                              " --format=csv,noheader,nounits 2>/dev/null";
  std::FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr)
    return ordered_json::array({{{"status", std::string(kNotAvailable) + ": popen failed"}}});
  std::string output;
  std::array<char, 4096> chunk{};
  std::size_t n = 0;
  while ((n = std::fread(chunk.data(), 1, chunk.size(), pipe)) > 0)
    output.append(chunk.data(), n);
  const int status = pclose(pipe);
  if (status != 0 || output.empty()) {
    return ordered_json::array({{{"status", std::string(kNotAvailable) + ": nvidia-smi failed"}}});
  }
  const std::vector<std::string> fields = SplitCsv(kQueryFields);
  ordered_json gpus = ordered_json::array();
  std::stringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    const std::vector<std::string> cells = SplitCsv(line);
    ordered_json gpu;
    for (std::size_t i = 0; i < fields.size(); ++i) {
      const std::string value = i < cells.size() ? cells[i] : "";
      gpu[fields[i]] =
          value.empty() || value.starts_with("[N/A]") || value.starts_with("[Not Supported]")
              ? ordered_json(kNotAvailable)
              : ordered_json(value);
    }
    gpus.push_back(gpu);
  }
  return gpus;
}

std::string CurrentDirectory() {
  std::array<char, 4096> buffer{};
  return getcwd(buffer.data(), buffer.size()) != nullptr ? std::string(buffer.data()) : "";
}

std::map<std::string, std::string> HashInputFiles(const std::vector<std::string>& command,
                                                  std::size_t max_files,
                                                  std::uintmax_t max_bytes) {
  namespace fs = std::filesystem;
  std::map<std::string, std::string> inputs;
  for (std::size_t i = 1; i < command.size() && inputs.size() < max_files; ++i) {
    std::string path = command[i];
    if (path.rfind("--", 0) == 0 && path.find('=') != std::string::npos)
      path = path.substr(path.find('=') + 1);
    std::error_code error;
    if (path.empty() || !fs::is_regular_file(path, error))
      continue;
    const std::uintmax_t size = fs::file_size(path, error);
    if (error)
      continue;
    if (size > max_bytes) {
      inputs[path] = "not hashed (" + std::to_string(size) + " bytes)";
      continue;
    }
    if (auto sha = util::Sha256File(path); sha.ok())
      inputs[path] = *sha;
  }
  return inputs;
}

}  // namespace gpuperf::record
