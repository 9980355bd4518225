// Keys under which one kernel's names from different tools match. CUPTI, Nsight Compute,
// cuobjdump and nsys' short names spell the same kernel differently: parameters demangled
// differently ("T1 *" / "float*"), template brackets spaced differently ("> >" / ">>"), namespaces
// kept or dropped, or only the bare function name. The ncu counter join and the SASS match both
// use these keys, from the strictest to the loosest.
#pragma once

#include <string>
#include <string_view>

namespace gpuperf::util {

// The name trimmed, without a trailing balanced parameter list: "f<int>(float *, int)" -> "f<int>".
std::string_view WithoutParameters(std::string_view kernel_name);

// WithoutParameters, without a leading "void " and without white space:
// "void k<std::array<char *, 2> >(int)" -> "k<std::array<char*,2>>".
std::string SignatureKey(std::string_view kernel_name);

// SignatureKey without return type and without namespace qualifiers at any template depth:
// ncu's "void Kernel2<cutlass_80_x>(Params)" and CUPTI's "void
// cutlass::Kernel2<cutlass_80_x>(cutlass_80_x::Params)" both give "Kernel2<cutlass_80_x>".
std::string NormalKey(std::string_view kernel_name);

// The bare function name (no return type, namespace, template arguments or parameters):
// ncu's `--print-kernel-base function` and nsys' short names write only this.
std::string BaseName(std::string_view kernel_name);

// Whether the name is already bare (no '<', '(', ':' or space): it can only match by BaseName.
bool IsBareName(std::string_view kernel_name);

}  // namespace gpuperf::util
