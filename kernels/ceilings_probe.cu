// gpuperf_ceilings_probe: measures the sustainable ceilings of one GPU for `gpuperf ceilings`
// (docs/metrics.md, "Measured ceilings") and prints them as one JSON object on stdout:
//   {"probe": "gpuperf_ceilings_probe", "probe_version": 1, "device": {...}, "cuda": {...},
//    "dram": {...}, "fp32_vector": {...}, "bf16_tensor": {...}, "fp16_tensor": {...},
//    "method": "..."}
// Usage: gpuperf_ceilings_probe [--device N]
// Errors go to stderr as one line and the exit status is non-zero (1 CUDA or validation failure,
// 2 usage). Every CUDA call is checked.
//
// Method, for each figure: calibrate the work of one launch until it takes at least
// kTargetLaunchMs, one warm-up launch, then kReps timed launches (cudaEvent); the figure is the
// best (shortest) launch, the median is reported beside it.
//  - dram: float4 copy, ping-pong between two buffers of max(4 x L2, 256 MiB) each, `passes`
//    sweeps per launch; each thread touches the same indices in every pass (no races), and
//    between two touches of an element the whole buffer went through L2. bytes = read + write.
//  - fp32_vector: 8 independent FMA chains per thread, unrolled; one full wave of blocks (every
//    SM at its occupancy limit). FLOPs = 2 per FMA. Thread 0's chains are recomputed on the host
//    (fmaf rounds identically) to prove the work ran.
//  - bf16_tensor / fp16_tensor: nvcuda::wmma 16x16x16 fragments, FP32 accumulate, 8 independent
//    accumulators per warp held in registers; one full wave. FLOPs = 2 x 16 x 16 x 16 per
//    mma_sync per warp. This is the warp-level MMA (mma.sync) rate: on Hopper, wgmma kernels
//    (cuBLAS, CUTLASS 3) can exceed it.
//  - SM clock: block 0 reads clock64() and %globaltimer at its start and end in each compute
//    kernel; cycles / ns is the SM clock that kernel ran at. cudaDevAttrClockRate is the maximum.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <mma.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr double kTargetLaunchMs = 25.0;  // calibrated launch length (at least 10 ms)
constexpr double kMinLaunchMs = 10.0;     // below this a measurement is refused
constexpr int kReps = 10;
constexpr int kChains = 8;        // independent FMA chains per thread
constexpr int kAccumulators = 8;  // independent wmma accumulators per warp
constexpr int kFmaThreads = 256;
constexpr int kMmaWarpsPerBlock = 4;
constexpr std::size_t kMinBufferBytes = std::size_t{256} << 20;

// A failed CUDA call: the message for stderr, and the process exits 1 from main.
struct Failure {
  std::string message;
};

void Check(cudaError_t error, const char* call, int line) {
  if (error != cudaSuccess) {
    throw Failure{std::string(call) + " (ceilings_probe.cu:" + std::to_string(line) +
                  "): " + cudaGetErrorName(error) + ": " + cudaGetErrorString(error)};
  }
}
#define CHECK_CUDA(call) Check((call), #call, __LINE__)

// Device-side clock sample of one kernel run (block 0, thread 0).
struct ClockSample {
  unsigned long long cycles_start, cycles_end, ns_start, ns_end;
};

__device__ __forceinline__ unsigned long long GlobalTimerNs() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ void SampleStart(ClockSample* clock) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    clock->ns_start = GlobalTimerNs();
    clock->cycles_start = clock64();
  }
}

__device__ __forceinline__ void SampleEnd(ClockSample* clock) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    clock->cycles_end = clock64();
    clock->ns_end = GlobalTimerNs();
  }
}

// passes sweeps; even passes copy a -> b, odd passes b -> a.
__global__ void CopyKernel(float4* a, float4* b, std::size_t n, int passes) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t first = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (int p = 0; p < passes; ++p) {
    const float4* src = (p & 1) ? b : a;
    float4* dst = (p & 1) ? a : b;
    for (std::size_t i = first; i < n; i += stride)
      dst[i] = src[i];
  }
}

__host__ __device__ inline void FmaChains(float (&x)[kChains], float m, float c, int iters) {
#pragma unroll 16
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int j = 0; j < kChains; ++j)
      x[j] = fmaf(x[j], m, c);
  }
}

__host__ __device__ inline void FmaSeeds(float (&x)[kChains], unsigned thread) {
  for (int j = 0; j < kChains; ++j)
    x[j] = 1.0f + 0.001f * static_cast<float>(j) + 1e-6f * static_cast<float>(thread & 1023u);
}

