#!/usr/bin/env python3
"""Compare folio binaries on one site, builds interleaved, stage by stage.

    bench/compare.py [--scenario cold|noop|body|new|ratio] SITE RUNS BIN [BIN...]

Builds SITE with each binary in turn, RUNS rounds, and prints the median wall
time of every stage (`folio build --json` reports them), of the whole process,
of its CPU time (user, system and their sum) and of its peak resident memory.
Interleaving puts each binary through the same minutes of a noisy machine; on a
shared 2-core machine, differences under ~5% need RUNS >= 9 to mean anything.

Scenarios:
  cold  (default) every build starts with no index and no output, into a
        scratch output folder; SITE's own `.folio/` index is removed first.
  noop  each binary gets its own copy of SITE and output folder, built cold
        once, untimed; every timed build then has nothing to do.
  body  as noop, but before every timed build a sentence is appended to the
        middle English post of that binary's copy (as bench/run.sh does).
  new   as noop, but before every timed build a new English post is added to
        that binary's copy (the middle one, under another file name): a
        build that plans every page.
  ratio each round times a noop build, then a body build, per binary, and
        prints both medians and their ratio (one body edit against the no-op,
        which a one-off `folio build` should keep small), with the ratio's
        quartiles across rounds from 4 rounds on. Each ratio is taken
        within one round, so a noisy minute moves both of its builds.
Stages a build skipped count as 0 ms.

FOLIO_ARGS, if set, is appended to every build's arguments (e.g.
`--threads 1`).

SITE is a generated corpus (bench/gen_corpus.py --format folio). Python 3
standard library only.
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
    return build(binary, site, out)


def build(binary, site, out):
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


def edited_post(site):
    """The middle English post, the one bench/run.sh edits."""
    posts = sorted(os.listdir(os.path.join(site, "content", "en", "posts")))
    return os.path.join(site, "content", "en", "posts", posts[(len(posts) - 1) // 2])


def add_post(site, run):
    """A new English post, a copy of the middle one under another name (its
    slug), so that every build of a run adds one document."""
    with open(edited_post(site), encoding="utf-8") as f:
        text = f.read()
    name = os.path.join(site, "content", "en", "posts", f"zz-added-{run}.md")
    with open(name, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    args = sys.argv[1:]
    scenario = "cold"
    if args[:1] == ["--scenario"] and len(args) > 1:
        scenario, args = args[1], args[2:]
    if scenario not in ("cold", "noop", "body", "new", "ratio") or len(args) < 3 or not args[1].isdigit():
        sys.exit(__doc__)
    site, runs, binaries = args[0], int(args[1]), args[2:]
    rows = [[] for _ in binaries]
    with tempfile.TemporaryDirectory(dir="/dev/shm" if os.path.isdir("/dev/shm") else None) as scratch:
        if scenario == "cold":
            out = os.path.join(scratch, "out")
            for _ in range(runs):
                for n, binary in enumerate(binaries):
                    rows[n].append(cold_build(binary, site, out))
        else:
            # Each binary keeps its own index and output: one binary's build
            # must not decide what the next one finds to do.
            own = []
            for n, binary in enumerate(binaries):
                copy, out = os.path.join(scratch, f"site{n}"), os.path.join(scratch, f"out{n}")
                shutil.copytree(site, copy, ignore=shutil.ignore_patterns(".folio"))
                cold_build(binary, copy, out)
                own.append((copy, out, edited_post(copy)))
            for run in range(runs):
                for n, binary in enumerate(binaries):
                    copy, out, post = own[n]
                    if scenario == "ratio":
                        noop = build(binary, copy, out)["wall"]
                    if scenario in ("body", "ratio"):
                        with open(post, "a", encoding="utf-8") as f:
                            f.write(f"\nOne more sentence, appended by compare.py ({run}).\n")
                    if scenario == "new":
                        add_post(copy, run)
                    row = build(binary, copy, out)
                    if scenario == "ratio":
                        row = {"noop wall": noop, "body wall": row["wall"], "body ÷ noop": row["wall"] / noop}
                    rows[n].append(row)
    if scenario == "ratio":
        print("median".ljust(12) + "".join(f"{os.path.basename(b)[:14]:>15}" for b in binaries))
        for figure, form in (("noop wall", "15.0f"), ("body wall", "15.0f"), ("body ÷ noop", "15.2f")):
            cells = [statistics.median(row[figure] for row in runs_of) for runs_of in rows]
            print(figure.ljust(12) + "".join(f"{cell:{form}}" for cell in cells))
        # How far the rounds spread: a goal met by the median alone may be
        # a quiet minute's.
        if runs >= 4:
            spreads = []
            for runs_of in rows:
                q1, _, q3 = statistics.quantiles([row["body ÷ noop"] for row in runs_of], n=4)
                spreads.append(f"{q1:.2f}–{q3:.2f}")
            print("  q1–q3".ljust(12) + "".join(f"{cell:>15}" for cell in spreads))
        return
    # Every stage any build reported (an older binary may lack a newer
    # one's), in the order they came, then the process's own figures.
    process = ["wall", "user", "system", "cpu", "peak MB"]
    stages = []
    for runs_of in rows:
        for row in runs_of:
            stages += [stage for stage in row if stage not in stages and stage not in process]
    stages += process
    print("median ms".ljust(12) + "".join(f"{os.path.basename(b)[:14]:>15}" for b in binaries))
    for stage in stages:
        cells = [statistics.median(row.get(stage, 0) for row in runs_of) for runs_of in rows]
        print(stage.ljust(12) + "".join(f"{cell:15.0f}" for cell in cells))


if __name__ == "__main__":
    main()
