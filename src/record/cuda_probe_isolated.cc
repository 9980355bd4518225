#include "record/cuda_probe_isolated.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "util/child_process.h"

namespace gpuperf::record {
namespace {

using nlohmann::json;

ProbeResult Failure(const std::string& message) {
  ProbeResult result;
  result.status = ProbeStatus::kDriverError;
  result.message = message;
  return result;
}

void WriteAll(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return;
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

std::string ProbeResultToJson(const ProbeResult& result) {
  json devices = json::array();
  for (const ProbedDevice& d : result.devices) {
    devices.push_back({{"ordinal", d.ordinal},
                       {"name", d.name},
                       {"uuid", d.uuid},
                       {"pci_bus_id", d.pci_bus_id},
                       {"compute_major", d.compute_major},
                       {"compute_minor", d.compute_minor},
                       {"sm_count", d.sm_count},
                       {"memory_bytes", d.memory_bytes},
                       {"l2_bytes", d.l2_bytes},
                       {"sm_clock_khz", d.sm_clock_khz},
                       {"memory_clock_khz", d.memory_clock_khz},
                       {"bus_width_bits", d.bus_width_bits},
                       {"peak_bandwidth_bytes_per_s", d.peak_bandwidth_bytes_per_s}});
  }
  return json({{"status", static_cast<int>(result.status)},
               {"message", result.message},
               {"driver_api_version", result.driver_api_version},
               {"devices", devices}})
      .dump(-1, ' ', false, json::error_handler_t::replace);
}

ProbeResult ProbeResultFromJson(const std::string& text) {
  try {
    const json j = json::parse(text);
    ProbeResult result;
    const int status = j.at("status").get<int>();
    if (status < static_cast<int>(ProbeStatus::kOk) ||
        status > static_cast<int>(ProbeStatus::kDriverError))
      return Failure("the CUDA driver probe answered an unknown status");
    result.status = static_cast<ProbeStatus>(status);
    result.message = j.at("message").get<std::string>();
    result.driver_api_version = j.at("driver_api_version").get<int>();
    for (const json& d : j.at("devices")) {
      ProbedDevice device;
      device.ordinal = d.at("ordinal").get<std::int32_t>();
      device.name = d.at("name").get<std::string>();
      device.uuid = d.at("uuid").get<std::string>();
      device.pci_bus_id = d.at("pci_bus_id").get<std::string>();
      device.compute_major = d.at("compute_major").get<std::int32_t>();
      device.compute_minor = d.at("compute_minor").get<std::int32_t>();
      device.sm_count = d.at("sm_count").get<std::int32_t>();
      device.memory_bytes = d.at("memory_bytes").get<std::int64_t>();
      device.l2_bytes = d.at("l2_bytes").get<std::int64_t>();
      device.sm_clock_khz = d.at("sm_clock_khz").get<std::int64_t>();
      device.memory_clock_khz = d.at("memory_clock_khz").get<std::int64_t>();
      device.bus_width_bits = d.at("bus_width_bits").get<std::int32_t>();
      device.peak_bandwidth_bytes_per_s = d.at("peak_bandwidth_bytes_per_s").get<double>();
      result.devices.push_back(std::move(device));
    }
    return result;
  } catch (const std::exception&) {
    return Failure("the CUDA driver probe's answer was unreadable");
  }
}

ProbeResult ProbeCudaIsolated(int timeout_ms, ProbeResult (*probe)()) {
  util::ChildSpec spec;
  spec.body = [probe](int answer_fd) {
    WriteAll(answer_fd, ProbeResultToJson(probe()));
    return 0;  // _exit: no atexit handlers, no driver teardown in the child
  };
  std::string answer;
  spec.on_output = [&answer](std::string_view chunk) { answer.append(chunk); };
  spec.timeout = std::chrono::milliseconds(timeout_ms);  // then SIGKILL: a hung cuInit
  auto outcome = util::RunChild(spec);
  if (!outcome.ok())
    return probe();  // no pipe or no fork: probe in-process rather than not at all
  if (outcome->timed_out) {
    return Failure("the CUDA driver did not answer within " + std::to_string(timeout_ms / 1000) +
                   " s (cuInit hung: check the GPU with nvidia-smi and the kernel log)");
  }
  if (outcome->signaled) {
    return Failure(std::string("the CUDA driver probe crashed (") + strsignal(outcome->signal) +
                   ")");
  }
  if (answer.empty())
    return Failure("the CUDA driver probe exited without an answer");
  return ProbeResultFromJson(answer);
}

}  // namespace gpuperf::record
