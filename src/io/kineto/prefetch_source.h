// A ByteSource that reads its inner source on a worker thread, one chunk ahead, so that gunzip
// and JSON tokenizing run on two cores at once. Errors of the inner source arrive in order,
// after the bytes read before them.
#pragma once

#include <cstddef>
#include <memory>

#include "util/byte_source.h"

namespace gpuperf::io::kineto {

std::unique_ptr<util::ByteSource> MakePrefetchSource(std::unique_ptr<util::ByteSource> inner,
                                                     std::size_t chunk_bytes);

}  // namespace gpuperf::io::kineto
