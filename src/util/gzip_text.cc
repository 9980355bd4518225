#include "util/gzip_text.h"

#include <zlib.h>

#include <limits>

namespace gpuperf::util {

Result<std::string> GzipText(std::string_view text) {
  if (text.size() > std::numeric_limits<uInt>::max())
    return Error{"gzip: the text is 4 GiB or larger; write it without gzip"};
  z_stream stream{};
  // windowBits 15 + 16: a gzip header and trailer instead of zlib's.
  if (deflateInit2(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return Error{"gzip: deflateInit2 failed"};
  std::string out(deflateBound(&stream, static_cast<uLong>(text.size())), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  stream.avail_in = static_cast<uInt>(text.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int result = deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  if (result != Z_STREAM_END)
    return Error{"gzip: deflate failed"};
  return out;
}

}  // namespace gpuperf::util
