#!/usr/bin/env bash
# `cmake --install` lays gpuperf out where it finds its parts (cmake/GpuperfInstall.cmake):
# bin/gpuperf runs from the prefix; the recorder's library (bin/../lib) and the ceilings probe
# (beside gpuperf) are where the code looks for them, when they were built; the docs are there.
# Usage: install_layout.sh BUILD_DIR
set -euo pipefail
build=$1
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
fail() { echo "FAILED: $*"; exit 1; }
[[ -x $prefix/bin/gpuperf ]] || fail "bin/gpuperf not installed"
"$prefix/bin/gpuperf" --version >/dev/null || fail "installed gpuperf does not run"
for doc in README.md LICENSE docs/cli.md examples/ci/gpuperf-compare.yml; do
  [[ -f $prefix/share/doc/gpuperf/$doc ]] || fail "share/doc/gpuperf/$doc not installed"
done
if [[ -e $build/src/libgpuperf_inject.so ]]; then
  # LocateInjectLibrary (src/record/baseline.cc) looks beside gpuperf, then in its ../lib.
  [[ -f $prefix/bin/../lib/libgpuperf_inject.so ]] || fail "lib/libgpuperf_inject.so not installed"
fi
if [[ -e $build/kernels/gpuperf_ceilings_probe ]]; then
  [[ -x $prefix/bin/gpuperf_ceilings_probe ]] || fail "bin/gpuperf_ceilings_probe not installed"
fi
echo "installed layout ok under a temporary prefix"
