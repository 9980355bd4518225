// A stand-in libcuda.so.1 that reports one device, so that gpuperf's driver probe passes on a
// machine without a GPU (issue 17: the recorder's exit codes, output and stdin tested without
// one). The traced programs of those tests never load CUDA.
#include <cstring>

extern "C" {

int cuDriverGetVersion(int* version) {
  *version = 13000;
  return 0;
}
int cuInit(unsigned /*flags*/) {
  return 0;
}
int cuDeviceGetCount(int* count) {
  *count = 1;
  return 0;
}
int cuDeviceGet(int* device, int ordinal) {
  *device = ordinal;
  return 0;
}
int cuDeviceGetName(char* name, int length, int /*device*/) {
  std::strncpy(name, "NVIDIA H200 (fake libcuda)", static_cast<std::size_t>(length));
  return 0;
}
int cuDeviceGetAttribute(int* value, int attribute, int /*device*/) {
  *value = attribute == 75 ? 9 : attribute == 76 ? 0 : 1000;  // compute capability 9.0
  return 0;
}
int cuDeviceTotalMem_v2(unsigned long* bytes, int /*device*/) {
  *bytes = 150ul << 30;
  return 0;
}
int cuDeviceGetUuid_v2(char* uuid, int /*device*/) {
  std::memset(uuid, 0x42, 16);
  return 0;
}
int cuGetErrorName(int /*error*/, const char** text) {
  *text = "CUDA_ERROR_FAKE";
  return 0;
}

}  // extern "C"
