#!/usr/bin/env python3
"""From a save to the browser being told to reload, through `folio serve`.

    bench/serve_latency.py SITE [EDITS] [FOLIO]
    bench/serve_latency.py --anchor hugo|zola SITE [EDITS] [BINARY]

Starts `FOLIO serve --port 0` (default: target/release/folio) on a copy of SITE
(a generated corpus, bench/gen_corpus.py --format folio) in a scratch folder on
/dev/shm, waits for its first build, opens the live-reload event stream as a
tab does, then EDITS times (default 15) appends a sentence to the middle
English post (the edit bench/run.sh makes) and times, from the moment the
write is closed to the moment the `reload` event arrives on the stream: the
watcher's debounce, the session's rebuild and the notification. Prints each
edit and the median.

With --anchor, SITE is a corpus in that tool's format, and BINARY (default: on
the PATH) runs `hugo server` or `zola serve` on a copy of it; after the same
edits, the rebuild time the tool itself prints is collected (Hugo's "Total in
N ms", Zola's "Done in N ms"): neither tells its pages to reload before that.
Python 3 standard library only.
"""

import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time


def edited_post(site, posts_dir=("content", "en", "posts")):
    folder = os.path.join(site, *posts_dir)
    posts = sorted(p for p in os.listdir(folder) if not p.startswith("_") and ".fr." not in p and ".de." not in p)
    return os.path.join(folder, posts[(len(posts) - 1) // 2])


ANCHORS = {
    # tool: (its server's command, the English posts' folder, its line after the
    # first build, its line after a rebuild, with the time it printed)
    "hugo": (lambda binary, site, port: [binary, "server", "--source", site, "--port", str(port),
                                         "--bind", "127.0.0.1", "--disableLiveReload=false"],
             ("content", "en", "posts"), re.compile(r"Built in (\d+) ms"),
             re.compile(r"Total in (\d+) ms")),
    "zola": (lambda binary, site, port: [binary, "--root", site, "serve", "--port", str(port),
                                         "--interface", "127.0.0.1"],
             ("content", "posts"), re.compile(r"Done in ([\d.]+m?s)"),
             re.compile(r"Done in ([\d.]+m?s)")),
}


def anchor(tool, site, edits, binary):
    command, posts_dir, built, rebuilt = ANCHORS[tool]
    scratch = tempfile.mkdtemp(dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    try:
        copy = os.path.join(scratch, "site")
        shutil.copytree(site, copy)
        port = free_port()
        server = subprocess.Popen(command(binary, copy, port), stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, cwd=copy)
        try:
            times = []
            # The first build's own line comes first.
            wait_for(server, built)
            post = edited_post(copy, posts_dir)
            for edit in range(edits):
                time.sleep(1.0)
                with open(post, "a", encoding="utf-8") as f:
                    f.write(f"\nOne more sentence, appended by serve_latency.py ({edit}).\n")
                times.append(milliseconds(wait_for(server, rebuilt)))
                print(f"{tool} edit {edit:2}: {times[-1]:8.0f} ms (as {tool} prints it)")
            print(f"{tool} median: {statistics.median(times):.0f} ms rebuild after one edit ({edits} edits)")
        finally:
            server.terminate()
            server.wait()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def milliseconds(printed):
    """`123` (ms), `123ms` or `1.5s` as milliseconds."""
    if printed.endswith("ms"):
        return float(printed[:-2])
    if printed.endswith("s"):
        return float(printed[:-1]) * 1000
    return float(printed)


def wait_for(server, pattern):
    for line in server.stdout:
        found = pattern.search(line)
        if found:
            return found.group(1)
    sys.exit("the server stopped")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main():
    args = sys.argv[1:]
    if args[:1] == ["--anchor"] and len(args) >= 3 and args[1] in ANCHORS:
        tool, site = args[1], args[2]
        edits = int(args[3]) if len(args) > 3 else 15
        return anchor(tool, site, edits, args[4] if len(args) > 4 else tool)
    if not args:
        sys.exit(__doc__)
    site, edits = args[0], int(args[1]) if len(args) > 1 else 15
    folio = args[2] if len(args) > 2 else os.path.join(os.path.dirname(__file__), "..", "target", "release", "folio")
    scratch = tempfile.mkdtemp(dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    try:
        copy = os.path.join(scratch, "site")
        shutil.copytree(site, copy, ignore=shutil.ignore_patterns(".folio", "public"))
        server = subprocess.Popen([folio, "serve", "--port", "0", "--root", copy],
                                  stdout=subprocess.PIPE, text=True)
        try:
            run(server, copy, edits)
        finally:
            server.terminate()
            server.wait()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def run(server, site, edits):
    for line in server.stdout:
        if line.startswith("serving "):
            url = line.split(" at ")[1].split()[0]
            break
        print(line.rstrip(), file=sys.stderr)
    host, port = url[len("http://"):].rstrip("/").split(":")
    tab = socket.create_connection((host, int(port)))
    tab.sendall(b"GET /__folio/live HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n")
    seen = b""
    while b"\r\n\r\n" not in seen:
        seen += tab.recv(4096)
    post = edited_post(site)
    times = []
    for edit in range(edits):
        # Between edits, the watcher and the previous rebuild settle.
        time.sleep(0.3)
        with open(post, "a", encoding="utf-8") as f:
            f.write(f"\nOne more sentence, appended by serve_latency.py ({edit}).\n")
        saved = time.perf_counter()
        seen = b""
        while b"event: reload" not in seen:
            chunk = tab.recv(4096)
            if not chunk:
                sys.exit("the event stream ended")
            seen += chunk
        times.append((time.perf_counter() - saved) * 1000)
        print(f"edit {edit:2}: {times[-1]:6.1f} ms")
    print(f"median: {statistics.median(times):.1f} ms from the save to the reload event ({edits} edits)")


if __name__ == "__main__":
    main()