__global__ void FmaKernel(float* out, float m, float c, int iters, ClockSample* clock) {
  SampleStart(clock);
  const unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;
  float x[kChains];
  FmaSeeds(x, thread);
  FmaChains(x, m, c, iters);
  float sum = 0;
#pragma unroll
  for (int j = 0; j < kChains; ++j)
    sum += x[j];
  out[thread] = sum;
  SampleEnd(clock);
}

// One warp: A and B fragments loaded once, kAccumulators independent accumulators.
template <typename T>
__global__ void MmaKernel(const T* a, const T* b, float* out, int iters, ClockSample* clock) {
  using namespace nvcuda;
  SampleStart(clock);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[kAccumulators];
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
#pragma unroll
  for (int k = 0; k < kAccumulators; ++k)
    wmma::fill_fragment(acc[k], 0.0f);
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < kAccumulators; ++k)
      wmma::mma_sync(acc[k], fa, fb, acc[k]);
  }
#pragma unroll
  for (int k = 1; k < kAccumulators; ++k) {
#pragma unroll
    for (int e = 0; e < acc[0].num_elements; ++e)
      acc[0].x[e] += acc[k].x[e];
  }
  const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  wmma::store_matrix_sync(out + std::size_t(warp) * 256, acc[0], 16, wmma::mem_row_major);
  SampleEnd(clock);
}

// Timing of one figure.
struct Timing {
  double best_ms = 0;
  double median_ms = 0;
};

// Times `launch` kReps times after one warm-up launch.
template <typename Launch>
Timing TimeLaunches(const Launch& launch) {
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  launch();
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<double> ms;
  for (int r = 0; r < kReps; ++r) {
    CHECK_CUDA(cudaEventRecord(start));
    launch();
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaEventRecord(stop));
    CHECK_CUDA(cudaEventSynchronize(stop));
    float elapsed = 0;
    CHECK_CUDA(cudaEventElapsedTime(&elapsed, start, stop));
    ms.push_back(elapsed);
  }
  CHECK_CUDA(cudaEventDestroy(start));
  CHECK_CUDA(cudaEventDestroy(stop));
  std::sort(ms.begin(), ms.end());
  return {ms.front(), (ms[(kReps - 1) / 2] + ms[kReps / 2]) / 2};
}

// Grows `work` (iterations or passes) until one launch takes kTargetLaunchMs; returns it.
template <typename Launch>
long long Calibrate(long long work, long long max_work, const Launch& launch) {
  for (int attempt = 0; attempt < 8; ++attempt) {
    const double ms = TimeLaunches([&] { launch(work); }).best_ms;
    if (ms >= kTargetLaunchMs || work >= max_work)
      return work;
    const double scale = ms > 0 ? kTargetLaunchMs * 1.1 / ms : 16.0;
    work = std::min(
        max_work,
        static_cast<long long>(std::ceil(static_cast<double>(work) * std::min(scale, 64.0))));
  }
  return work;
}

std::string FormatUuid(const cudaUUID_t& uuid) {
  const auto* b = reinterpret_cast<const unsigned char*>(uuid.bytes);
  char text[64];
  std::snprintf(text,
                sizeof(text),
                "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                b[0],
                b[1],
                b[2],
                b[3],
                b[4],
                b[5],
                b[6],
                b[7],
                b[8],
                b[9],
                b[10],
                b[11],
                b[12],
                b[13],
                b[14],
                b[15]);
  return text;
}

