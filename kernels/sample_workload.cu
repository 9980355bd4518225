// The recorder's sample workload: one phase per bottleneck gpuperf must see, each inside an NVTX
// range, with its own analytic counts printed as one JSON line on stdout so tests/gpu/run.sh can
// compare the trace exactly:
//   {"phase":"stream","kernels":N,"memcpys":M,"memcpy_bytes":B,"memsets":0,"flops":F,"bytes":D,
//    "phase_ns":T}
// phase_ns is the phase's own host time (steady clock, from its start to after its last
// synchronisation): the overhead check compares it traced vs untraced, free of process start-up
// and CUDA initialisation.
// Usage: sample_workload --phase stream|fma|launch|sync|memcpy|alloc|all [--launches N] [--scale K]
// --scale multiplies the repetitions of every phase but launch (which takes --launches).
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

#define CHECK_CUDA(call)                                                                    \
  do {                                                                                      \
    cudaError_t error_ = (call);                                                            \
    if (error_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "sample_workload: %s: %s\n", #call, cudaGetErrorString(error_)); \
      std::exit(1);                                                                         \
    }                                                                                       \
  } while (0)

struct Counts {
  long long kernels = 0, memcpys = 0, memcpy_bytes = 0, memsets = 0, flops = 0, bytes = 0;
};
Counts g_total;
int g_scale = 1;
long long g_total_ns = 0;
std::chrono::steady_clock::time_point g_phase_start;

void StartPhase(const char* range) {
  nvtxRangePushA(range);
  g_phase_start = std::chrono::steady_clock::now();
}

// Ends the phase begun by StartPhase (every phase synchronises before it ends); its host time.
long long EndPhase() {
  const long long phase_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                 std::chrono::steady_clock::now() - g_phase_start)
                                 .count();
  nvtxRangePop();
  return phase_ns;
}

void Report(const char* phase, const Counts& c, long long phase_ns) {
  std::printf(
      "{\"phase\":\"%s\",\"kernels\":%lld,\"memcpys\":%lld,\"memcpy_bytes\":%lld,"
      "\"memsets\":%lld,\"flops\":%lld,\"bytes\":%lld,\"phase_ns\":%lld}\n",
      phase,
      c.kernels,
      c.memcpys,
      c.memcpy_bytes,
      c.memsets,
      c.flops,
      c.bytes,
      phase_ns);
  g_total.kernels += c.kernels, g_total.memcpys += c.memcpys,
      g_total.memcpy_bytes += c.memcpy_bytes;
  g_total.memsets += c.memsets, g_total.flops += c.flops, g_total.bytes += c.bytes;
  g_total_ns += phase_ns;
}

// STREAM triad: a[i] = b[i] + s * c[i]; 3 x 4 bytes moved, 2 FLOPs per element.
__global__ void Triad(float* a, const float* b, const float* c, float s, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    a[i] = b[i] + s * c[i];
  }
}

// kIters dependent FMAs per thread on registers: 2 FLOPs each, no memory traffic but one store.
constexpr int kFmaIters = 4096;
__global__ void Fma(float* out, float seed) {
  float x = seed + threadIdx.x, y = 1.0001f, z = 0.9999f;
#pragma unroll 16
  for (int i = 0; i < kFmaIters; ++i) {
    x = fmaf(x, y, z);
    y = fmaf(y, z, x);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x + y;
}

__global__ void Tiny(int* p) {
  if (threadIdx.x == 0)
    p[0] += 1;
}

void PhaseStream() {
  StartPhase("phase:stream");
  const size_t n = size_t(1) << 26;  // 256 MiB per array
  float *a, *b, *c;
  CHECK_CUDA(cudaMalloc(&a, n * 4));
  CHECK_CUDA(cudaMalloc(&b, n * 4));
  CHECK_CUDA(cudaMalloc(&c, n * 4));
  CHECK_CUDA(cudaMemset(b, 0, n * 4));
  CHECK_CUDA(cudaMemset(c, 0, n * 4));
  const int reps = 20 * g_scale;
  for (int r = 0; r < reps; ++r)
    Triad<<<132 * 16, 256>>>(a, b, c, 2.0f, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaFree(a));
  CHECK_CUDA(cudaFree(b));
  CHECK_CUDA(cudaFree(c));
  const long long elements = static_cast<long long>(n);
  Report("stream", {reps, 0, 0, 2, 2 * elements * reps, 12 * elements * reps}, EndPhase());
}

void PhaseFma() {
  StartPhase("phase:fma");
  const int blocks = 132 * 8, threads = 256, reps = 10 * g_scale;
  float* out;
  CHECK_CUDA(cudaMalloc(&out, size_t(blocks) * threads * 4));
  for (int r = 0; r < reps; ++r)
    Fma<<<blocks, threads>>>(out, 1.0f);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaFree(out));
  Report("fma",
         {reps, 0, 0, 0, 4LL * kFmaIters * blocks * threads * reps, 4LL * blocks * threads * reps},
         EndPhase());
}

