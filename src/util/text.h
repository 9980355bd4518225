// The text helpers every parser shares. White space is the C locale's (space, \t, \n, \v, \f, \r)
// and case is ASCII case, whatever the process locale: the formats gpuperf reads are ASCII
// where these apply, and their bytes above 0x7F (UTF-8) stay as they are.
#pragma once

#include <string>
#include <string_view>

namespace gpuperf::util {

// One of the six white-space bytes above.
bool IsSpace(char c);

// `text` without leading and trailing white space.
std::string_view Trim(std::string_view text);

// `text` with A-Z lowered to a-z.
std::string ToLower(std::string_view text);

}  // namespace gpuperf::util
