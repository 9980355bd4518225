#!/usr/bin/env python3
"""Writes the seed corpus of the nsys fuzz target into tests/fuzz/corpus/nsys/.

Every file is synthetic: tiny Nsight-Systems-shaped SQLite databases with the column sets of
each schema generation (docs/formats.md, "Nsight Systems export"), plus damaged variants. 512-byte pages keep each
file a few KB. Run from anywhere: python3 tests/fuzz/corpus/make_nsys_corpus.py
"""
import gzip
import os
import sqlite3

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nsys")

GPID = (1 << 56) | (4242 << 24)          # globalPid of pid 4242
GTID = GPID | 4243                        # globalTid of tid 4243

KERNEL_29 = ("start, end, deviceId, contextId, streamId, correlationId, globalPid, demangledName,"
             " shortName, mangledName, launchType, cacheConfig, registersPerThread, gridX, gridY,"
             " gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory,"
             " localMemoryPerThread, localMemoryTotal, gridId, sharedMemoryExecuted, graphNodeId,"
             " sharedMemoryLimitConfig")
MEMCPY_29 = ("start, end, deviceId, contextId, streamId, correlationId, globalPid, bytes, copyKind,"
             " deprecatedSrcId, srcKind, dstKind, srcDeviceId, srcContextId, dstDeviceId,"
             " dstContextId, migrationCause, graphNodeId, virtualAddress")
MEMSET_29 = ("start, end, deviceId, contextId, streamId, correlationId, globalPid, value, bytes,"
             " graphNodeId, memKind")
SYNC_29 = "start, end, deviceId, contextId, streamId, correlationId, globalPid, syncType, eventId"
RUNTIME = "start, end, eventClass, globalTid, correlationId, nameId, returnValue, callchainId"
NVTX = ("start, end, eventType, rangeId, category, color, text, globalTid, endGlobalTid, textId,"
        " domainId, uint64Value, int64Value, doubleValue, uint32Value, int32Value, floatValue,"
        " jsonTextId, jsonText")
GPU = ("vmId, id, name, busLocation, isDiscrete, l2CacheSize, totalMemory, memoryBandwidth,"
       " clockRate, smCount, chipName, cuDevice, maxShmemPerSm, maxRegistersPerSm, threadsPerWarp,"
       " maxWarpsPerSm, maxThreadsPerBlock, computeMajor, computeMinor")


def with_green(columns):
    """Schema 3.13+: greenContextId after contextId."""
    return columns.replace("contextId, streamId", "contextId, greenContextId, streamId", 1)


def create(cur, table, columns):
    cur.execute(f"CREATE TABLE {table} ({columns})")


def insert(cur, table, columns, rows):
    names = [c.strip() for c in columns.split(",")]
    for row in rows:
        values = {**{n: None for n in names}, **row}
        marks = ", ".join("?" for _ in names)
        cur.execute(f"INSERT INTO {table} VALUES ({marks})", [values[n] for n in names])


def fill(cur, meta_table, version, schema, kernel, memcpy, memset, sync, nvtx=NVTX):
    cur.execute(f"CREATE TABLE {meta_table} (name TEXT NOT NULL, value TEXT)")
    cur.executemany(f"INSERT INTO {meta_table} VALUES (?, ?)",
                    [("EXPORT_PRODUCT_VERSION", version), ("EXPORT_SCHEMA_VERSION", schema)])
    cur.execute("CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL)")
    cur.executemany("INSERT INTO StringIds VALUES (?, ?)",
                    [(1, "saxpy(double *, double *, double *, double, int)"), (2, "saxpy"),
                     (3, "cudaLaunchKernel_v7000"), (4, "cudaMemcpy_v3020"),
                     (5, "cuLaunchKernel"), (6, "MPI_Send"), (7, "cudaMemset_v3020")])
    for table, columns in [("CUPTI_ACTIVITY_KIND_KERNEL", kernel),
                           ("CUPTI_ACTIVITY_KIND_MEMCPY", memcpy),
                           ("CUPTI_ACTIVITY_KIND_MEMSET", memset),
                           ("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", sync),
                           ("CUPTI_ACTIVITY_KIND_RUNTIME", RUNTIME), ("NVTX_EVENTS", nvtx),
                           ("TARGET_INFO_GPU", GPU), ("PROCESSES", "globalPid, pid, name"),
                           ("TARGET_INFO_SESSION_START_TIME", "utcEpochNs, utcTime, localTime")]:
        create(cur, table, columns)
    common = dict(deviceId=0, contextId=1, streamId=7, globalPid=GPID)
    insert(cur, "CUPTI_ACTIVITY_KIND_KERNEL", kernel, [
        dict(common, start=1000 + 100 * i, end=1050 + 100 * i, correlationId=10 + i,
             demangledName=1, shortName=2, registersPerThread=16, gridX=2, gridY=1, gridZ=1,
             blockX=512, blockY=1, blockZ=1, staticSharedMemory=0, dynamicSharedMemory=48,
             graphId=3) for i in range(3)])
    insert(cur, "CUPTI_ACTIVITY_KIND_MEMCPY", memcpy, [
        dict(common, start=500, end=900, correlationId=9, bytes=8192, copyKind=1, srcKind=0,
             dstKind=2),
        dict(common, start=1400, end=1600, correlationId=20, bytes=8192, copyKind=2, srcKind=2,
             dstKind=1)])
    insert(cur, "CUPTI_ACTIVITY_KIND_MEMSET", memset, [
        dict(common, start=950, end=960, correlationId=21, value=0, bytes=4, memKind=2)])
    insert(cur, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", sync, [
        dict(common, start=1700, end=1800, correlationId=22, syncType=3, eventId=0)])
    insert(cur, "CUPTI_ACTIVITY_KIND_RUNTIME", RUNTIME, [
        dict(start=400, end=950, eventClass=1, globalTid=GTID, correlationId=9, nameId=4,
             returnValue=0),
        dict(start=990, end=1010, eventClass=1, globalTid=GTID, correlationId=10, nameId=3,
             returnValue=0),
        dict(start=1090, end=1110, eventClass=1, globalTid=GTID, correlationId=11, nameId=5,
             returnValue=0),
        dict(start=940, end=945, eventClass=1, globalTid=GTID, correlationId=21, nameId=7,
             returnValue=0)])
    insert(cur, "NVTX_EVENTS", nvtx, [
        dict(start=5, eventType=75, text="MPI", globalTid=GTID, domainId=1),
        dict(start=300, end=1900, eventType=59, text="step", globalTid=GTID, domainId=0),
        dict(start=1300, end=1350, eventType=59, textId=6, globalTid=GTID, domainId=1),
        dict(start=1320, end=1330, eventType=60, text="startend", globalTid=GTID, domainId=0),
        dict(start=1340, eventType=34, text="mark", globalTid=GTID, domainId=0)])
    insert(cur, "TARGET_INFO_GPU", GPU, [
        dict(vmId=0, id=0, name="NVIDIA H200", l2CacheSize=62914560, totalMemory=150006595584,
             memoryBandwidth=4916736000000, clockRate=1980000000, smCount=132, cuDevice=0,
             maxShmemPerSm=233472, maxRegistersPerSm=65536, threadsPerWarp=32, maxWarpsPerSm=64,
             maxThreadsPerBlock=1024, computeMajor=9, computeMinor=0)])
    cur.execute("INSERT INTO PROCESSES VALUES (?, 4242, 'saxpy')", (GPID,))
    cur.execute("INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1687813257637297504, '', '')")