std::string JsonString(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\u%04x", c);
      out += escaped;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// A measured figure must be a finite positive rate from launches of at least kMinLaunchMs.
void Validate(const char* what, double rate, const Timing& timing) {
  if (!std::isfinite(rate) || rate <= 0)
    throw Failure{std::string(what) + ": implausible rate " + std::to_string(rate)};
  if (!(timing.best_ms >= kMinLaunchMs))
    throw Failure{std::string(what) + ": the longest calibrated launch took only " +
                  std::to_string(timing.best_ms) + " ms (needs " + std::to_string(kMinLaunchMs) +
                  ")"};
}

// The SM clock of a sample in Hz; 0 when the sample is unusable.
double ClockHz(const ClockSample& s) {
  if (s.ns_end <= s.ns_start || s.cycles_end <= s.cycles_start)
    return 0;
  return static_cast<double>(s.cycles_end - s.cycles_start) * 1e9 /
         static_cast<double>(s.ns_end - s.ns_start);
}

struct Device {
  int ordinal = 0;
  cudaDeviceProp prop{};
  int sm_count = 0;
  int l2_bytes = 0;
  int max_clock_khz = 0;
};

std::string FigureJson(double rate,
                       const char* rate_key,
                       double work_per_launch,
                       const char* work_key,
                       const Timing& t,
                       double clock_hz,
                       const std::string& extra) {
  char clock[64] = "";
  if (clock_hz > 0)  // absent when not measured (dram) or unusable
    std::snprintf(clock, sizeof(clock), ", \"sm_clock_hz\": %.6e", clock_hz);
  char text[512];
  std::snprintf(text,
                sizeof(text),
                "{\"%s\": %.6e, \"%s\": %.6e, \"best_ms\": %.6f, \"median_ms\": %.6f, "
                "\"reps\": %d%s%s}",
                rate_key,
                rate,
                work_key,
                work_per_launch,
                t.best_ms,
                t.median_ms,
                kReps,
                clock,
                extra.c_str());
  return text;
}

std::string MeasureDram(const Device& d) {
  std::size_t buffer = std::max<std::size_t>(std::size_t(4) * d.l2_bytes, kMinBufferBytes);
  std::size_t free_bytes = 0, total_bytes = 0;
  CHECK_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (2 * buffer > free_bytes / 2)
    throw Failure{"dram: needs 2 x " + std::to_string(buffer >> 20) + " MiB, " +
                  std::to_string(free_bytes >> 20) + " MiB free"};
  const std::size_t n = buffer / sizeof(float4);
  float4 *a = nullptr, *b = nullptr;
  CHECK_CUDA(cudaMalloc(&a, n * sizeof(float4)));
  CHECK_CUDA(cudaMalloc(&b, n * sizeof(float4)));
  // a[i] = (i, i, i, i) as floats of the low 24 bits, to check the copies afterwards.
  std::vector<float4> pattern(1 << 16);
  for (std::size_t off = 0; off < n; off += pattern.size()) {
    const std::size_t count = std::min(pattern.size(), n - off);
    for (std::size_t i = 0; i < count; ++i) {
      const float v = static_cast<float>((off + i) & 0xffffff);
      pattern[i] = make_float4(v, v, v, v);
    }
    CHECK_CUDA(cudaMemcpy(a + off, pattern.data(), count * sizeof(float4), cudaMemcpyHostToDevice));
  }
  int per_sm = 0;
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, CopyKernel, 256, 0));
  const int blocks = std::max(1, per_sm) * d.sm_count;
  long long passes = 2;
  auto launch = [&](long long p) { CopyKernel<<<blocks, 256>>>(a, b, n, static_cast<int>(p)); };
  passes = Calibrate(passes, 1 << 16, launch);
  passes += passes & 1;  // even: the data ends in `a`
  const Timing t = TimeLaunches([&] { launch(passes); });
  // Every element of `a` must still be its pattern after the ping-pong.
  for (std::size_t at : {std::size_t(0), n / 2, n - pattern.size()}) {
    CHECK_CUDA(cudaMemcpy(
        pattern.data(), a + at, pattern.size() * sizeof(float4), cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < pattern.size(); ++i) {
      if (pattern[i].w != static_cast<float>((at + i) & 0xffffff))
        throw Failure{"dram: copy kernel produced wrong data at element " + std::to_string(at + i)};
    }
  }
  CHECK_CUDA(cudaFree(a));
  CHECK_CUDA(cudaFree(b));
  const double bytes = 2.0 * static_cast<double>(n * sizeof(float4)) * static_cast<double>(passes);
  const double rate = bytes / (t.best_ms * 1e-3);
  Validate("dram", rate, t);
  char extra[160];
  std::snprintf(extra,
                sizeof(extra),
                ", \"buffer_bytes\": %zu, \"passes\": %lld, \"blocks\": %d",
                n * sizeof(float4),
                passes,
                blocks);
  return FigureJson(rate, "bytes_per_s", bytes, "bytes_per_launch", t, 0.0, extra);
}

