// The cuobjdump -sass parser on listings in the real format (copied from cuobjdump 11.8 on a
// fatbin with sm_80 and sm_90 code and PTX, shortened), and on odd and hostile input.
#include "io/sass/sass_parser.h"

#include <catch2/catch.hpp>

#include <string>

namespace {

using gpuperf::io::sass::BaseOpcode;
using gpuperf::io::sass::Demangle;
using gpuperf::io::sass::kMaxLineBytes;
using gpuperf::io::sass::ParseSass;
using gpuperf::io::sass::SassListing;
using gpuperf::io::sass::SassParser;

// Two archs, two functions each. sm_80 lines carry a second encoding line; sm_90 lines do not.
// The FMA kernel's "HFMA2.MMA" is a vector instruction on the MMA pipe, not a matrix one.
const std::string kListing = R"sass(
Fatbin elf code:
================
arch = sm_80
code version = [1,7]
host = linux
compile_size = 64bit

	code for sm_80
		Function : _Z10fma_kernelIfEvPT_PKS0_S0_i
	.headerflags    @"EF_CUDA_SM80 EF_CUDA_PTX_SM(EF_CUDA_SM80)"
        /*0000*/                   MOV R1, c[0x0][0x28] ;                             /* 0x00000a0000017a02 */
                                                                                      /* 0x000fc40000000f00 */
        /*0040*/                   ISETP.GE.AND P0, PT, R2, c[0x0][0x174], PT ;       /* 0x00005d0002007a0c */
                                                                                      /* 0x000fda0003f06270 */
        /*0050*/               @P0 EXIT ;                                             /* 0x000000000000094d */
                                                                                      /* 0x000fea0003800000 */
        /*0060*/                   HFMA2.MMA R3, -RZ, RZ, 0, 2.384185791015625e-07 ;  /* 0x00000004ff037435 */
                                                                                      /* 0x000fe200000001ff */
        /*00c0*/                   FFMA R7, R0, c[0x0][0x170], R5 ;                   /* 0x00005c0000077a23 */
                                                                                      /* 0x004fca0000000005 */
        /*00e0*/                   EXIT ;                                             /* 0x000000000000794d */
                                                                                      /* 0x000fea0003800000 */
        /*00f0*/                   BRA 0xf0;                                          /* 0xfffffff000007947 */
                                                                                      /* 0x000fc0000383ffff */
        /*0100*/                   NOP;                                               /* 0x0000000000007918 */
                                                                                      /* 0x000fc00000000000 */
		..........


		Function : _Z11wmma_kernelPK6__halfS1_Pf
	.headerflags    @"EF_CUDA_SM80 EF_CUDA_PTX_SM(EF_CUDA_SM80)"
        /*0120*/                   LDG.E R15, [R10.64+0x110] ;                                /* 0x000110040a0f7981 */
                                                                                              /* 0x000f28000c1e1900 */
        /*0130*/                   HMMA.16816.F32 R16, R4.reuse, R12, RZ ;                    /* 0x0000000c0410723c */
                                                                                              /* 0x004f6c0000001810 */
        /*0140*/                   HMMA.16816.F32 R12, R4, R14, RZ ;                          /* 0x0000000e040c723c */
                                                                                              /* 0x000f6e00000018ff */
        /*01b0*/                   EXIT ;                                                     /* 0x000000000000794d */
                                                                                              /* 0x000fea0003800000 */
		..........



Fatbin elf code:
================
arch = sm_90
code version = [1,7]
host = linux
compile_size = 64bit

	code for sm_90
		Function : _Z10fma_kernelIfEvPT_PKS0_S0_i
	.headerflags    @"EF_CUDA_SM90 EF_CUDA_PTX_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;              /* 0x00000a00ff017b82 */
        /*0070*/               @P0 EXIT ;                              /* 0x000000000000094d */
        /*0100*/                   FFMA R7, R0, UR6, R5 ;              /* 0x0000000600077c23 */
        /*0120*/                   EXIT ;                              /* 0x000000000000794d */
		..........


		Function : _Z11wmma_kernelPK6__halfS1_Pf
	.headerflags    @"EF_CUDA_SM90 EF_CUDA_PTX_SM(EF_CUDA_SM90)"
        /*0170*/                   LDG.E R15, [R10.64+0x110] ;                      /* 0x000110040a0f7981 */
        /*0180*/                   HMMA.16816.F32 R16, R4, R12, RZ ;                /* 0x0000000c0410723c */
        /*0190*/                   HMMA.16816.F32 R12, R4, R14, RZ ;                /* 0x0000000e040c723c */
        /*0210*/                   EXIT ;                                           /* 0x000000000000794d */
        /*0230*/                   NOP;                                             /* 0x0000000000007918 */
		..........



Fatbin ptx code:
================
arch = sm_80
code version = [7,8]
host = linux
compile_size = 64bit
compressed
)sass";