def write_db(name, build):
    path = os.path.join(OUT, name)
    if os.path.exists(path):
        os.remove(path)
    con = sqlite3.connect(path)
    con.execute("PRAGMA page_size = 512")
    cur = con.cursor()
    build(cur)
    con.commit()
    con.execute("VACUUM")
    con.close()
    with open(path, "rb") as f:
        return f.read()


def main():
    os.makedirs(OUT, exist_ok=True)
    v29 = write_db("v2_9_nsys2022_2.sqlite", lambda c: fill(
        c, "EXPORT_META_DATA", "2022.2.1.31", "2.9.1", KERNEL_29,
        MEMCPY_29 + ", name TEXT", MEMSET_29, SYNC_29))  # pipit's extra column
    write_db("v3_16_nsys2024_6.sqlite", lambda c: fill(
        c, "META_DATA_EXPORT", "2024.6.2.25", "3.16.1", with_green(KERNEL_29),
        with_green(MEMCPY_29), with_green(MEMSET_29), with_green(SYNC_29),
        NVTX + ", binaryData BLOB"))
    write_db("v3_24_nsys2025_5.sqlite", lambda c: fill(
        c, "META_DATA_EXPORT", "2025.5.1.121", "3.24.0",
        with_green(KERNEL_29) + ", graphId, clusterX, clusterY, clusterZ",
        with_green(MEMCPY_29) + ", copyCount", with_green(MEMSET_29),
        with_green(SYNC_29) + ", deprecatedSyncType, eventSyncId"))

    def missing_tables(cur):
        fill(cur, "META_DATA_EXPORT", "2025.1.3.140", "3.17.2", KERNEL_29, MEMCPY_29, MEMSET_29,
             SYNC_29)
        for table in ["CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                      "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
                      "NVTX_EVENTS"]:
            cur.execute(f"DROP TABLE {table}")
    write_db("missing_tables.sqlite", missing_tables)

    def malformed(cur):
        fill(cur, "EXPORT_META_DATA", "2022.2.1.31", "2.9.1", KERNEL_29, MEMCPY_29, MEMSET_29,
             SYNC_29)
        cur.execute("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, demangledName, gridX)"
                    " VALUES (10, 5, 1, 1), (NULL, 5, 99, 1), (-1, 5, 'x', 9e18),"
                    " (1, 9223372036854775807, 1, -3)")
        cur.execute("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, bytes, copyKind, srcKind)"
                    " VALUES (1, 2, 'many', 200, -1), (3, 4, 1.5, 12, 4)")
        cur.execute("INSERT INTO StringIds VALUES (9000000000000000000, 'far')")
    write_db("malformed_rows.sqlite", malformed)

    write_db("other_schema.sqlite", lambda c: c.execute(
        "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)"))
    with open(os.path.join(OUT, "truncated.sqlite"), "wb") as f:
        f.write(v29[: len(v29) // 2])
    with open(os.path.join(OUT, "v2_9_gzip.sqlite.gz"), "wb") as f:
        f.write(gzip.compress(v29, mtime=0))


if __name__ == "__main__":
    main()