void PhaseLaunch(long long launches) {
  StartPhase("phase:launch");
  int* p;
  CHECK_CUDA(cudaMalloc(&p, 4));
  for (long long i = 0; i < launches; ++i)
    Tiny<<<1, 32>>>(p);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaFree(p));
  Report("launch", {launches, 0, 0, 0, 0, 0}, EndPhase());
}

void PhaseSync() {
  StartPhase("phase:sync");
  int* p;
  CHECK_CUDA(cudaMalloc(&p, 4));
  const int reps = 2000 * g_scale;
  for (int i = 0; i < reps; ++i) {
    Tiny<<<1, 32>>>(p);
    CHECK_CUDA(cudaDeviceSynchronize());  // the pattern sync findings must flag
  }
  CHECK_CUDA(cudaFree(p));
  Report("sync", {reps, 0, 0, 0, 0, 0}, EndPhase());
}

void PhaseMemcpy() {
  StartPhase("phase:memcpy");
  const size_t bytes = size_t(64) << 20;
  const int reps = 8 * g_scale;
  char* device;
  char* pageable = static_cast<char*>(std::malloc(bytes));
  char* pinned;
  std::memset(pageable, 1, bytes);
  CHECK_CUDA(cudaMalloc(&device, bytes));
  CHECK_CUDA(cudaMallocHost(&pinned, bytes));
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  for (int r = 0; r < reps; ++r) {
    CHECK_CUDA(cudaMemcpy(device, pageable, bytes, cudaMemcpyHostToDevice));  // sync, pageable
    CHECK_CUDA(cudaMemcpyAsync(
        device, pageable, bytes, cudaMemcpyHostToDevice, stream));  // "async", pageable
    CHECK_CUDA(cudaMemcpyAsync(device, pinned, bytes, cudaMemcpyHostToDevice, stream));
    CHECK_CUDA(cudaMemcpyAsync(pinned, device, bytes, cudaMemcpyDeviceToHost, stream));
  }
  CHECK_CUDA(cudaStreamSynchronize(stream));
  CHECK_CUDA(cudaStreamDestroy(stream));
  CHECK_CUDA(cudaFreeHost(pinned));
  CHECK_CUDA(cudaFree(device));
  std::free(pageable);
  Report(
      "memcpy", {0, 4LL * reps, 4LL * reps * static_cast<long long>(bytes), 0, 0, 0}, EndPhase());
}

void PhaseAlloc() {
  StartPhase("phase:alloc");
  const int reps = 500 * g_scale;
  for (int i = 0; i < reps; ++i) {
    void* p;
    CHECK_CUDA(cudaMalloc(&p, size_t(1) << 20));
    CHECK_CUDA(cudaFree(p));
  }
  Report("alloc", {0, 0, 0, 0, 0, 0}, EndPhase());
}

}  // namespace

int main(int argc, char** argv) {
  std::string phase = "all";
  long long launches = 100000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--phase") == 0)
      phase = argv[i + 1];
    else if (std::strcmp(argv[i], "--launches") == 0)
      launches = std::atoll(argv[i + 1]);
    else if (std::strcmp(argv[i], "--scale") == 0)
      g_scale = std::max(1, std::atoi(argv[i + 1]));
  }
  CHECK_CUDA(cudaFree(nullptr));  // context creation outside every phase
  const bool all = phase == "all";
  if (all || phase == "stream")
    PhaseStream();
  if (all || phase == "fma")
    PhaseFma();
  if (all || phase == "launch")
    PhaseLaunch(launches);
  if (all || phase == "sync")
    PhaseSync();
  if (all || phase == "memcpy")
    PhaseMemcpy();
  if (all || phase == "alloc")
    PhaseAlloc();
  if (all)
    Report("total", g_total, g_total_ns);
  return 0;
}
