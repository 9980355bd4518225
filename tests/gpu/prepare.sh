#!/usr/bin/env bash
# Builds here, without a GPU, what tests/gpu/run.sh runs on the GPU machine, and packs it small
# enough to travel (the device tool carries at most 64 MiB):
#
#   tests/gpu/prepare.sh [PACK_DIR]      (default build-gpu; carry it, then run tests/gpu/run.sh)
#
# PACK_DIR/src/gpuperf and libgpuperf_inject.so, PACK_DIR/kernels/ (sample workload, ceilings
# probe), stripped, in the layout gpuperf expects (the injected library beside gpuperf, the probe
# in ../kernels); PACK_DIR/bundle/: the shared libraries from Debian that the GPU machine's image
# may lack (fmt, spdlog, sqlite, zlib; run.sh puts them on LD_LIBRARY_PATH). The CUDA libraries
# (libcupti, libnvperf_*, libcudart) are not packed: they must match the machine's driver, and
# run.sh finds them there. Fails when a binary needs a glibc newer than 2.35 (the oldest image it
# was meant for is Ubuntu 22.04's; the H200 machine runs Ubuntu 24.04's Python 3.12).
set -euo pipefail
cd "$(dirname "$0")/../.."
PACK=${1:-build-gpu}
BUILD=build-record
MAX_GLIBC=2.35

cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUPERF_BUILD_TESTS=OFF \
  -DGPUPERF_BUILD_BENCH=OFF > /dev/null
cmake --build "$BUILD" -j"$(nproc)" --target gpuperf gpuperf_inject gpuperf_sample_workload \
  gpuperf_ceilings_probe

rm -rf "$PACK"
mkdir -p "$PACK/src" "$PACK/kernels" "$PACK/bundle"
binaries=("$PACK/src/gpuperf" "$PACK/src/libgpuperf_inject.so"
          "$PACK/kernels/gpuperf_sample_workload" "$PACK/kernels/gpuperf_ceilings_probe")
cp "$BUILD/src/gpuperf" "$BUILD/src/libgpuperf_inject.so" "$PACK/src/"
cp "$BUILD/kernels/gpuperf_sample_workload" "$BUILD/kernels/gpuperf_ceilings_probe" "$PACK/kernels/"
strip --strip-debug "${binaries[@]}"

# Libraries the image of a CUDA machine has anyway, or that must come from its driver/toolkit.
system_lib='^(linux-vdso|ld-linux|libc|libm|libdl|libpthread|librt|libutil|libgcc_s|libstdc\+\+|libcuda|libcupti|libcudart|libnvperf_host|libnvperf_target)\.so'
status=0
check_glibc() {  # FILE: fails when it needs a glibc symbol version newer than MAX_GLIBC
  local newest
  newest=$(objdump -T "$1" | { grep -o 'GLIBC_[0-9.]*' || true; } | sed 's/GLIBC_//' | sort -V | tail -1)
  [[ -n $newest ]] || return 0
  if [[ $(printf '%s\n%s\n' "$newest" "$MAX_GLIBC" | sort -V | tail -1) != "$MAX_GLIBC" ]]; then
    echo "prepare: $1 needs GLIBC_$newest (newer than $MAX_GLIBC)" >&2
    status=1
  fi
}
for binary in "${binaries[@]}"; do
  while read -r name _ path _; do
    [[ $name =~ $system_lib ]] && continue
    [[ -f $path ]] || { echo "prepare: $binary needs $name, not found here" >&2; status=1; continue; }
    cp -L "$path" "$PACK/bundle/$name"
  done < <(ldd "$binary" | awk '$2 == "=>" {print $1, $2, $3}')
  check_glibc "$binary"
done
for lib in "$PACK"/bundle/*.so*; do [[ -f $lib ]] && check_glibc "$lib"; done
# The sample workload must hold sm_90 SASS (HOPPER.md: PTX alone is JIT-compiled at start).
if command -v cuobjdump > /dev/null; then
  cuobjdump --list-elf "$PACK/kernels/gpuperf_sample_workload" | grep -q sm_90 ||
    { echo "prepare: the sample workload has no sm_90 code" >&2; status=1; }
else
  echo "prepare: no cuobjdump here: the sample's sm_90 code is not checked" >&2
fi
# What was packed, printed by run.sh: a stale pack would test old code.
echo "$(git describe --always --dirty 2>/dev/null || echo unknown) packed $(date -u +%FT%TZ)" \
  > "$PACK/VERSION"
cat "$PACK/VERSION"
du -sh "$PACK" "$PACK"/bundle
exit $status