std::int64_t Op(const gpuperf::model::SassFunction& f, const std::string& opcode) {
  auto it = f.matrix_ops.find(opcode);
  return it == f.matrix_ops.end() ? 0 : it->second;
}

}  // namespace

TEST_CASE("sass parser: functions per arch, instruction and matrix counts") {
  SassListing listing = ParseSass(kListing, "app");
  REQUIRE(listing.functions.size() == 4);
  CHECK(listing.saw_ptx);
  CHECK(listing.skipped_long_lines == 0);
  CHECK(listing.orphan_instructions == 0);

  const auto& fma80 = listing.functions[0];
  CHECK(fma80.mangled_name == "_Z10fma_kernelIfEvPT_PKS0_S0_i");
  CHECK(fma80.demangled_name == "void fma_kernel<float>(float*, float const*, float, int)");
  CHECK(fma80.arch == "sm_80");
  CHECK(fma80.file == "app");
  CHECK(fma80.instructions == 7);   // the NOP is padding; encoding-only lines are not counted
  CHECK(fma80.matrix_ops.empty());  // HFMA2.MMA is not matrix math

  const auto& wmma80 = listing.functions[1];
  CHECK(wmma80.demangled_name == "wmma_kernel(__half const*, __half const*, float*)");
  CHECK(wmma80.arch == "sm_80");
  CHECK(wmma80.instructions == 4);
  CHECK(Op(wmma80, "HMMA") == 2);
  CHECK(wmma80.matrix_ops.size() == 1);

  CHECK(listing.functions[2].arch == "sm_90");
  CHECK(listing.functions[2].instructions == 4);
  const auto& wmma90 = listing.functions[3];
  CHECK(wmma90.arch == "sm_90");
  CHECK(wmma90.instructions == 4);
  CHECK(Op(wmma90, "HMMA") == 2);
}

TEST_CASE("sass parser: chunks split anywhere give the same listing") {
  SassListing whole = ParseSass(kListing, "app");
  for (std::size_t step : {1u, 2u, 7u, 64u, 4096u}) {
    SassParser parser("app");
    for (std::size_t at = 0; at < kListing.size(); at += step)
      parser.Feed(std::string_view(kListing).substr(at, step));
    SassListing chunked = parser.Finish();
    INFO("chunk size " << step);
    REQUIRE(chunked.functions.size() == whole.functions.size());
    for (std::size_t i = 0; i < whole.functions.size(); ++i) {
      CHECK(chunked.functions[i].mangled_name == whole.functions[i].mangled_name);
      CHECK(chunked.functions[i].instructions == whole.functions[i].instructions);
      CHECK(chunked.functions[i].matrix_ops == whole.functions[i].matrix_ops);
    }
  }
}

TEST_CASE("sass parser: Hopper, Blackwell and integer matrix opcodes with predicates") {
  SassListing listing = ParseSass(R"(
	code for sm_90a
		Function : gemm_kernel
        /*0100*/                   HGMMA.64x128x16.F32.BF16 R24, gdesc[UR4], RZ, !UPT, gsb0 ;
        /*0110*/              @!P0 HGMMA.64x128x16.F32.BF16 R24, gdesc[UR8], R24, gsb0 ;
        /*0120*/               @P1 IMMA.16832.S8.S8 R4, R8, R12, R4 ;
        /*0130*/                   QGMMA.64x64x32.F32.E4M3.E4M3 R0, gdesc[UR4], R0 ;
        /*0140*/                   DMMA.8x8x4 R0, R2, R4, R0 ;
	code for sm_100a
		Function : gemm_kernel
        /*0100*/                   UTCHMMA gdesc[UR4], gdesc[UR6], tmem[UR8], tmem[UR10], idesc[UR11], UPT ;
        /*0110*/                   UTCQMMA.2CTA gdesc[UR4], gdesc[UR6], tmem[UR8], idesc[UR11], UPT ;
        /*0120*/                   UTCBAR [UR4], URZ ;
        /*0130*/                   HFMA2 R0, R1, R2, R3 ;
)",
                                  "lib.so");
  REQUIRE(listing.functions.size() == 2);
  const auto& hopper = listing.functions[0];
  CHECK(hopper.mangled_name == "gemm_kernel");
  CHECK(hopper.demangled_name == "gemm_kernel");  // extern "C": nothing to demangle
  CHECK(hopper.arch == "sm_90a");
  CHECK(hopper.instructions == 5);
  CHECK(Op(hopper, "HGMMA") == 2);
  CHECK(Op(hopper, "IMMA") == 1);
  CHECK(Op(hopper, "QGMMA") == 1);
  CHECK(Op(hopper, "DMMA") == 1);
  const auto& blackwell = listing.functions[1];
  CHECK(blackwell.arch == "sm_100a");
  CHECK(blackwell.instructions == 4);
  CHECK(Op(blackwell, "UTCHMMA") == 1);
  CHECK(Op(blackwell, "UTCQMMA") == 1);
  CHECK(blackwell.matrix_ops.size() == 2);  // UTCBAR and HFMA2 are not matrix opcodes
}

