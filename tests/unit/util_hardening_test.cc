// The bottom-layer guards of issue 17: the user regex matcher, durable writes, regular files
// only, bounded gzip, the terminal sanitiser, JSON nesting depth, Markdown autolinks.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <string>

#include "cli_test_support.h"
#include "report/markdown_escape.h"
#include "util/byte_source.h"
#include "util/durable_file.h"
#include "util/json_text.h"
#include "util/terminal_text.h"
#include "util/user_regex.h"

namespace gpuperf::util {
namespace {

namespace fs = std::filesystem;

TEST_CASE("UserRegex matches long texts without overflowing the stack") {
  auto regex = UserRegex::Compile("gemm.*");
  REQUIRE(regex.ok());
  const std::string long_name = std::string(60000, 'a') + "gemm_kernel";
  auto found = regex->Search(long_name);
  REQUIRE(found.ok());
  CHECK(found.value());
  auto too_long = regex->Search(std::string(kMaxUserSubjectLength + 1, 'g'));
  REQUIRE_FALSE(too_long.ok());
  CHECK(too_long.error().message == "longer than 65536 characters");
}

TEST_CASE("UserRegex returns capture groups and refuses bad patterns") {
  auto regex = UserRegex::Compile("sgemm_(\\d+)x(\\d+)(_t)?");
  REQUIRE(regex.ok());
  std::vector<std::string> groups;
  REQUIRE(regex->Search("ampere_sgemm_128x64_nn", &groups).value());
  CHECK(groups == std::vector<std::string>{"128", "64", ""});
  CHECK_FALSE(UserRegex::Compile("sgemm_(").ok());
  CHECK(UserRegex::Compile(std::string(2000, 'a')).error().message.find("longer than 1024") !=
        std::string::npos);
  CHECK_FALSE(UserRegex::Compile("").ok());
}

TEST_CASE("WriteNewFile never follows a link and fails on an existing name") {
  testing::TempDir dir;
  testing::WriteFile(dir / "victim", "secret");
  fs::create_symlink(dir / "victim", dir / "link");
  CHECK_FALSE(WriteNewFile(dir / "link", "overwrite").ok());
  CHECK(testing::ReadFile(dir / "victim") == "secret");
  REQUIRE(WriteNewFile(dir / "new", "x").ok());
  CHECK_FALSE(WriteNewFile(dir / "new", "y").ok());
}

TEST_CASE("ExchangePaths swaps two directories in one step") {
  testing::TempDir dir;
  const fs::path a = dir / "a", b = dir / "b";
  fs::create_directories(a / "runs");
  fs::create_directories(b);
  testing::WriteFile(a / "runs" / "new", "new");
  testing::WriteFile(b / "old", "old");
  int swapped = util::ExchangePaths(a, b);
  if (swapped == EINVAL || swapped == ENOSYS)
    return;  // a filesystem without RENAME_EXCHANGE: callers fall back, nothing to test here
  REQUIRE(swapped == 0);
  CHECK(testing::ReadFile(b / "runs" / "new") == "new");
  CHECK(testing::ReadFile(a / "old") == "old");
  CHECK(util::ExchangePaths(a, dir / "missing") == ENOENT);
}

TEST_CASE("CommitDirectory renames, swaps with replace, and never overwrites without it") {
  testing::TempDir dir;
  const fs::path staged = dir / "out.tmp", out = dir / "out";
  fs::create_directories(staged);
  testing::WriteFile(staged / "first", "1");
  auto moved = util::CommitDirectory(staged, out, false);
  REQUIRE(moved.ok());
  CHECK(*moved == util::DirectoryCommit::kMoved);
  CHECK(testing::ReadFile(out / "first") == "1");
  fs::create_directories(staged);
  testing::WriteFile(staged / "second", "2");
  auto refused = util::CommitDirectory(staged, out, false);  // `out` is not empty
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.find("cannot move " + staged.string()) != std::string::npos);
  auto swapped = util::CommitDirectory(staged, out, true);
  REQUIRE(swapped.ok());
  if (*swapped == util::DirectoryCommit::kCannotSwap)
    return;  // no RENAME_EXCHANGE here: the callers fall back
  CHECK(*swapped == util::DirectoryCommit::kSwapped);
  CHECK(testing::ReadFile(out / "second") == "2");
  CHECK(testing::ReadFile(staged / "first") == "1");  // the earlier directory, for the caller
}

TEST_CASE("WriteNewFile reports a write the filesystem refuses and removes the partial file") {
  testing::TempDir dir;
  const std::string path = dir / "big";
  const pid_t child = fork();
  if (child == 0) {
    signal(SIGXFSZ, SIG_IGN);  // the write then fails with EFBIG, as a full disk fails
    struct rlimit limit {
      4096, 4096
    };
    setrlimit(RLIMIT_FSIZE, &limit);
    Status written = WriteNewFile(path, std::string(1 << 20, 'x'));
    _exit(written.ok() ? 0 : written.error().message.find(path + ": cannot write: ") == 0 ? 7 : 8);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 7);
  CHECK_FALSE(fs::exists(path));
}

TEST_CASE("OpenFileSource refuses FIFOs and directories, naming the kind") {
  testing::TempDir dir;
  REQUIRE(::mkfifo((dir / "fifo").c_str(), 0600) == 0);
  auto fifo = OpenFileSource(dir / "fifo");
  REQUIRE_FALSE(fifo.ok());
  CHECK(fifo.error().message == dir / "fifo" + ": not a regular file (a FIFO)");
  auto directory = ReadFileText(dir.path().string(), 100);
  REQUIRE_FALSE(directory.ok());
  CHECK(directory.error().message.find("not a regular file (a directory)") != std::string::npos);
  testing::WriteFile(dir / "big", std::string(200, 'x'));
  CHECK(ReadFileText(dir / "big", 100).error().message == dir / "big" + ": larger than 100 bytes");
  CHECK(ReadFileHead(dir / "big", 10).value() == std::string(10, 'x'));
}

TEST_CASE("the gunzip source stops at its limit, naming it and the hint") {
  std::string plain(1 << 20, 'a');
  uLongf size = compressBound(static_cast<uLong>(plain.size()));
  std::string packed(size, '\0');
  REQUIRE(compress(reinterpret_cast<Bytef*>(packed.data()),
                   &size,
                   reinterpret_cast<const Bytef*>(plain.data()),
                   static_cast<uLong>(plain.size())) == Z_OK);
  packed.resize(size);
  InflateLimit limit{1000, "raise --max-decompressed-mib"};
  auto source = MakeGunzipSource(MakeMemorySource(packed), "x.gz", limit);
  auto all = ReadAll(*source, 1 << 22);
  REQUIRE_FALSE(all.ok());
  CHECK(all.error().message ==
        "x.gz: inflates to more than 1000 bytes (raise --max-decompressed-mib)");
  auto unlimited = MakeGunzipSource(MakeMemorySource(packed), "x.gz");
  CHECK(ReadAll(*unlimited, 1 << 22).value() == plain);
}

TEST_CASE("SanitizeForTerminal neutralises OSC, CSI, BEL and C1") {
  CHECK(SanitizeForTerminal("a\x1b]52;c;ZXZp\x07z") == "a?]52;c;ZXZp?z");
  CHECK(SanitizeForTerminal("x\x1b[2J") == "x?[2J");
  CHECK(SanitizeForTerminal("\xc2\x9b"
                            "31m") == "?31m");
  CHECK(SanitizeForTerminal("ümlaut") == "ümlaut");
}

TEST_CASE("JsonNestingDeeperThan counts brackets outside strings") {
  CHECK(json_text::JsonNestingDeeperThan(std::string(100, '['), 64));
  CHECK_FALSE(json_text::JsonNestingDeeperThan("[[[]]]", 3));
  CHECK(json_text::JsonNestingDeeperThan("[[[[]]]]", 3));
  CHECK_FALSE(json_text::JsonNestingDeeperThan(R"(["[[[[[", "\"[[[["])", 2));
}

TEST_CASE("EscapeMarkdown breaks GitHub's extended autolinks") {
  CHECK(report::EscapeMarkdown("see https://evil.example/x") == "see https\\://evil.example/x");
  CHECK(report::EscapeMarkdown("www.evil.example") == "www\\.evil.example");
  CHECK(report::EscapeMarkdown("WWW.evil.example") == "WWW\\.evil.example");
  CHECK(report::EscapeMarkdown("a@b.example") == "a\\@b.example");
  CHECK(report::EscapeMarkdown("at::native::add") == "at::native::add");  // no change
  CHECK(report::EscapeMarkdown("v1.2") == "v1.2");
}

}  // namespace
}  // namespace gpuperf::util
