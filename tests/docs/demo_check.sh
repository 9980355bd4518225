#!/usr/bin/env bash
# scripts/demo.sh on the binary under test (GPUPERF_BINARY: no build): it must exit 0, print the
# diagnosis and the paths of the files it wrote, and those files must exist.
# Usage: demo_check.sh SOURCE_DIR GPUPERF OUT_DIR
set -euo pipefail
source_dir=$1
export GPUPERF_BINARY=$2 GPUPERF_DEMO_OUT=$3 COLUMNS=80
fail() { echo "FAILED: $*"; exit 1; }
out=$("$source_dir/scripts/demo.sh" 2>&1) || fail "demo.sh exited non-zero: $out"
echo "$out"
[[ $out == *"Diagnosis: "* ]] || fail "no diagnosis printed"
for file in report.md report.json; do
  [[ -s $GPUPERF_DEMO_OUT/$file ]] || fail "$GPUPERF_DEMO_OUT/$file missing"
  [[ $out == *"$GPUPERF_DEMO_OUT/$file"* ]] || fail "the path of $file is not printed"
done