TEST_CASE("sass parser: empty output, garbage and PTX-only listings give no function") {
  CHECK(ParseSass("", "x").functions.empty());
  CHECK(ParseSass("\n\n\n", "x").functions.empty());
  const char junk[] =
      "\x7f"
      "ELF\x02\x01\x01\0\0\0 binary\xff\xfe junk\n";
  SassListing garbage = ParseSass(std::string(junk, sizeof junk - 1) +
                                      "Function :\n/* 0x000fc40000000f00 */\n/*zz*/ HMMA R0 ;\n",
                                  "x");
  CHECK(garbage.functions.empty());  // "Function :" without a name starts nothing
  SassListing ptx =
      ParseSass("\nFatbin ptx code:\n================\narch = sm_80\ncompressed\n", "x");
  CHECK(ptx.functions.empty());
  CHECK(ptx.saw_ptx);
}

TEST_CASE("sass parser: instructions outside a function are counted, not attributed") {
  SassListing listing = ParseSass(
      "        /*0000*/  HMMA.16816.F32 R0, R2, R4, R0 ;\n"
      "\t\tFunction : k\n"
      "        /*0000*/  HMMA.16816.F32 R0, R2, R4, R0 ;\n"
      "\t\t..........\n"
      "        /*0010*/  IMMA.16832.S8.S8 R0, R2, R4, R0 ;\n",
      "x");
  REQUIRE(listing.functions.size() == 1);
  CHECK(listing.orphan_instructions == 2);
  CHECK(Op(listing.functions[0], "HMMA") == 1);
  CHECK(Op(listing.functions[0], "IMMA") == 0);
  CHECK(listing.functions[0].arch.empty());  // no "code for" line
}

TEST_CASE(
    "sass parser: overlong lines are skipped and counted, a truncated listing is "
    "kept") {
  std::string text = "\tcode for sm_90\n\t\tFunction : k\n";
  text += "        /*0000*/  HMMA.16816.F32 " + std::string(kMaxLineBytes + 10, 'R') + " ;\n";
  text += "        /*0010*/  HMMA.16816.F32 R0, R2, R4, R0 ;\n";
  text += "        /*0020*/  HMMA.16816.F32 R0, R2, R4, R0 ;";  // cut: no newline,
                                                                // no encoding
  SassListing listing = ParseSass(text, "x");
  CHECK(listing.skipped_long_lines == 1);
  REQUIRE(listing.functions.size() == 1);
  CHECK(listing.functions[0].instructions == 2);
  CHECK(Op(listing.functions[0], "HMMA") == 2);

  SassListing cut = ParseSass(text + std::string(kMaxLineBytes * 2, 'x'), "x");  // no newline
  CHECK(cut.skipped_long_lines == 2);
  CHECK(Op(cut.functions.at(0), "HMMA") == 1);  // the last line got merged into the long one
}

TEST_CASE("sass parser: a hostile arch name is not kept") {
  SassListing listing =
      ParseSass("\tcode for sm_90<script>\n\t\tFunction : k\n/*0000*/ HMMA R0 ;\n", "x");
  REQUIRE(listing.functions.size() == 1);
  CHECK(listing.functions[0].arch.empty());
}

TEST_CASE("sass BaseOpcode: predicates, modifiers and non-instructions") {
  CHECK(BaseOpcode("HMMA.16816.F32.BF16 R4, R8, R12, R4 ;") == "HMMA");
  CHECK(BaseOpcode("  @P0 EXIT ;") == "EXIT");
  CHECK(BaseOpcode("@!PT HGMMA.64x128x16.F32 R24 ;") == "HGMMA");
  CHECK(BaseOpcode("NOP;") == "NOP");
  CHECK(BaseOpcode("BRA 0xf0;") == "BRA");
  CHECK(BaseOpcode("{ IADD R0, R0, 1 ;") == "IADD");
  CHECK(BaseOpcode("").empty());
  CHECK(BaseOpcode("@P0").empty());
  CHECK(BaseOpcode("0x000fc40000000f00 */").empty());
  CHECK(BaseOpcode("hmma lower case ;").empty());
}

TEST_CASE("sass Demangle: C++ names, extern C names and junk") {
  CHECK(Demangle("_Z11wmma_kernelPK6__halfS1_Pf") ==
        "wmma_kernel(__half const*, __half const*, float*)");
  CHECK(Demangle("_ZN2ns6kernelILi4EEEvPf") == "void ns::kernel<4>(float*)");
  CHECK(Demangle("gemm_kernel") == "gemm_kernel");
  CHECK(Demangle("_Z") == "_Z");
  CHECK(Demangle("_Zjunk!!") == "_Zjunk!!");
  CHECK(Demangle("") == "");
}
