#!/usr/bin/env python3
"""Compare folio binaries on one site, cold builds interleaved, stage by stage.

    bench/compare.py SITE RUNS BIN [BIN...]

Builds SITE cold with each binary in turn, RUNS rounds, into a scratch output
folder, and prints the median wall time of every stage (`folio build --json`
reports them), of the whole process, of its CPU time (user, system and their sum) and of its peak resident
memory.
Interleaving puts each binary through the same minutes of a noisy machine; on a
shared 2-core machine, differences under ~5% need RUNS >= 9 to mean anything.

FOLIO_ARGS, if set, is appended to every build's arguments (e.g.
`--threads 1`).

SITE is a generated corpus (bench/gen_corpus.py --format folio); its `.folio/`
index is removed before every build. Python 3 standard library only.
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def cold_build(binary, site, out):
    shutil.rmtree(os.path.join(site, ".folio"), ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        child = subprocess.Popen(
            [binary, "build", "--root", site, "--out", out, "--json"] + os.environ.get("FOLIO_ARGS", "").split(),
            stdout=subprocess.PIPE,
            stderr=errors,
        )
        report = child.stdout.read()
        # wait4 gives this child's own usage, peak memory included.
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            errors.seek(0)
            sys.exit(f"{binary} failed:\n{errors.read().decode(errors='replace')}")
    row = {stage: ms for stage, ms in json.loads(report)["stages"]}
    row["wall"] = wall * 1000
    row["user"] = usage.ru_utime * 1000
    row["system"] = usage.ru_stime * 1000
    row["cpu"] = row["user"] + row["system"]
    row["peak MB"] = usage.ru_maxrss / 1024
    return row


def main():
    if len(sys.argv) < 4 or not sys.argv[2].isdigit():
        sys.exit(__doc__)
    site, runs, binaries = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    rows = {binary: [] for binary in binaries}
    with tempfile.TemporaryDirectory(dir="/dev/shm" if os.path.isdir("/dev/shm") else None) as scratch:
        out = os.path.join(scratch, "out")
        for _ in range(runs):
            for binary in binaries:
                rows[binary].append(cold_build(binary, site, out))
    stages = list(rows[binaries[0]][0])
    print("median ms".ljust(12) + "".join(f"{os.path.basename(b)[:14]:>15}" for b in binaries))
    for stage in stages:
        cells = [statistics.median(row.get(stage, 0) for row in rows[b]) for b in binaries]
        print(stage.ljust(12) + "".join(f"{cell:15.0f}" for cell in cells))


if __name__ == "__main__":
    main()