std::string MeasureFp32(const Device& d) {
  int per_sm = 0;
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, FmaKernel, kFmaThreads, 0));
  const int blocks = std::max(1, per_sm) * d.sm_count;  // one full wave
  const std::size_t threads = std::size_t(blocks) * kFmaThreads;
  float* out = nullptr;
  ClockSample* clock = nullptr;
  CHECK_CUDA(cudaMalloc(&out, threads * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&clock, sizeof(ClockSample)));
  const float m = 0.9999f, c = 0.0001f;  // fixed point 1: the chains stay finite
  auto launch = [&](long long iters) {
    FmaKernel<<<blocks, kFmaThreads>>>(out, m, c, static_cast<int>(iters), clock);
  };
  const long long iters = Calibrate(1024, 1 << 28, launch);
  const Timing t = TimeLaunches([&] { launch(iters); });
  ClockSample sample{};
  float device_sum = 0;
  CHECK_CUDA(cudaMemcpy(&sample, clock, sizeof(sample), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(&device_sum, out, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(out));
  CHECK_CUDA(cudaFree(clock));
  float x[kChains];
  FmaSeeds(x, 0);
  FmaChains(x, m, c, static_cast<int>(iters));
  float host_sum = 0;
  for (float v : x)
    host_sum += v;
  if (!std::isfinite(device_sum) || device_sum != host_sum)
    throw Failure{"fp32_vector: thread 0 computed " + std::to_string(device_sum) + ", the host " +
                  std::to_string(host_sum)};
  const double flops = 2.0 * kChains * static_cast<double>(iters) * static_cast<double>(threads);
  const double rate = flops / (t.best_ms * 1e-3);
  Validate("fp32_vector", rate, t);
  char extra[160];
  std::snprintf(extra,
                sizeof(extra),
                ", \"iterations\": %lld, \"chains\": %d, \"blocks\": %d, \"threads_per_block\": %d",
                iters,
                kChains,
                blocks,
                kFmaThreads);
  return FigureJson(rate, "flops_per_s", flops, "flops_per_launch", t, ClockHz(sample), extra);
}

template <typename T>
std::string MeasureMma(const Device& d, const char* what) {
  const int threads = kMmaWarpsPerBlock * 32;
  int per_sm = 0;
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, MmaKernel<T>, threads, 0));
  const int blocks = std::max(1, per_sm) * d.sm_count;
  const std::size_t warps = std::size_t(blocks) * kMmaWarpsPerBlock;
  // Small values of both signs: the accumulators stay finite over millions of steps.
  std::vector<T> host_a(256), host_b(256);
  for (int i = 0; i < 256; ++i) {
    host_a[i] = T(((i * 7) % 13 - 6) / 64.0f);
    host_b[i] = T(((i * 5) % 11 - 5) / 64.0f);
  }
  T *a = nullptr, *b = nullptr;
  float* out = nullptr;
  ClockSample* clock = nullptr;
  CHECK_CUDA(cudaMalloc(&a, 256 * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&b, 256 * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&out, warps * 256 * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&clock, sizeof(ClockSample)));
  CHECK_CUDA(cudaMemcpy(a, host_a.data(), 256 * sizeof(T), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(b, host_b.data(), 256 * sizeof(T), cudaMemcpyHostToDevice));
  auto launch = [&](long long iters) {
    MmaKernel<T><<<blocks, threads>>>(a, b, out, static_cast<int>(iters), clock);
  };
  const long long iters = Calibrate(256, 1 << 26, launch);
  const Timing t = TimeLaunches([&] { launch(iters); });
  ClockSample sample{};
  std::vector<float> first(256);
  CHECK_CUDA(cudaMemcpy(&sample, clock, sizeof(sample), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(first.data(), out, 256 * sizeof(float), cudaMemcpyDeviceToHost));
  for (float v : first) {
    if (!std::isfinite(v))
      throw Failure{std::string(what) + ": the accumulators are not finite"};
  }
  CHECK_CUDA(cudaFree(a));
  CHECK_CUDA(cudaFree(b));
  CHECK_CUDA(cudaFree(out));
  CHECK_CUDA(cudaFree(clock));
  const double flops =
      2.0 * 16 * 16 * 16 * kAccumulators * static_cast<double>(iters) * static_cast<double>(warps);
  const double rate = flops / (t.best_ms * 1e-3);
  Validate(what, rate, t);
  char extra[200];
  std::snprintf(extra,
                sizeof(extra),
                ", \"iterations\": %lld, \"accumulators\": %d, \"blocks\": %d, "
                "\"warps_per_block\": %d",
                iters,
                kAccumulators,
                blocks,
                kMmaWarpsPerBlock);
  return FigureJson(rate, "flops_per_s", flops, "flops_per_launch", t, ClockHz(sample), extra);
}

constexpr const char* kMethod =
    "best of 10 cudaEvent-timed launches of at least 10 ms each after a warm-up; dram: float4 "
    "copy between two buffers of max(4 x L2, 256 MiB), bytes = read + write; fp32_vector: 8 "
    "independent FMA chains per thread, one full wave, 2 FLOPs per FMA; bf16_tensor, "
    "fp16_tensor: wmma 16x16x16 mma_sync with FP32 accumulate, 8 accumulators per warp in "
    "registers, one full wave, 8192 FLOPs per mma per warp (warp-level MMA: Hopper wgmma "
    "kernels can exceed it); sm_clock_hz: clock64 over %globaltimer in block 0 of that kernel";

int Run(int ordinal) {
  int count = 0;
  CHECK_CUDA(cudaGetDeviceCount(&count));
  if (ordinal < 0 || ordinal >= count)
    throw Failure{"--device " + std::to_string(ordinal) + ": " + std::to_string(count) +
                  " CUDA device(s) visible"};
  Device d;
  d.ordinal = ordinal;
  CHECK_CUDA(cudaSetDevice(ordinal));
  CHECK_CUDA(cudaGetDeviceProperties(&d.prop, ordinal));
  CHECK_CUDA(cudaDeviceGetAttribute(&d.sm_count, cudaDevAttrMultiProcessorCount, ordinal));
  CHECK_CUDA(cudaDeviceGetAttribute(&d.l2_bytes, cudaDevAttrL2CacheSize, ordinal));
  CHECK_CUDA(cudaDeviceGetAttribute(&d.max_clock_khz, cudaDevAttrClockRate, ordinal));
  if (d.prop.major < 8)
    throw Failure{"compute capability " + std::to_string(d.prop.major) + "." +
                  std::to_string(d.prop.minor) + " has no bf16 tensor cores (needs 8.0)"};
  int runtime = 0, driver = 0;
  CHECK_CUDA(cudaRuntimeGetVersion(&runtime));
  CHECK_CUDA(cudaDriverGetVersion(&driver));

  const std::string dram = MeasureDram(d);
  const std::string fp32 = MeasureFp32(d);
  const std::string bf16 = MeasureMma<__nv_bfloat16>(d, "bf16_tensor");
  const std::string fp16 = MeasureMma<__half>(d, "fp16_tensor");

  std::printf(
      "{\"probe\": \"gpuperf_ceilings_probe\", \"probe_version\": 1,\n"
      " \"device\": {\"ordinal\": %d, \"name\": %s, \"uuid\": \"%s\", \"compute_major\": %d, "
      "\"compute_minor\": %d, \"sm_count\": %d, \"l2_bytes\": %d, \"memory_bytes\": %zu, "
      "\"max_sm_clock_hz\": %.6e, \"max_sm_clock_source\": \"cudaDevAttrClockRate\"},\n"
      " \"cuda\": {\"runtime_version\": %d, \"driver_version\": %d},\n"
      " \"dram\": %s,\n \"fp32_vector\": %s,\n \"bf16_tensor\": %s,\n \"fp16_tensor\": %s,\n"
      " \"method\": %s}\n",
      ordinal,
      JsonString(d.prop.name).c_str(),
      FormatUuid(d.prop.uuid).c_str(),
      d.prop.major,
      d.prop.minor,
      d.sm_count,
      d.l2_bytes,
      d.prop.totalGlobalMem,
      d.max_clock_khz * 1e3,
      runtime,
      driver,
      dram.c_str(),
      fp32.c_str(),
      bf16.c_str(),
      fp16.c_str(),
      JsonString(kMethod).c_str());
  if (std::fflush(stdout) != 0)
    throw Failure{"cannot write to stdout"};
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int ordinal = 0;
  for (int i = 1; i < argc; ++i) {
    char* end = nullptr;
    if (std::strcmp(argv[i], "--device") == 0 && i + 1 < argc) {
      const long value = std::strtol(argv[++i], &end, 10);
      if (*argv[i] == '\0' || *end != '\0' || value < 0 || value > 1024) {
        std::fprintf(stderr, "gpuperf_ceilings_probe: --device takes a device ordinal\n");
        return 2;
      }
      ordinal = static_cast<int>(value);
    } else {
      std::fprintf(stderr, "usage: gpuperf_ceilings_probe [--device N]\n");
      return 2;
    }
  }
  try {
    return Run(ordinal);
  } catch (const Failure& failure) {
    std::fprintf(stderr, "gpuperf_ceilings_probe: %s\n", failure.message.c_str());
  }
  return 1;
}
