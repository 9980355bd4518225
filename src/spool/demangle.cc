#include "spool/demangle.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace gpuperf::spool {

std::string Demangle(const std::string& name) {
  if (!name.starts_with("_Z"))
    return name;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && demangled ? std::string(demangled.get()) : name;
}

}  // namespace gpuperf::spool
