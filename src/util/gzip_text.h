// Gzip compression of a whole text in memory, so that a compressed output is written like every
// other one: new, every write, the fsync and the close checked (util/durable_file.h).
#pragma once

#include "gpuperf/result.h"

#include <string>
#include <string_view>

namespace gpuperf::util {

// `text` as one gzip member (deflate level 6), readable by gunzip and by util's gunzip source.
// Fails for texts of 4 GiB or more (zlib's one-call limit) and when zlib fails; the messages
// start with "gzip: ".
Result<std::string> GzipText(std::string_view text);

}  // namespace gpuperf::util
