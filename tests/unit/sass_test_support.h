// Helpers for the SASS tests: a stand-in cuobjdump (a shell script printing canned output) and
// files that look like device binaries; ScopedEnv (scoped_env.h) sets variables for one scope.
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include "cli_test_support.h"
#include "scoped_env.h"

namespace gpuperf::testing {

// An executable /bin/sh script `name` in `dir` with `body`; returns its path.
inline std::string FakeTool(const TempDir& dir, const std::string& name, const std::string& body) {
  std::string path = dir / name;
  WriteFile(path, "#!/bin/sh\n" + body + "\n");
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  return path;
}

// A file whose first bytes say ELF (the content after them does not matter to a fake tool).
inline std::string FakeElf(const TempDir& dir, const std::string& name = "app") {
  std::string path = dir / name;
  static constexpr char kHead[] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
  WriteFile(path, std::string(kHead, sizeof kHead) + std::string(64, '\0'));
  return path;
}

// A cuobjdump -sass listing in the real layout: one kernel with HMMA and one without, sm_90.
inline const char* kFakeListing = R"sass(
Fatbin elf code:
================
arch = sm_90
code version = [1,7]
host = linux
compile_size = 64bit

	code for sm_90
		Function : _Z11wmma_kernelPK6__halfS1_Pf
	.headerflags    @"EF_CUDA_SM90 EF_CUDA_PTX_SM(EF_CUDA_SM90)"
        /*0170*/                   LDG.E R15, [R10.64+0x110] ;                      /* 0x000110040a0f7981 */
        /*0180*/                   HMMA.16816.F32 R16, R4, R12, RZ ;                /* 0x0000000c0410723c */
        /*0190*/                   HMMA.16816.F32 R12, R4, R14, RZ ;                /* 0x0000000e040c723c */
        /*0210*/                   EXIT ;                                           /* 0x000000000000794d */
		..........


		Function : _Z10fma_kernelIfEvPT_PKS0_S0_i
	.headerflags    @"EF_CUDA_SM90 EF_CUDA_PTX_SM(EF_CUDA_SM90)"
        /*0070*/               @P0 EXIT ;                              /* 0x000000000000094d */
        /*0100*/                   FFMA R7, R0, UR6, R5 ;              /* 0x0000000600077c23 */
        /*0120*/                   EXIT ;                              /* 0x000000000000794d */
		..........

)sass";

}  // namespace gpuperf::testing
