#!/usr/bin/env python3
"""From a save to the browser being told to reload, through `folio serve`.

    bench/serve_latency.py SITE [EDITS] [FOLIO]

Starts `FOLIO serve --port 0` (default: target/release/folio) on a copy of SITE
(a generated corpus, bench/gen_corpus.py --format folio) in a scratch folder on
/dev/shm, waits for its first build, opens the live-reload event stream as a
tab does, then EDITS times (default 15) appends a sentence to the middle
English post (the edit bench/run.sh makes) and times, from the moment the
write is closed to the moment the `reload` event arrives on the stream: the
watcher's debounce, the session's rebuild and the notification. Prints each
edit and the median. Python 3 standard library only.
"""

import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time


def edited_post(site):
    posts = sorted(os.listdir(os.path.join(site, "content", "en", "posts")))
    return os.path.join(site, "content", "en", "posts", posts[(len(posts) - 1) // 2])


def main():
    args = sys.argv[1:]
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
    tab.sendall(b"GET /__folio/live HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
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
