#!/usr/bin/env bash
# report.md as a reviewer sees it: renders the report.md of three corpus traces (one host-bound,
# one GPU-bound (a compute-bound hypothesis), one Nsight Compute CSV) with a GitHub-Flavoured
# Markdown renderer (cmark-gfm) and
# takes a screenshot of the first screen (GPUPERF_SCREENSHOT_FULL=1: also the whole page) in
# headless Chromium (Debian's chromium), into docs/screenshots/. Needs GPUPERF_CORPUS (or ../shared/traces) and a built
# gpuperf; installs cmark-gfm and chromium when missing (as root, like scripts/setup.sh).
# Usage: scripts/screenshots.sh [GPUPERF]
set -euo pipefail
cd "$(dirname "$0")/.."
gpuperf=$(realpath "${1:-build/src/gpuperf}")
corpus=${GPUPERF_CORPUS:-../shared/traces}
out=docs/screenshots
for tool in cmark-gfm chromium; do
  command -v "$tool" >/dev/null || {
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq --no-install-recommends cmark-gfm chromium >/dev/null
  }
done
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# name:trace (relative to the corpus)
cases=(
  "host-bound:kineto/tracelens/h100/google_owlv2-large-patch14-ensemble__1016001.json.gz"
  "gpu-bound:kineto/tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz"
  "ncu:ncu/learningnote4dev-a100/sgemm.csv"
)
for entry in "${cases[@]}"; do
  name=${entry%%:*}
  trace=$corpus/${entry#*:}
  "$gpuperf" analyze "$trace" --out "$work/$name" --format md --quiet
  {
    # GitHub's width and fonts, close enough to judge layout and length.
    cat <<'HTML'
<!doctype html><html><head><meta charset="utf-8"><style>
body{font-family:-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;font-size:14px;line-height:1.5;
max-width:1012px;margin:24px auto;padding:0 32px;color:#1f2328}
table{border-collapse:collapse;display:block;overflow:auto;margin:0 0 16px}
th,td{border:1px solid #d0d7de;padding:6px 13px}tr:nth-child(2n){background:#f6f8fa}
code{background:#afb8c133;padding:.2em .4em;border-radius:6px;font-size:85%}
h1,h2{border-bottom:1px solid #d0d7de;padding-bottom:.3em}img{max-width:100%}
</style></head><body>
HTML
    cmark-gfm --unsafe --extension table --extension strikethrough --extension autolink \
      "$work/$name/report.md"
    echo '</body></html>'
  } >"$work/$name/report.html"
  shots=(first:1280,900)
  [[ -n ${GPUPERF_SCREENSHOT_FULL:-} ]] && shots+=(page:1280,6000)
  for shot in "${shots[@]}"; do
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
      --window-size="${shot#*:}" --screenshot="$(pwd)/$out/$name-${shot%%:*}.png" \
      "file://$work/$name/report.html" >/dev/null 2>&1
  done
  echo "$out/$name-first.png: $(wc -c <"$work/$name/report.md") characters of report.md from ${entry#*:}"
done
