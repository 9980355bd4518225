// Kernel names as people read them. Shared by the CLI (trace conversion) and the injected library
// (the counter pass matches launches against names taken from a converted trace), so that both
// sides spell a name identically.
#pragma once

#include <string>

namespace gpuperf::spool {

// The demangled form of a kernel name ("_Z3fooPf" -> "foo(float*)"); the input when it is not a
// mangled C++ name or does not demangle.
std::string Demangle(const std::string& name);

}  // namespace gpuperf::spool
