#!/usr/bin/env python3
"""Makes a large Nsight Systems SQLite export for the benchmark by replicating a real one.

Usage: synthesize_large_nsys.py SOURCE.sqlite OUT.sqlite COPIES

Every CUPTI activity table (kernels, runtime calls, memcpy, memset, synchronization) is
replicated COPIES times; each copy is shifted past the end of the previous one and gets its
own correlation ids, so the result reads like one long run of the same program.
"""
import shutil
import sqlite3
import sys

TABLES = [
    "CUPTI_ACTIVITY_KIND_KERNEL",
    "CUPTI_ACTIVITY_KIND_RUNTIME",
    "CUPTI_ACTIVITY_KIND_DRIVER",
    "CUPTI_ACTIVITY_KIND_MEMCPY",
    "CUPTI_ACTIVITY_KIND_MEMSET",
    "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    source, out, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
    shutil.copyfile(source, out)
    db = sqlite3.connect(out)
    present = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    tables = [t for t in TABLES if t in present]
    lo = min(db.execute(f"SELECT min(start) FROM {t}").fetchone()[0] or 0 for t in tables)
    hi = max(db.execute(f"SELECT max(end) FROM {t}").fetchone()[0] or 0 for t in tables)
    max_corr = max(db.execute(f"SELECT max(correlationId) FROM {t}").fetchone()[0] or 0
                   for t in tables)
    span = hi - lo + 1000
    for t in tables:
        columns = [r[1] for r in db.execute(f"PRAGMA table_info({t})")]
        originals = f"SELECT * FROM {t}"
        db.execute(f"CREATE TEMP TABLE original AS {originals}")
        for copy in range(1, copies):
            shifted = []
            for c in columns:
                if c in ("start", "end"):
                    shifted.append(f"{c} + {copy * span}")
                elif c == "correlationId":
                    shifted.append(f"CASE WHEN {c} IS NULL THEN NULL ELSE {c} + {copy * (max_corr + 1)} END")
                else:
                    shifted.append(c)
            db.execute(f"INSERT INTO {t} SELECT {', '.join(shifted)} FROM temp.original")
        db.execute("DROP TABLE temp.original")
    db.commit()
    rows = sum(db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables)
    print(f"{out}: {rows} activity rows in {len(tables)} tables")


if __name__ == "__main__":
    main()
