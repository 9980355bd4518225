#!/usr/bin/env python3
"""Makes a large multi-rank job for the `gpuperf ranks` benchmark by replicating real ranks.

Usage: synthesize_ranks.py SOURCE_DIR OUT_DIR RANKS

Each output rank i is source rank (i mod n) with distributedInfo.rank = i and world_size = RANKS,
written as OUT_DIR/rank-<i>.json.gz.
"""
import gzip
import json
import os
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    source, out, ranks = sys.argv[1], sys.argv[2], int(sys.argv[3])
    files = sorted(os.path.join(source, f) for f in os.listdir(source))
    traces = []
    for f in files:
        with gzip.open(f, "rt") if f.endswith(".gz") else open(f) as handle:
            traces.append(json.load(handle))
    os.makedirs(out, exist_ok=True)
    for i in range(ranks):
        trace = traces[i % len(traces)]
        info = trace.setdefault("distributedInfo", {})
        info["rank"] = i
        info["world_size"] = ranks
        with gzip.open(os.path.join(out, f"rank-{i}.json.gz"), "wt", compresslevel=1) as handle:
            json.dump(trace, handle)
    print(f"{out}: {ranks} ranks from {len(traces)} source traces")


if __name__ == "__main__":
    main()
