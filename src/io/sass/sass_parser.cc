#include "io/sass/sass_parser.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <utility>

#include "util/text.h"

namespace gpuperf::io::sass {
namespace {

bool IsHexDigit(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool IsOpcodeChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// "sm_90", "sm_90a", "sm_100f": the only arch names kept; anything else is not trusted.
std::string ArchName(std::string_view token) {
  if (!token.starts_with("sm_") || token.size() > 16)
    return "";
  for (char c : token) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok)
      return "";
  }
  return std::string(token);
}

std::string_view FirstToken(std::string_view text) {
  text = util::Trim(text);
  std::size_t end = 0;
  while (end < text.size() && !util::IsSpace(text[end]))
    ++end;
  return text.substr(0, end);
}

// Sets `text` to what follows the address of "/*0180*/  HMMA.16816.F32 R16, ... ;  /* 0x... */";
// false when the line is not an instruction (an encoding-only line starts "/* 0x").
bool InstructionText(std::string_view line, std::string_view& text) {
  if (!line.starts_with("/*"))
    return false;
  std::size_t close = line.find("*/", 2);
  if (close == std::string_view::npos || close == 2)
    return false;
  for (std::size_t i = 2; i < close; ++i) {
    if (!IsHexDigit(line[i]))
      return false;
  }
  text = line.substr(close + 2);
  return true;
}

}  // namespace

std::string_view BaseOpcode(std::string_view instruction) {
  std::string_view text = util::Trim(instruction);
  if (text.starts_with("{"))  // dual-issue groups of old architectures: "{ IADD ..."
    text = util::Trim(text.substr(1));
  if (text.starts_with("@")) {  // predicate: @P0, @!P0, @!UPT
    std::size_t end = 0;
    while (end < text.size() && !util::IsSpace(text[end]))
      ++end;
    text = util::Trim(text.substr(end));
  }
  if (text.empty() || text.front() < 'A' || text.front() > 'Z')
    return {};
  std::size_t end = 0;
  while (end < text.size() && IsOpcodeChar(text[end]))
    ++end;
  return text.substr(0, end);
}

std::string Demangle(const std::string& name) {
  if (!name.starts_with("_Z"))
    return name;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  if (status != 0 || demangled == nullptr)
    return name;
  return demangled.get();
}

SassParser::SassParser(std::string file) : file_(std::move(file)) {}

void SassParser::Feed(std::string_view chunk) {
  while (!chunk.empty()) {
    std::size_t newline = chunk.find('\n');
    std::string_view piece = chunk.substr(0, newline);
    if (!skipping_line_) {
      if (partial_.size() + piece.size() > kMaxLineBytes) {
        skipping_line_ = true;
        partial_.clear();
      } else {
        partial_.append(piece);
      }
    }
    if (newline == std::string_view::npos)
      return;
    if (skipping_line_)
      ++listing_.skipped_long_lines;
    else
      ParseLine(partial_);
    partial_.clear();
    skipping_line_ = false;
    chunk.remove_prefix(newline + 1);
  }
}

SassListing SassParser::Finish() {
  if (skipping_line_)
    ++listing_.skipped_long_lines;
  else if (!partial_.empty())
    ParseLine(partial_);
  partial_.clear();
  skipping_line_ = false;
  in_function_ = false;
  return std::move(listing_);
}

void SassParser::ParseLine(std::string_view raw) {
  std::string_view line = util::Trim(raw);
  std::string_view instruction;
  if (InstructionText(line, instruction)) {
    CountInstruction(instruction);
  } else if (line.starts_with("Function")) {
    std::string_view rest = util::Trim(line.substr(8));
    if (rest.starts_with(":"))
      StartFunction(util::Trim(rest.substr(1)));
  } else if (line.starts_with("code for ")) {
    arch_ = ArchName(FirstToken(line.substr(9)));
    in_function_ = false;
  } else if (line.starts_with("arch = ")) {
    arch_ = ArchName(FirstToken(line.substr(7)));
  } else if (line.starts_with("Fatbin ")) {  // "Fatbin elf code:", "Fatbin ptx code:"
    listing_.saw_ptx = listing_.saw_ptx || line.starts_with("Fatbin ptx code");
    in_function_ = false;
  } else if (line.starts_with("..........")) {  // the end of a function's listing
    in_function_ = false;
  }
}

void SassParser::StartFunction(std::string_view name) {
  in_function_ = false;
  if (name.empty())
    return;
  model::SassFunction function;
  function.mangled_name = std::string(name);
  function.demangled_name = Demangle(function.mangled_name);
  function.arch = arch_;
  function.file = file_;
  listing_.functions.push_back(std::move(function));
  in_function_ = true;
}

void SassParser::CountInstruction(std::string_view text) {
  std::string_view opcode = BaseOpcode(text);
  if (opcode.empty() || opcode == "NOP")
    return;
  if (!in_function_) {
    ++listing_.orphan_instructions;
    return;
  }
  model::SassFunction& function = listing_.functions.back();
  ++function.instructions;
  std::string base(opcode);
  if (model::IsMatrixOpcode(base))
    ++function.matrix_ops[base];
}

SassListing ParseSass(std::string_view text, const std::string& file) {
  SassParser parser(file);
  parser.Feed(text);
  return parser.Finish();
}

}  // namespace gpuperf::io::sass
