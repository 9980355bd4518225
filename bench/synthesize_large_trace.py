#!/usr/bin/env python3
"""Synthesizes a large Kineto trace by replicating a real one with shifted timestamps.

Usage: synthesize_large_trace.py SOURCE(.json|.json.gz) OUT.json TARGET_MB

Each copy's events are shifted by the source's span (plus 1 ms) so the copies follow one another
on the same devices and streams; correlation ids and External ids are offset per copy so launches
still join to their own kernels. The header (deviceProperties, ...) is kept once. Timestamps are
rewritten from their literal text (µs with up to 3 decimals) through integer nanoseconds, never a
float, exactly as the importer reads them.
"""
import gzip
import json
import re
import sys
from decimal import Decimal


def open_any(path):
    with open(path, "rb") as f:
        magic = f.read(2)
    return gzip.open(path, "rt") if magic == b"\x1f\x8b" else open(path, "rt")


def to_ns(value):
    return int(Decimal(str(value)) * 1000)


def fmt_us(ns):
    return f"{ns // 1000}.{ns % 1000:03d}"


def main():
    source, out_path, target_mb = sys.argv[1], sys.argv[2], float(sys.argv[3])
    with open_any(source) as f:
        doc = json.load(f, parse_float=Decimal, parse_int=Decimal)
    events = doc.pop("traceEvents")
    timed = [e for e in events if isinstance(e, dict) and "ts" in e and e.get("ph") != "M"]
    start = min(to_ns(e["ts"]) for e in timed)
    end = max(to_ns(e["ts"]) + to_ns(e.get("dur", 0)) for e in timed)
    shift_ns = end - start + 1_000_000
    max_corr = 0
    for e in events:
        args = e.get("args") if isinstance(e, dict) else None
        if isinstance(args, dict):
            for key in ("correlation", "External id"):
                if isinstance(args.get(key), Decimal):
                    max_corr = max(max_corr, int(args[key]))
    corr_step = max_corr + 1

    def dumps(obj):
        return json.dumps(obj, separators=(",", ":"), default=lambda d: int(d) if d == int(d) else float(d))

    header = dumps(doc)[:-1]  # drop the closing brace
    written = 0
    copy = 0
    with open(out_path, "w") as out:
        out.write(header + (',' if len(doc) else '') + '"traceEvents":[')
        first = True
        while written < target_mb * 1e6:
            for e in events:
                if not isinstance(e, dict):
                    continue
                if copy > 0 and e.get("ph") == "M":
                    continue
                text = dumps(e)
                if copy > 0:
                    e2 = dict(e)
                    if "ts" in e2:
                        e2["ts"] = "@TS@"
                    args = e2.get("args")
                    if isinstance(args, dict):
                        args = dict(args)
                        for key in ("correlation", "External id"):
                            if isinstance(args.get(key), Decimal) and int(args[key]) > 0:
                                args[key] = int(args[key]) + copy * corr_step
                        e2["args"] = args
                    if e2.get("ph") in ("s", "f") and isinstance(e2.get("id"), Decimal):
                        e2["id"] = int(e2["id"]) + copy * corr_step
                    text = dumps(e2)
                    if "ts" in e:
                        text = text.replace('"@TS@"', fmt_us(to_ns(e["ts"]) + copy * shift_ns), 1)
                out.write(("" if first else ",") + text)
                first = False
                written += len(text) + 1
            copy += 1
        out.write("]}\n")
    print(f"{out_path}: {copy} copies, {written / 1e6:.0f} MB of events", file=sys.stderr)


if __name__ == "__main__":
    main()
