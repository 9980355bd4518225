// The baseline's input checksums, which `gpuperf compare` checks before it compares.
#include <catch2/catch.hpp>

#include "cli_test_support.h"
#include "record/environment.h"

namespace gpuperf::record {

TEST_CASE("baseline hashes the input files its command names", "[record]") {
  testing::TempDir dir;
  testing::WriteFile(dir / "input.bin", "abc");
  testing::WriteFile(dir / "big.bin", std::string(100, 'x'));
  auto inputs = HashInputFiles({"./app",
                                dir / "input.bin",
                                "--config=" + (dir / "input.bin"),
                                "--size",
                                "4096",
                                dir / "missing.bin",
                                dir.path().string(),
                                dir / "big.bin"},
                               16,
                               50);
  REQUIRE(inputs.size() == 2);
  // SHA-256("abc"), FIPS 180-2 appendix B.1.
  CHECK(inputs[dir / "input.bin"] ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(inputs[dir / "big.bin"] == "not hashed (100 bytes)");
  CHECK(HashInputFiles({"./app", dir / "input.bin", dir / "big.bin"}, 1).size() == 1);
  CHECK(HashInputFiles({dir / "input.bin"}).empty());  // the program itself is not an input
}

}  // namespace gpuperf::record
